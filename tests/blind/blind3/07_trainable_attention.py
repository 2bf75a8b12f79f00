"""Blind set 3, notebook 07: trainable attention. Written from notebooks/07_trainable_attention.ipynb only.

The multi-head exercise's cases are one learner's whole cell with one line changed (built by _edit below)."""

_MHSA = '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_out // n_heads
        self.causal = causal
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
'''


def _edit(*pairs, base=_MHSA):
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert old in base, old
        base = base.replace(old, new)
    return base


MISTAKES = {
    "mhsa_forward": {
        "no_transpose_copy": (["transpose", "(out, in)", ".t", "out_features"], _edit(
            "copy_(torch.as_tensor(w_query).T)", "copy_(torch.as_tensor(w_query))",
            "copy_(torch.as_tensor(w_key).T)", "copy_(torch.as_tensor(w_key))",
            "copy_(torch.as_tensor(w_value).T)", "copy_(torch.as_tensor(w_value))",
            "copy_(torch.as_tensor(w_out).T)", "copy_(torch.as_tensor(w_out))")),
        "no_eval": (["eval", "dropout", "training mode"], _edit("    layer.eval()\n", "")),
        "scale_d_out": (["d_head", "sqrt", "d_out", "head width"], _edit(
            "/ math.sqrt(self.d_head)", "/ math.sqrt(self.n_heads * self.d_head)")),
        "mask_not_inverted": (["mask", "future", "true where", "inverted", "allowed"], _edit(
            "masked_fill(~self.mask[:t, :t]", "masked_fill(self.mask[:t, :t]")),
        "heads_view_no_transpose": (["heads", "split", "transpose", "columns"], _edit(
            "q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
            "q = self.w_query(inputs).view(b, self.n_heads, t, self.d_head)",
            "k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
            "k = self.w_key(inputs).view(b, self.n_heads, t, self.d_head)",
            "v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
            "v = self.w_value(inputs).view(b, self.n_heads, t, self.d_head)",
            "(weights @ v).transpose(1, 2).reshape(", "(weights @ v).reshape(")),
        "no_output_projection": (["w_out", "output projection"], _edit(
            "return self.w_out(context)", "return context")),
        "softmax_dim_minus2": (["dim", "keys", "last dimension", "columns", "rows"], _edit(
            "torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)")),
    },
    "sinusoidal_encoding": {
        "exponent_i_not_2i": (["2i", "exponent", "frequency", "pair"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = t / 10000 ** (i / d_model)
    P = torch.zeros(n_positions, d_model)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P
'''),
        "sin_cos_swapped": (["sine", "cosine", "even", "odd"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    P = torch.zeros(n_positions, d_model)
    P[:, 0::2] = torch.cos(angles)
    P[:, 1::2] = torch.sin(angles)
    return P
'''),
        "halves_not_interleaved": (["interleav", "even columns", "odd columns", "halves"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
'''),
        "float64": (["float32", "dtype", "float64"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (two_i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P
'''),
        "positions_from_1": (["position", "t = 0", "start", "from 0"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    P = torch.zeros(n_positions, d_model)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P
'''),
        "multiply_not_divide": (["divide", "10000", "frequency", "multipl"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t * 10000 ** (two_i / d_model)
    P = torch.zeros(n_positions, d_model)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P
'''),
    },
    "rotary_embedding": {
        "rotation_sign": (["sign", "rotation", "-sin", "direction"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * cos + x1 * sin, -x0 * sin + x1 * cos], dim=-1).flatten(-2)
'''),
        "ignores_positions": (["positions", "arange", "given positions", "0, 1, 2"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1).flatten(-2)
'''),
        "halves_not_pairs": (["pairs", "neighbouring", "halves", "2i, 2i+1"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x0, x1 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1)
'''),
        "theta_i_not_2i": (["2i", "theta", "frequency", "exponent"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1).flatten(-2)
'''),
        "in_place": (["in place", "change", "clone", "x0"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x0, x1 = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x0 * cos - x1 * sin
    x[..., 1::2] = x0 * sin + x1 * cos
    return x
'''),
    },
    "kv_cache_step": {
        "upper_left_mask": (["lower-right", "corner", "cached", "diagonal", "is_causal"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_k.shape[-2]
    scores = queries @ all_k.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_v
'''),
        "no_mask": (["causal", "mask", "future"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    scores = queries @ all_k.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    return torch.softmax(scores, dim=-1) @ all_v
'''),
        "cache_ignored": (["cache", "append", "cached", "concatenat"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n = queries.shape[-2]
    scores = queries @ keys.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n, n, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "prepend_new": (["order", "append", "after", "end"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([keys, cached_keys], dim=-2)
    all_v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], all_k.shape[-2]
    scores = queries @ all_k.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_v
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_k.shape[-2]
    scores = queries @ all_k.transpose(-1, -2)
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_v
'''),
        "mask_offset_off_by_one": (["off-by-one", "diagonal", "itself", "own key"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_k.shape[-2]
    scores = queries @ all_k.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new - 1)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_v
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "view_transpose": _MHSA,
        "split_with_reshape_permute": _edit(
            "q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
            "q = self.w_query(inputs).reshape(b, t, self.n_heads, -1).permute(0, 2, 1, 3)",
            "scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)",
            "scores = torch.einsum('bhqd,bhkd->bhqk', q / math.sqrt(self.d_head), k)",
            "context = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)",
            "context = torch.einsum('bhqk,bhkd->bqhd', weights, v).flatten(2)"),
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (two_i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P.to(torch.float32)
''',
        "stack_flatten_loop_free": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions).double().unsqueeze(1)
    freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2).double() / d_model)
    angles = pos * freq
    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(n_positions, d_model).float()
''',
    },
    "rotary_embedding": {
        "stack_flatten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1).flatten(-2)
''',
        "complex": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.as_tensor(positions).to(torch.float64)[:, None] * theta
    rot = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(x.to(torch.float64).reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * rot).reshape(x.shape).to(x.dtype)
''',
    },
    "kv_cache_step": {
        "cat_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_k.shape[-2]
    scores = queries @ all_k.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_v
''',
        "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat((cached_keys, keys), -2)
    all_v = torch.cat((cached_values, values), -2)
    n_new, n_all = queries.shape[-2], all_k.shape[-2]
    offset = n_all - n_new
    allowed = torch.arange(n_all)[None, :] <= (torch.arange(n_new)[:, None] + offset)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_k, all_v, attn_mask=allowed)
''',
    },
}

"""Blind set 6, notebook 07: Trainable attention, positions and the key-value cache. Written from notebooks/07_trainable_attention.ipynb only."""

_MHSA = '''
class MultiHeadSelfAttention(nn.Module):
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
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).reshape(b, t, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    return layer(inputs)
'''


def _mhsa(*pairs):
    src = _MHSA
    for old, new in pairs:
        assert old in src, old
        src = src.replace(old, new)
    return src


MISTAKES = {
    "mhsa_forward": {
        "weights_not_transposed": (["transpose", ".t", "(out_features, in_features)", "out, in"], _mhsa(
            ("copy_(w_query.T)", "copy_(w_query)"), ("copy_(w_key.T)", "copy_(w_key)"),
            ("copy_(w_value.T)", "copy_(w_value)"), ("copy_(w_out.T)", "copy_(w_out)"))),
        "no_eval": (["eval", "dropout", "training mode", "train"], _mhsa(("    layer.eval()\n", ""))),
        "scale_d_out": (["d_head", "sqrt(d_out)", "width of a head", "per head"], _mhsa(
            ("/ math.sqrt(self.d_head)", "/ math.sqrt(self.n_heads * self.d_head)"))),
        "mask_upper": (["upper", "future", "triu", "diagonal", "below"], _mhsa(
            ("torch.tril(torch.ones(context_length, context_length, dtype=torch.bool))",
             "torch.triu(torch.ones(context_length, context_length, dtype=torch.bool))"))),
        "heads_without_transpose": (["transpose", "reshape", "heads", "scrambled", "view"], _mhsa(
            ("self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "self.w_query(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "self.w_key(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "self.w_value(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("(weights @ v).transpose(1, 2).reshape(b, t, -1)", "(weights @ v).reshape(b, t, -1)"))),
        "no_dtype": (["dtype", "float64", ".to", "double"], _mhsa(
            ("    layer = layer.to(inputs.dtype)\n", ""),
            ("copy_(w_query.T)", "copy_(w_query.T.float())"), ("copy_(w_key.T)", "copy_(w_key.T.float())"),
            ("copy_(w_value.T)", "copy_(w_value.T.float())"), ("copy_(w_out.T)", "copy_(w_out.T.float())"),
            ("return layer(inputs)", "return layer(inputs.float())"))),
        "no_output_projection": (["w_out", "output projection", "w_o"], _mhsa(
            ("return self.w_out(context)", "return context"))),
        "causal_ignored": (["causal", "mask", "future", "-inf"], _mhsa(
            ("        if self.causal:\n            scores = scores.masked_fill(~self.mask[:t, :t], float(\"-inf\"))\n", ""))),
    },
    "sinusoidal_encoding": {
        "column_index_exponent": (["pair", "2i", "column index", "frequency", "same angle"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    j = torch.arange(d_model, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (j / d_model)
    out = torch.empty(n_positions, d_model)
    out[:, 0::2] = torch.sin(angles[:, 0::2])
    out[:, 1::2] = torch.cos(angles[:, 1::2])
    return out
'''),
        "sin_cos_swapped": (["sin", "cos", "even", "odd", "swapped"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (i / d_model)
    out = torch.empty(n_positions, d_model)
    out[:, 0::2] = torch.cos(angles)
    out[:, 1::2] = torch.sin(angles)
    return out
'''),
        "float64": (["float32", "dtype", "float64"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    i = np.arange(0, d_model, 2)[None, :]
    angles = t / 10000 ** (i / d_model)
    out = np.zeros((n_positions, d_model))
    out[:, 0::2] = np.sin(angles)
    out[:, 1::2] = np.cos(angles)
    return torch.from_numpy(out)
'''),
        "positions_from_one": (["position 0", "t = 0", "start", "from 1"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (i / d_model)
    out = torch.empty(n_positions, d_model)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out
'''),
        "halves_not_interleaved": (["interleav", "even columns", "halves", "concatenat"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (i / d_model)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)
'''),
        "multiplied": (["divide", "10000", "exponent", "multipl"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t * 10000 ** (i / d_model)
    out = torch.empty(n_positions, d_model)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out
'''),
    },
    "rotary_embedding": {
        "wrong_direction": (["sign", "direction", "-sin", "clockwise"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos + x_odd * sin
    out[..., 1::2] = -x_even * sin + x_odd * cos
    return out
'''),
        "rotate_half": (["neighbour", "pairs", "2i, 2i+1", "rotate_half", "halves"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
'''),
        "theta_i_over_d": (["2i", "frequency", "theta", "exponent"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        "arange_positions": (["positions", "arange", "given positions", "not necessarily"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    pos = torch.arange(x.shape[-2], dtype=x.dtype)
    angles = pos[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        "in_place": (["in place", "modif", "clone", "copy"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x_even * cos - x_odd * sin
    x[..., 1::2] = x_even * sin + x_odd * cos
    return x
'''),
    },
    "kv_cache_step": {
        "upper_left_mask": (["lower-right", "upper-left", "n_cached", "corner", "is_causal"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
        "no_mask": (["causal", "mask", "future"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    scores = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
        "new_first": (["order", "append", "cat", "before", "end"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([keys, cached_keys], dim=-2)
    v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    n_cached = n_all - n_new
    scores = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-1, -2)
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
        "excludes_itself": (["itself", "diagonal", "off-by-one", "own key"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new - 1)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "view_transpose": _MHSA,
        "loop_over_heads": _mhsa(
            ('''        q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).reshape(b, t, -1)
''', '''        q_all, k_all, v_all = self.w_query(inputs), self.w_key(inputs), self.w_value(inputs)
        heads = []
        for h in range(self.n_heads):
            cols = slice(h * self.d_head, (h + 1) * self.d_head)
            s = torch.einsum("bid,bjd->bij", q_all[..., cols], k_all[..., cols]) / self.d_head ** 0.5
            if self.causal:
                s = s.masked_fill(self.mask[:t, :t] == 0, -torch.inf)
            w = self.dropout(s.softmax(dim=-1))
            heads.append(w @ v_all[..., cols])
        context = torch.cat(heads, dim=-1)
'''),
        ),
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)[None, :]
    angles = t / 10000.0 ** (two_i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out.float()
''',
        "stack_interleave": '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    freqs = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    angles = t * freqs[None, :]
    out = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n_positions, d_model)
    return torch.tensor(out, dtype=torch.float32)
''',
    },
    "rotary_embedding": {
        "even_odd": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
''',
        "complex": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    xd = x.double()
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = positions.double()[:, None] * theta[None, :]
    z = torch.view_as_complex(xd.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    rotated = z * torch.polar(torch.ones_like(angles), angles)
    return torch.view_as_real(rotated).reshape(x.shape).to(x.dtype)
''',
    },
    "kv_cache_step": {
        "masked_fill": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "sdpa": '''
import torch.nn.functional as _F

def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), -2)
    v = torch.cat((cached_values, values), -2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    j = torch.arange(n_all)[None, :]
    i = torch.arange(n_new)[:, None]
    return _F.scaled_dot_product_attention(queries, k, v, attn_mask=j <= i + (n_all - n_new))
''',
    },
}

"""Third fresh set, notebook 07: learners' answers written without the grader's key.

Each source is what a learner would type in the exercise's solution cell; the notebook's earlier
cells have run. Written on 2026-11-23 from the exercise texts and the catalogue's ids and hints only,
checked only against the notebook's own solution (tests/cases/selfcheck.py fresh3), never against the
grader. Rule: never edited after its first measurement (see README.md).

mhsa_forward: one learner's full answer (_LAYER, the module and the function), and each mistake is
that answer with one slip, made by _slip().
"""

_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "d_out must be divisible by n_heads"
        self.n_heads = n_heads
        self.d_head = d_out // n_heads
        self.causal = causal
        self.scale = scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        mask = torch.tril(torch.ones(context_length, context_length)).bool()
        self.register_buffer("mask", mask)

    def _heads(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self._heads(self.w_query(inputs))
        k = self._heads(self.w_key(inputs))
        v = self._heads(self.w_value(inputs))
        scores = torch.matmul(q, k.transpose(2, 3))
        if self.scale:
            scores = scores / self.d_head ** 0.5
        if self.causal:
            allowed = self.mask[:t, :t]
            scores = scores.masked_fill(allowed == 0, -torch.inf)
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous()
        context = context.view(b, t, self.n_heads * self.d_head)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=inputs.shape[1],
                                   dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    with torch.no_grad():
        out = layer(inputs)
    return out
'''


def _slip(old: str, new: str) -> str:
    """_LAYER with exactly one change."""
    assert _LAYER.count(old) == 1, old
    return _LAYER.replace(old, new)


MISTAKES = {
    "mhsa_forward": {
        "linear_weight_not_transposed:w_out": _slip(
            "layer.w_out.weight.copy_(w_out.T)", "layer.w_out.weight.copy_(w_out)"),
        "causal_flag_ignored:mask_always": _slip(
            "if self.causal:", "if self.mask is not None:"),
        "causal_mask_upper:triu": _slip(
            "mask = torch.tril(torch.ones(context_length, context_length)).bool()",
            "mask = torch.triu(torch.ones(context_length, context_length)).bool()"),
        "causal_mask_off_by_one:diagonal_hidden": _slip(
            "mask = torch.tril(torch.ones(context_length, context_length)).bool()",
            "mask = torch.tril(torch.ones(context_length, context_length), diagonal=-1).bool()"),
        "mask_wrong_sign:fill_allowed": _slip("allowed == 0", "allowed == 1"),
        "heads_reshape_without_transpose:view_heads_first": _slip(
            "return x.view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)",
            "return x.view(b, self.n_heads, t, self.d_head)"),
        "heads_reshape_without_transpose:merge": _slip(
            "context = torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous()",
            "context = torch.matmul(weights, v).contiguous()"),
        "scale_by_sqrt_d_model:d_out": _slip(
            "scores = scores / self.d_head ** 0.5",
            "scores = scores / (self.n_heads * self.d_head) ** 0.5"),
        "softmax_wrong_axis:dim_minus_two": _slip(
            "weights = torch.softmax(scores, dim=-1)", "weights = torch.softmax(scores, dim=-2)"),
        "missing_output_projection:returns_context": _slip(
            "return self.w_out(context)", "return context"),
        "uncatalogued:eval_forgotten": _slip("    layer.eval()\n", ""),
        "uncatalogued:dtype_not_moved": _slip(
            "dropout=0.5, causal=causal).to(inputs.dtype)", "dropout=0.5, causal=causal)"),
    },
    "sinusoidal_encoding": {
        "sinusoid_halves_not_interleaved:cat": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    return torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=1)
''',
        "sinusoid_wrong_exponent:index_not_doubled": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = pos / 10000.0 ** (i / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles)
    enc[:, 1::2] = torch.cos(angles)
    return enc
''',
        "sinusoid_wrong_exponent:per_column": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    cols = torch.arange(d_model, dtype=torch.float32)
    angles = pos / 10000.0 ** (cols / d_model)
    enc = torch.empty(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles[:, 0::2])
    enc[:, 1::2] = torch.cos(angles[:, 1::2])
    return enc
''',
        "sinusoid_wrong_exponent:positive": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
        "sin_cos_swapped:cos_even": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.cos(pos * freq)
    enc[:, 1::2] = torch.sin(pos * freq)
    return enc
''',
        "positions_from_one:arange": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
        "uncatalogued:float64_from_numpy": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = np.arange(n_positions)[:, None]
    freq = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    enc = np.zeros((n_positions, d_model))
    enc[:, 0::2] = np.sin(pos * freq)
    enc[:, 1::2] = np.cos(pos * freq)
    return torch.from_numpy(enc)
''',
        "uncatalogued:base_typo": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 1000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
    },
    "rotary_embedding": {
        "rope_rotation_wrong_direction:signs": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = ang.cos(), ang.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * c + x2 * s
    out[..., 1::2] = -x1 * s + x2 * c
    return out
''',
        "rope_halves_instead_of_pairs:split_in_two": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * c - x2 * s, x1 * s + x2 * c], dim=-1)
''',
        "rope_ignores_positions:arange": '''
def rotary_embedding(x, positions):
    d, n = x.shape[-1], x.shape[-2]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = torch.arange(n, dtype=x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = even * s + odd * c
    return out
''',
        "changes_inputs_in_place:writes_into_x": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    even, odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = even * c - odd * s
    x[..., 1::2] = even * s + odd * c
    return x
''',
        "sinusoid_wrong_exponent:rope_theta": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = even * s + odd * c
    return out
''',
        "lower_precision:angles_float32": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    ang = positions.float()[:, None] * theta
    c, s = torch.cos(ang).to(x.dtype), torch.sin(ang).to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = even * s + odd * c
    return out
''',
        "lower_precision:empty_default_dtype": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty(x.shape)
    out[..., 0::2] = even * torch.cos(ang) - odd * torch.sin(ang)
    out[..., 1::2] = even * torch.sin(ang) + odd * torch.cos(ang)
    return out
''',
        "uncatalogued:positions_not_column": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype) * theta
    c, s = torch.cos(ang), torch.sin(ang)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * c - odd * s
    out[..., 1::2] = even * s + odd * c
    return out
''',
        "uncatalogued:sin_cos_swapped_in_rotation": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * s - odd * c
    out[..., 1::2] = even * c + odd * s
    return out
''',
    },
    "kv_cache_step": {
        "kv_cache_new_tokens_missing:cache_only": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    scores = queries @ cached_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores, dim=-1) @ cached_values
''',
        "kv_cache_ignored:new_only": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n = queries.shape[-2]
    allowed = torch.ones(n, n, dtype=torch.bool).tril()
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        "kv_cache_wrong_order:new_first": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([keys, cached_keys], dim=-2)
    v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1)) / math.sqrt(k.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ v
''',
        "kv_cache_mask_not_shifted:upper_left": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    allowed = torch.ones(queries.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ v
''',
        "kv_cache_mask_not_shifted:is_causal": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, k, v, is_causal=True)
''',
        "kv_cache_mask_missing:no_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), dim=-2)
    v = torch.cat((cached_values, values), dim=-2)
    weights = torch.softmax(queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]), dim=-1)
    return weights @ v
''',
        "causal_mask_off_by_one:shifted_one_short": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new - 1)
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ v
''',
        "no_scaling:forgot": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1)).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "scale_by_sqrt_tokens:all_keys": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ k.transpose(-2, -1) / math.sqrt(n_all)
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ v
''',
        "mask_wrong_sign:filled_allowed": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(scores.masked_fill(allowed, float("-inf")), dim=-1) @ v
''',
        "uncatalogued:returns_cache_too": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    context = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ v
    return context, k, v
''',
    },
}

VARIANTS = {
    "mhsa_forward": {
        "own_answer": _LAYER,
        "state_dict_einsum": '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        self.h = n_heads
        self.causal, self.scale = causal, scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        idx = torch.arange(context_length)
        self.register_buffer("mask", idx[None, :] <= idx[:, None])

    def forward(self, inputs):
        t = inputs.shape[1]
        q, k, v = (layer(inputs).unflatten(-1, (self.h, -1)) for layer in (self.w_query, self.w_key, self.w_value))
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k)
        if self.scale:
            scores = scores / math.sqrt(q.shape[-1])
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = scores.softmax(dim=-1)
        self.last_weights = weights.detach()
        context = torch.einsum("bhqk,bkhd->bqhd", self.dropout(weights), v).flatten(-2)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[-2],
                                   dropout=0.5, causal=causal)
    layer = layer.to(dtype=inputs.dtype)
    state = {"w_query.weight": w_query.T, "w_key.weight": w_key.T, "w_value.weight": w_value.T,
             "w_out.weight": w_out.T, "mask": layer.mask}
    layer.load_state_dict({name: tensor.to(inputs.dtype) if tensor.is_floating_point() else tensor
                           for name, tensor in state.items()})
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
''',
    },
    "sinusoidal_encoding": {
        "stack_interleave": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32).unsqueeze(-1)
    inv = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = t * inv
    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(n_positions, d_model)
''',
        "exp_log_form": '''
def sinusoidal_encoding(n_positions, d_model):
    position = torch.arange(n_positions).float()[:, None]
    div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(position * div)
    pe[:, 1::2] = torch.cos(position * div)
    return pe
''',
    },
    "rotary_embedding": {
        "stack_flatten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    freqs = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = positions.to(x.dtype).unsqueeze(-1) * freqs
    cos, sin = torch.cos(angle), torch.sin(angle)
    a, b = x[..., ::2], x[..., 1::2]
    return torch.stack([a * cos - b * sin, a * sin + b * cos], dim=-1).flatten(-2)
''',
        "complex_numbers": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    rot = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * rot).reshape(x.shape)
''',
    },
    "kv_cache_step": {
        "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    rows = torch.arange(n_new)[:, None] + n_cached
    cols = torch.arange(n_cached + n_new)[None, :]
    return torch.nn.functional.scaled_dot_product_attention(queries, k, v, attn_mask=cols <= rows)
''',
        "einsum_additive": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    n_cached, n_new = cached_keys.shape[-2], keys.shape[-2]
    blocked = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).triu(diagonal=n_cached + 1)
    scores = torch.einsum("...qd,...kd->...qk", queries, all_k) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(blocked, float("-inf"))
    return torch.einsum("...qk,...kv->...qv", torch.softmax(scores, dim=-1), all_v)
''',
    },
}

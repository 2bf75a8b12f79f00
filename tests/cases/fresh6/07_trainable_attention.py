"""Sixth fresh set, notebook 07: trainable attention, positions, a key-value cache.

The mhsa_forward cases are one learner's full answer (_LAYER, written for this set) with one slip
each, made by _slip() (text replacement); _LAYER and _LAYER2 (another style) are the variants.
"""

_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0
        self.n_heads = n_heads
        self.head_dim = d_out // n_heads
        self.causal = causal
        self.scale = scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length)).bool())

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.w_query(inputs).view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        scores = torch.matmul(q, k.transpose(2, 3))
        if self.scale:
            scores = scores / self.head_dim ** 0.5
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t] == 0, -torch.inf)
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous().view(b, t, -1)
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

_LAYER2 = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        self.h = n_heads
        self.dh = d_out // n_heads
        self.causal, self.scale = causal, scale
        self.w_query, self.w_key, self.w_value = (nn.Linear(d_in, d_out, bias=False) for _ in range(3))
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        idx = torch.arange(context_length)
        self.register_buffer("mask", idx[:, None] >= idx[None, :])

    def forward(self, inputs):
        t = inputs.shape[1]
        q, k, v = (lin(inputs).unflatten(-1, (self.h, self.dh)) for lin in (self.w_query, self.w_key, self.w_value))
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k)
        if self.scale:
            scores = scores / math.sqrt(self.dh)
        if self.causal:
            scores = torch.where(self.mask[:t, :t], scores, torch.tensor(float("-inf"), dtype=scores.dtype))
        weights = scores.softmax(dim=-1)
        self.last_weights = weights.detach()
        context = torch.einsum("bhqk,bkhd->bqhd", self.dropout(weights), v).flatten(-2)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[-2], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for lin, w in zip((layer.w_query, layer.w_key, layer.w_value, layer.w_out), (w_query, w_key, w_value, w_out)):
            lin.weight.copy_(w.t())
        return layer.eval()(inputs)
'''


def _slip(old, new, count=1):
    assert _LAYER.count(old) == count, old
    return _LAYER.replace(old, new)


_MASK_AFTER = '''        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t] == 0, -torch.inf)
        weights = torch.softmax(scores, dim=-1)
'''

MISTAKES = {
    "mhsa_forward": {
        "linear_weight_not_transposed": _slip(".weight.copy_(w_", ".weight.copy_(w_", 4)
        .replace("copy_(w_query.T)", "copy_(w_query)").replace("copy_(w_key.T)", "copy_(w_key)")
        .replace("copy_(w_value.T)", "copy_(w_value)").replace("copy_(w_out.T)", "copy_(w_out)"),
        "linear_weight_not_transposed:query_only": _slip("copy_(w_query.T)", "copy_(w_query)"),
        "no_scaling": _slip("""        if self.scale:
            scores = scores / self.head_dim ** 0.5
""", ""),
        "scale_by_sqrt_d_model:d_out": _slip("scores / self.head_dim ** 0.5",
                                             "scores / (self.n_heads * self.head_dim) ** 0.5"),
        "scale_by_sqrt_d_model:d_in": _slip("scores / self.head_dim ** 0.5", "scores / inputs.shape[-1] ** 0.5"),
        "scale_by_d_k": _slip("scores / self.head_dim ** 0.5", "scores / self.head_dim"),
        "causal_flag_ignored": _slip("""        if self.causal:
            scores = scores.masked_fill""", """        scores = scores.masked_fill"""),
        "causal_mask_upper": _slip("torch.tril(torch.ones(context_length", "torch.triu(torch.ones(context_length"),
        "causal_mask_off_by_one": _slip("torch.ones(context_length, context_length))",
                                        "torch.ones(context_length, context_length), diagonal=-1)"),
        "mask_wrong_sign": _slip("self.mask[:t, :t] == 0", "self.mask[:t, :t] == 1"),
        "mask_with_zero": _slip("== 0, -torch.inf)", "== 0, 0.0)"),
        "mask_after_softmax": _slip(_MASK_AFTER, """        weights = torch.softmax(scores, dim=-1)
        if self.causal:
            weights = weights.masked_fill(self.mask[:t, :t] == 0, 0.0)
"""),
        "heads_reshape_without_transpose": _slip(".view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)",
                                                 ".view(b, self.n_heads, t, self.head_dim)", 3),
        "heads_reshape_without_transpose:merge": _slip("torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous()",
                                                       "torch.matmul(weights, v).contiguous()"),
        "softmax_wrong_axis": _slip("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)"),
        "keys_times_queries": _slip("torch.matmul(q, k.transpose(2, 3))", "torch.matmul(k, q.transpose(2, 3))"),
        "weights_transposed": _slip("torch.matmul(weights, v)", "torch.matmul(weights.transpose(-2, -1), v)"),
        "missing_output_projection": _slip("return self.w_out(context)", "return context"),
        "mixed_up_projections:keys_from_w_query": _slip("k = self.w_key(inputs)", "k = self.w_query(inputs)"),
        "lower_precision:float32_layer": _slip("layer = layer.to(inputs.dtype)", "layer = layer.float()")
        .replace("return layer(inputs)", "return layer(inputs.float())"),
        "uncatalogued:eval_forgotten": _slip("    layer.eval()\n", ""),
        "uncatalogued:dtype_not_converted": _slip("    layer = layer.to(inputs.dtype)\n", ""),
    },
    "sinusoidal_encoding": {
        "sin_cos_swapped": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.cos(pos * freq)
    enc[:, 1::2] = torch.sin(pos * freq)
    return enc
''',
        "sinusoid_halves_not_interleaved": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    return torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=-1)
''',
        "sinusoid_wrong_exponent:i_not_2i": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freq = 10000.0 ** (-torch.arange(d_model // 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
        "sinusoid_wrong_exponent:one_frequency_per_column": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = pos / 10000.0 ** (torch.arange(d_model, dtype=torch.float32) / d_model)
    enc = torch.empty(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles[:, 0::2])
    enc[:, 1::2] = torch.cos(angles[:, 1::2])
    return enc
''',
        "sinusoid_wrong_exponent:positive_exponent": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = pos * 10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = angles.sin()
    enc[:, 1::2] = angles.cos()
    return enc
''',
        "positions_from_one": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
        "integer_arithmetic:floor_divided_exponent": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions)[:, None]
    exponent = torch.arange(0, d_model, 2) // d_model
    angles = pos / 10000.0 ** exponent
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles)
    enc[:, 1::2] = torch.cos(angles)
    return enc
''',
        "uncatalogued:float64_from_numpy": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = np.arange(n_positions)[:, None]
    angles = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    enc = np.zeros((n_positions, d_model))
    enc[:, 0::2] = np.sin(angles)
    enc[:, 1::2] = np.cos(angles)
    return torch.from_numpy(enc)
''',
        "uncatalogued:base_1000": '''
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
        "rope_rotation_wrong_direction": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * torch.cos(ang) + x2 * torch.sin(ang)
    out[..., 1::2] = -x1 * torch.sin(ang) + x2 * torch.cos(ang)
    return out
''',
        "sin_cos_swapped": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * torch.sin(ang) - x2 * torch.cos(ang)
    out[..., 1::2] = x1 * torch.cos(ang) + x2 * torch.sin(ang)
    return out
''',
        "rope_halves_instead_of_pairs": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * ang.cos() - x2 * ang.sin(), x1 * ang.sin() + x2 * ang.cos()], dim=-1)
''',
        "rope_ignores_positions": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * ang.cos() - x2 * ang.sin()
    out[..., 1::2] = x1 * ang.sin() + x2 * ang.cos()
    return out
''',
        "changes_inputs_in_place": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x1 * ang.cos() - x2 * ang.sin()
    x[..., 1::2] = x1 * ang.sin() + x2 * ang.cos()
    return x
''',
        "lower_precision:float32_angles": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2) / d)
    ang = positions.float()[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * ang.cos() - x2 * ang.sin()
    out[..., 1::2] = x1 * ang.sin() + x2 * ang.cos()
    return out
''',
        "sinusoid_wrong_exponent": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * ang.cos() - x2 * ang.sin()
    out[..., 1::2] = x1 * ang.sin() + x2 * ang.cos()
    return out
''',
        "uncatalogued:positions_plus_one": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = (positions.to(x.dtype) + 1)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * ang.cos() - x2 * ang.sin()
    out[..., 1::2] = x1 * ang.sin() + x2 * ang.cos()
    return out
''',
        "uncatalogued:rotated_pairs_written_as_halves": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.cat([x1 * ang.cos() - x2 * ang.sin(), x1 * ang.sin() + x2 * ang.cos()], dim=-1)
''',
    },
    "kv_cache_step": {
        "kv_cache_ignored": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n = queries.shape[-2]
    allowed = torch.ones(n, n, dtype=torch.bool).tril()
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        "kv_cache_new_tokens_missing": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    scores = queries @ cached_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores, dim=-1) @ cached_values
''',
        "kv_cache_wrong_order": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([keys, cached_keys], dim=-2)
    v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "kv_cache_mask_not_shifted": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    allowed = torch.ones(queries.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    scores = (queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "kv_cache_mask_missing": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
''',
        "causal_mask_off_by_one": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new - 1)
    scores = (queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "no_scaling": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1)).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "scale_by_sqrt_tokens": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1) / math.sqrt(n_all)).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "keys_transpose_all_axes": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.T / math.sqrt(k.shape[-1])).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "mask_with_zero": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(~allowed, 0.0)
    return torch.softmax(scores, dim=-1) @ v
''',
        "changes_inputs_in_place:queries_scaled": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries /= math.sqrt(queries.shape[-1])
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1)).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "softmax_no_max_subtraction": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(~allowed, float("-inf"))
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True) @ v
''',
        "lower_precision:float32": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2).float()
    v = torch.cat([cached_values, values], dim=-2).float()
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries.float() @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
    },
}

VARIANTS = {
    "mhsa_forward": {
        "layer_view_permute": _LAYER,
        "layer_einsum_unflatten": _LAYER2,
    },
    "sinusoidal_encoding": {
        "stack_interleave": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    inv = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    a = t * inv
    return torch.stack([a.sin(), a.cos()], dim=-1).reshape(n_positions, d_model)
''',
        "numpy_then_float32": '''
def sinusoidal_encoding(n_positions, d_model):
    angles = np.arange(n_positions)[:, None] / np.power(10000.0, np.arange(0, d_model, 2) / d_model)
    out = np.empty((n_positions, d_model))
    out[:, ::2] = np.sin(angles)
    out[:, 1::2] = np.cos(angles)
    return torch.tensor(out, dtype=torch.float32)
''',
    },
    "rotary_embedding": {
        "complex_numbers": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    z = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    rotated = z * torch.polar(torch.ones_like(angles), angles)
    return torch.view_as_real(rotated).reshape(x.shape)
''',
        "stack_flatten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    freqs = 1.0 / 10000.0 ** (torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.outer(positions.to(x.dtype), freqs)
    c, s = angles.cos(), angles.sin()
    a, b = x[..., ::2], x[..., 1::2]
    return torch.stack([a * c - b * s, a * s + b * c], dim=-1).flatten(-2)
''',
    },
    "kv_cache_step": {
        "sdpa_explicit_mask": '''
import torch.nn.functional as F

def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), dim=-2)
    v = torch.cat((cached_values, values), dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    return F.scaled_dot_product_attention(queries, k, v, attn_mask=allowed)
''',
        "where_positions": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_cached, n_new = cached_keys.shape[-2], queries.shape[-2]
    all_k = torch.cat([cached_keys, keys], -2)
    all_v = torch.cat([cached_values, values], -2)
    query_pos = torch.arange(n_new)[:, None] + n_cached
    key_pos = torch.arange(n_cached + n_new)[None, :]
    scores = torch.matmul(queries, all_k.mT) / keys.shape[-1] ** 0.5
    scores = torch.where(key_pos <= query_pos, scores, torch.full_like(scores, float("-inf")))
    return torch.matmul(scores.softmax(-1), all_v)
''',
    },
}

"""Fifth fresh set, notebook 07 (PyTorch): what a learner types into each solution cell.

The mhsa_forward cases are one learner's full answer (_LAYER, written for this set) with one slip
each, made by _slip() (text replacement); _LAYER itself is a variant. kv_cache_step's cases come from
the template _CACHE the same way.
"""

_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
        self.d_out = d_out
        self.n_heads = n_heads
        self.head_dim = d_out // n_heads
        self.causal = causal
        self.scale = scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        allowed = torch.tril(torch.ones(context_length, context_length)).bool()
        self.register_buffer("mask", allowed)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.w_query(inputs).view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        scores = torch.matmul(q, k.transpose(2, 3))
        if self.scale:
            scores = scores / self.head_dim ** 0.5
        if self.causal:
            scores = torch.where(self.mask[:t, :t], scores, torch.tensor(float("-inf"), dtype=scores.dtype))
        attn = torch.softmax(scores, dim=-1)
        self.last_weights = attn.detach()
        attn = self.dropout(attn)
        out = torch.matmul(attn, v).permute(0, 2, 1, 3).contiguous().view(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    mha = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=inputs.shape[1], dropout=0.5, causal=causal)
    mha = mha.to(inputs.dtype)
    with torch.no_grad():
        mha.w_query.weight.copy_(w_query.T)
        mha.w_key.weight.copy_(w_key.T)
        mha.w_value.weight.copy_(w_value.T)
        mha.w_out.weight.copy_(w_out.T)
    mha.eval()
    with torch.no_grad():
        return mha(inputs)
'''

_LAYER2 = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        self.h = n_heads
        self.dh = d_out // n_heads
        self.causal = causal
        self.scale = scale
        self.w_query, self.w_key, self.w_value = (nn.Linear(d_in, d_out, bias=False) for _ in range(3))
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        i = torch.arange(context_length)
        self.register_buffer("mask", i[:, None] >= i[None, :])

    def forward(self, inputs):
        t = inputs.shape[1]
        q, k, v = (layer(inputs).unflatten(-1, (self.h, self.dh)).transpose(1, 2)
                   for layer in (self.w_query, self.w_key, self.w_value))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k)
        if self.scale:
            scores = scores * self.dh ** -0.5
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t].logical_not(), -torch.inf)
        weights = scores.softmax(dim=-1)
        self.last_weights = weights.detach()
        context = torch.einsum("bhqk,bhkd->bqhd", self.dropout(weights), v)
        return self.w_out(context.flatten(-2))


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[-2],
                                   dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in zip((layer.w_query, layer.w_key, layer.w_value, layer.w_out),
                             (w_query, w_key, w_value, w_out)):
            linear.weight.copy_(w.T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''


def _slip(old, new, count=1):
    assert _LAYER.count(old) == count, (old, _LAYER.count(old))
    return _LAYER.replace(old, new)


_SCALE = "            scores = scores / self.head_dim ** 0.5"
_SPLIT = ".view(b, t, self.n_heads, self.head_dim).permute(0, 2, 1, 3)"
_MERGE = "torch.matmul(attn, v).permute(0, 2, 1, 3).contiguous().view(b, t, self.d_out)"
_WHERE = "scores = torch.where(self.mask[:t, :t], scores, torch.tensor(float(\"-inf\"), dtype=scores.dtype))"

_CACHE = '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    K = torch.cat((cached_keys, keys), dim=-2)
    V = torch.cat((cached_values, values), dim=-2)
    n_new = queries.shape[-2]
    n_total = K.shape[-2]
    offset = n_total - n_new
    allowed = torch.tril(torch.ones(n_new, n_total, dtype=torch.bool), diagonal=offset)
    scores = queries @ K.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ V
'''


def _c(old, new):
    assert old in _CACHE, old
    return _CACHE.replace(old, new)


MISTAKES = {
    "mhsa_forward": {
        "no_scaling": _slip("        if self.scale:\n" + _SCALE + "\n", ""),
        "scale_by_d_k": _slip(_SCALE, "            scores = scores / self.head_dim"),
        "scale_by_sqrt_d_model:d_out": _slip(_SCALE, "            scores = scores / self.d_out ** 0.5"),
        "scale_by_sqrt_tokens": _slip(_SCALE, "            scores = scores / t ** 0.5"),
        "scale_applied_twice": _slip("scores = torch.matmul(q, k.transpose(2, 3))",
                                     "scores = torch.matmul(q / self.head_dim ** 0.5, k.transpose(2, 3))"),
        "causal_flag_ignored:always_masked": _slip("        if self.causal:\n            " + _WHERE,
                                                   "        " + _WHERE),
        "causal_mask_upper": _slip("torch.tril(torch.ones(context_length, context_length))",
                                   "torch.triu(torch.ones(context_length, context_length))"),
        "causal_mask_off_by_one": _slip("torch.tril(torch.ones(context_length, context_length))",
                                        "torch.tril(torch.ones(context_length, context_length), diagonal=-1)"),
        "mask_wrong_sign": _slip("torch.where(self.mask[:t, :t], scores,", "torch.where(~self.mask[:t, :t], scores,"),
        "mask_with_zero": _slip('torch.tensor(float("-inf"), dtype=scores.dtype)',
                                "torch.tensor(0.0, dtype=scores.dtype)"),
        "mask_after_softmax": _slip(
            "        if self.causal:\n            " + _WHERE + "\n        attn = torch.softmax(scores, dim=-1)\n",
            "        attn = torch.softmax(scores, dim=-1)\n        if self.causal:\n"
            "            attn = attn.masked_fill(~self.mask[:t, :t], 0.0)\n"),
        "heads_reshape_without_transpose:split_and_merge": _slip(_SPLIT, ".view(b, self.n_heads, t, self.head_dim)", 3)
        .replace(_MERGE, "torch.matmul(attn, v).contiguous().view(b, t, self.d_out)"),
        "heads_reshape_without_transpose:merge_only": _slip(_MERGE, "torch.matmul(attn, v).reshape(b, t, self.d_out)"),
        "heads_interleaved": _slip(_SPLIT, ".view(b, t, self.head_dim, self.n_heads).permute(0, 3, 1, 2)", 3)
        .replace(_MERGE, "torch.matmul(attn, v).permute(0, 2, 3, 1).contiguous().view(b, t, self.d_out)"),
        "linear_weight_not_transposed": _slip("weight.copy_(w_query.T)", "weight.copy_(w_query)")
        .replace("weight.copy_(w_key.T)", "weight.copy_(w_key)")
        .replace("weight.copy_(w_value.T)", "weight.copy_(w_value)")
        .replace("weight.copy_(w_out.T)", "weight.copy_(w_out)"),
        "linear_weight_not_transposed:w_out_only": _slip("weight.copy_(w_out.T)", "weight.copy_(w_out)"),
        "mixed_up_projections": _slip("k = self.w_key(inputs)", "k = self.w_query(inputs)"),
        "softmax_wrong_axis": _slip("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)"),
        "weights_transposed": _slip("torch.matmul(attn, v)", "torch.matmul(attn.transpose(-2, -1), v)"),
        "keys_times_queries": _slip("torch.matmul(q, k.transpose(2, 3))", "torch.matmul(k, q.transpose(2, 3))"),
        "missing_output_projection": _slip("return self.w_out(out)", "return out"),
        "uncatalogued:eval_forgotten": _slip("    mha.eval()\n", ""),
        "uncatalogued:dtype_not_converted": _slip("    mha = mha.to(inputs.dtype)\n", ""),
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
    return torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=1)
''',
        "sinusoid_wrong_exponent:column_index": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    angles = pos * 10000.0 ** (-torch.arange(d_model, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles[:, 0::2])
    enc[:, 1::2] = torch.cos(angles[:, 1::2])
    return enc
''',
        "sinusoid_wrong_exponent:sign": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freq = 10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
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
        "positions_from_one": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(1, n_positions + 1, dtype=torch.float32).unsqueeze(1)
    freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
        "integer_arithmetic:floor_division": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions).unsqueeze(1)
    exponent = torch.arange(0, d_model, 2) // d_model
    freq = 10000.0 ** (-exponent)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
        "lower_precision:half_angles": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float16).unsqueeze(1)
    freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model).half()
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq).float()
    enc[:, 1::2] = torch.cos(pos * freq).float()
    return enc
''',
        "uncatalogued:numpy_float64": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = np.arange(n_positions)[:, None]
    freq = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    enc = np.zeros((n_positions, d_model))
    enc[:, 0::2] = np.sin(pos * freq)
    enc[:, 1::2] = np.cos(pos * freq)
    return torch.from_numpy(enc)
''',
        "loop_leftover:last_pair": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)
    enc = torch.zeros(n_positions, d_model)
    for i in range(d_model // 2 - 1):
        freq = 10000.0 ** (-2 * i / d_model)
        enc[:, 2 * i] = torch.sin(pos * freq)
        enc[:, 2 * i + 1] = torch.cos(pos * freq)
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
    return torch.cat([x1 * torch.cos(ang) - x2 * torch.sin(ang), x1 * torch.sin(ang) + x2 * torch.cos(ang)], dim=-1)
''',
        "rope_ignores_positions": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * torch.cos(ang) - x2 * torch.sin(ang)
    out[..., 1::2] = x1 * torch.sin(ang) + x2 * torch.cos(ang)
    return out
''',
        "sinusoid_wrong_exponent:i_over_d": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * torch.cos(ang) - x2 * torch.sin(ang)
    out[..., 1::2] = x1 * torch.sin(ang) + x2 * torch.cos(ang)
    return out
''',
        "changes_inputs_in_place": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x1 * torch.cos(ang) - x2 * torch.sin(ang)
    x[..., 1::2] = x1 * torch.sin(ang) + x2 * torch.cos(ang)
    return x
''',
        "lower_precision:angles_float32": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2).float() / d)
    ang = positions.float()[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * torch.cos(ang) - x2 * torch.sin(ang)
    out[..., 1::2] = x1 * torch.sin(ang) + x2 * torch.cos(ang)
    return out
''',
        "lower_precision:empty_default_dtype": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    out = torch.empty(x.shape)
    out[..., 0::2] = x[..., 0::2] * torch.cos(ang) - x[..., 1::2] * torch.sin(ang)
    out[..., 1::2] = x[..., 0::2] * torch.sin(ang) + x[..., 1::2] * torch.cos(ang)
    return out
''',
        "uncatalogued:positions_shifted_to_zero": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = (positions - positions[0]).to(x.dtype)[:, None] * theta
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * torch.cos(ang) - x2 * torch.sin(ang)
    out[..., 1::2] = x1 * torch.sin(ang) + x2 * torch.cos(ang)
    return out
''',
    },
    "kv_cache_step": {
        "kv_cache_new_tokens_missing": _c("K = torch.cat((cached_keys, keys), dim=-2)\n    V = torch.cat((cached_values, values), dim=-2)",
                                          "K = cached_keys\n    V = cached_values"),
        "kv_cache_ignored": _c("K = torch.cat((cached_keys, keys), dim=-2)\n    V = torch.cat((cached_values, values), dim=-2)",
                               "K = keys\n    V = values"),
        "kv_cache_wrong_order": _c("K = torch.cat((cached_keys, keys), dim=-2)\n    V = torch.cat((cached_values, values), dim=-2)",
                                   "K = torch.cat((keys, cached_keys), dim=-2)\n    V = torch.cat((values, cached_values), dim=-2)"),
        "kv_cache_mask_not_shifted": _c("diagonal=offset", "diagonal=0"),
        "kv_cache_mask_not_shifted:is_causal_true": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_k, all_v, is_causal=True)
''',
        "kv_cache_mask_missing": _c("    scores = scores.masked_fill(~allowed, float(\"-inf\"))\n", ""),
        "causal_mask_off_by_one:hides_self": _c("diagonal=offset", "diagonal=offset - 1"),
        "no_scaling": _c(" / math.sqrt(queries.shape[-1])", ""),
        "uncatalogued:scale_by_sqrt_d_v": _c("math.sqrt(queries.shape[-1])", "math.sqrt(values.shape[-1])"),
        "softmax_wrong_axis": _c("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)"),
        "uncatalogued:returns_cache_too": _c("return weights @ V", "return weights @ V, K, V"),
        "mask_wrong_sign": _c("masked_fill(~allowed,", "masked_fill(allowed,"),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "full_answer": _LAYER,
        "einsum_masked_fill": _LAYER2,
    },
    "sinusoidal_encoding": {
        "exp_log_stack": '''
import math

def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    return torch.stack([torch.sin(t * div), torch.cos(t * div)], dim=-1).reshape(n_positions, d_model)
''',
        "numpy_then_float32": '''
def sinusoidal_encoding(n_positions, d_model):
    i = np.arange(d_model // 2)
    angles = np.arange(n_positions)[:, None] / 10000 ** (2 * i / d_model)
    enc = np.empty((n_positions, d_model))
    enc[:, ::2] = np.sin(angles)
    enc[:, 1::2] = np.cos(angles)
    return torch.tensor(enc, dtype=torch.float32)
''',
    },
    "rotary_embedding": {
        "complex_numbers": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    rot = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * rot).reshape(x.shape)
''',
        "stack_flatten": '''
def rotary_embedding(x, positions):
    half = torch.arange(0, x.shape[-1], 2, dtype=x.dtype)
    a = positions.to(x.dtype).unsqueeze(-1) * torch.pow(10000.0, -half / x.shape[-1])
    c, s = a.cos(), a.sin()
    even, odd = x[..., ::2], x[..., 1::2]
    return torch.stack((even * c - odd * s, even * s + odd * c), dim=-1).flatten(-2)
''',
    },
    "kv_cache_step": {
        "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k_all = torch.cat([cached_keys, keys], dim=-2)
    v_all = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k_all.shape[-2]
    key_pos = torch.arange(n_all)
    query_pos = torch.arange(n_all - n_new, n_all)
    allowed = key_pos[None, :] <= query_pos[:, None]
    return torch.nn.functional.scaled_dot_product_attention(queries, k_all, v_all, attn_mask=allowed)
''',
        "einsum_where": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_cached = cached_keys.shape[-2]
    k_all = torch.cat([cached_keys, keys], -2)
    v_all = torch.cat([cached_values, values], -2)
    s = torch.einsum("...qd,...kd->...qk", queries, k_all) / keys.shape[-1] ** 0.5
    q_idx = torch.arange(queries.shape[-2])[:, None] + n_cached
    k_idx = torch.arange(k_all.shape[-2])[None, :]
    s = torch.where(k_idx <= q_idx, s, torch.tensor(float("-inf"), dtype=s.dtype))
    return torch.einsum("...qk,...kd->...qd", torch.softmax(s, -1), v_all)
''',
    },
}

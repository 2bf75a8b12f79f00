"""Tenth fresh set, notebook 07: trainable attention, positions and the KV cache (PyTorch)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- mhsa_forward
# One learner's full answer (the class and the function); each mistake changes one piece of it.
_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        return x.reshape(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self._heads(self.w_query(inputs))
        k = self._heads(self.w_key(inputs))
        v = self._heads(self.w_value(inputs))
        scores = q @ k.transpose(-1, -2)
        if self.scale:
            scores = scores / self.d_head ** 0.5
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], -torch.inf)
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        context = self.dropout(weights) @ v
        context = context.permute(0, 2, 1, 3).reshape(b, t, self.n_heads * self.d_head)
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


def _slip(old: str, new: str, source: str = _LAYER) -> str:
    assert source.count(old) == 1, old
    return source.replace(old, new)


MISTAKES["mhsa_forward"] = {
    "linear_weight_not_transposed": _slip(
        "        layer.w_query.weight.copy_(w_query.T)\n        layer.w_key.weight.copy_(w_key.T)\n"
        "        layer.w_value.weight.copy_(w_value.T)\n        layer.w_out.weight.copy_(w_out.T)\n",
        "        layer.w_query.weight.copy_(w_query)\n        layer.w_key.weight.copy_(w_key)\n"
        "        layer.w_value.weight.copy_(w_value)\n        layer.w_out.weight.copy_(w_out)\n"),
    "linear_weight_not_transposed:output_only": _slip(
        "layer.w_out.weight.copy_(w_out.T)", "layer.w_out.weight.copy_(w_out)"),
    "causal_mask_upper": _slip("torch.tril(torch.ones(", "torch.triu(torch.ones("),
    "causal_flag_ignored": _slip(
        "        if self.causal:\n            scores = scores.masked_fill(",
        "        if True:\n            scores = scores.masked_fill("),
    "heads_reshape_without_transpose": _slip(
        "return x.reshape(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)",
        "return x.reshape(b, self.n_heads, t, self.d_head)"),
    "heads_interleaved": _slip(
        "return x.reshape(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)",
        "return x.reshape(b, t, self.d_head, self.n_heads).permute(0, 3, 1, 2)"),
    "scale_by_sqrt_d_model:d_out": _slip(
        "scores = scores / self.d_head ** 0.5",
        "scores = scores / (self.n_heads * self.d_head) ** 0.5"),
    "scale_by_d_k": _slip("scores = scores / self.d_head ** 0.5", "scores = scores / self.d_head"),
    "mask_wrong_sign": _slip("masked_fill(~self.mask[:t, :t]", "masked_fill(self.mask[:t, :t]"),
    "softmax_wrong_axis": _slip("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)"),
    "missing_output_projection": _slip("return self.w_out(context)", "return context"),
    "mixed_up_projections:values_from_w_key": _slip(
        "v = self._heads(self.w_value(inputs))", "v = self._heads(self.w_key(inputs))"),
    "weights_transposed": _slip(
        "context = self.dropout(weights) @ v", "context = self.dropout(weights).transpose(-1, -2) @ v"),
    "uncatalogued:eval_missing": _slip("    layer.eval()\n", ""),
    "uncatalogued:layer_not_cast": _slip("    layer = layer.to(inputs.dtype)\n", ""),
}
VARIANTS["mhsa_forward"] = {
    "where_and_parameters": _slip(
        "            scores = scores.masked_fill(~self.mask[:t, :t], -torch.inf)",
        "            scores = torch.where(self.mask[:t, :t], scores, torch.full_like(scores, float('-inf')))",
        _slip(
            "        layer.w_query.weight.copy_(w_query.T)\n        layer.w_key.weight.copy_(w_key.T)\n"
            "        layer.w_value.weight.copy_(w_value.T)\n        layer.w_out.weight.copy_(w_out.T)\n",
            "        for linear, w in zip([layer.w_query, layer.w_key, layer.w_value, layer.w_out],\n"
            "                             [w_query, w_key, w_value, w_out]):\n"
            "            linear.weight = nn.Parameter(w.T.clone())\n")),
    "einsum_scores_math_sqrt": _slip(
        "        scores = q @ k.transpose(-1, -2)\n        if self.scale:\n"
        "            scores = scores / self.d_head ** 0.5\n",
        "        scores = torch.einsum('bhqd,bhkd->bhqk', q, k)\n        if self.scale:\n"
        "            scores = scores * (1.0 / math.sqrt(self.d_head))\n"),
}

# --------------------------------------------------------------------------- sinusoidal_encoding
MISTAKES["sinusoidal_encoding"] = {
    "sinusoid_halves_not_interleaved": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    return torch.cat([torch.sin(t * freq), torch.cos(t * freq)], dim=1)
''',
    "sin_cos_swapped": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.cos(t * freq)
    enc[:, 1::2] = torch.sin(t * freq)
    return enc
''',
    "sinusoid_wrong_exponent:pair_index": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = t / 10000.0 ** (i / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles)
    enc[:, 1::2] = torch.cos(angles)
    return enc
''',
    "sinusoid_wrong_exponent:per_column": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = t / 10000.0 ** (torch.arange(d_model, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles[:, 0::2])
    enc[:, 1::2] = torch.cos(angles[:, 1::2])
    return enc
''',
    "positions_from_one": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(t * freq)
    enc[:, 1::2] = torch.cos(t * freq)
    return enc
''',
    "loop_leftover:last_pair": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)
    enc = torch.zeros(n_positions, d_model)
    for i in range(d_model // 2 - 1):
        angle = t / 10000.0 ** (2 * i / d_model)
        enc[:, 2 * i] = torch.sin(angle)
        enc[:, 2 * i + 1] = torch.cos(angle)
    return enc
''',
    "uncatalogued:float64_result": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    enc = torch.zeros(n_positions, d_model, dtype=torch.float64)
    enc[:, 0::2] = torch.sin(t * freq)
    enc[:, 1::2] = torch.cos(t * freq)
    return enc
''',
    "uncatalogued:base_1000": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 1000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(t * freq)
    enc[:, 1::2] = torch.cos(t * freq)
    return enc
''',
}
VARIANTS["sinusoidal_encoding"] = {
    "stack_and_flatten": '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    frequencies = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = positions * frequencies
    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(n_positions, d_model)
''',
    "numpy_float64_then_float32": '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angles = t / 10000.0 ** (2 * i / d_model)
    enc = np.empty((n_positions, d_model))
    enc[:, 0::2], enc[:, 1::2] = np.sin(angles), np.cos(angles)
    return torch.from_numpy(enc).float()
''',
}

# --------------------------------------------------------------------------- rotary_embedding
_ROPE = '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
    return out.flatten(-2)
'''
MISTAKES["rotary_embedding"] = {
    "rope_rotation_wrong_direction": _slip(
        "[x1 * cos - x2 * sin, x1 * sin + x2 * cos]", "[x1 * cos + x2 * sin, -x1 * sin + x2 * cos]", _ROPE),
    "sin_cos_swapped": _slip(
        "[x1 * cos - x2 * sin, x1 * sin + x2 * cos]", "[x1 * sin - x2 * cos, x1 * cos + x2 * sin]", _ROPE),
    "rope_halves_instead_of_pairs": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * angles.cos() - x2 * angles.sin(), x1 * angles.sin() + x2 * angles.cos()], dim=-1)
''',
    "rope_ignores_positions": _slip(
        "angles = positions.to(x.dtype)[:, None] * theta",
        "angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta", _ROPE),
    "sinusoid_wrong_exponent": _slip(
        "theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)",
        "theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)", _ROPE),
    "changes_inputs_in_place": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    even, odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = even * torch.cos(angles) - odd * torch.sin(angles)
    x[..., 1::2] = even * torch.sin(angles) + odd * torch.cos(angles)
    return x
''',
    "lower_precision:float32_angles": _slip(
        "    cos, sin = torch.cos(angles), torch.sin(angles)\n",
        "    angles = positions.float()[:, None] * theta.float()\n"
        "    cos, sin = torch.cos(angles).to(x.dtype), torch.sin(angles).to(x.dtype)\n", _ROPE),
    "uncatalogued:positions_shifted": _slip(
        "angles = positions.to(x.dtype)[:, None] * theta",
        "angles = (positions + 1).to(x.dtype)[:, None] * theta", _ROPE),
}
VARIANTS["rotary_embedding"] = {
    "stack_flatten": _ROPE,
    "complex_multiply": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    turned = pairs * torch.polar(torch.ones_like(angles), angles)
    return torch.view_as_real(turned).reshape(x.shape)
''',
}

# --------------------------------------------------------------------------- kv_cache_step
_KV = '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_cached = cached_keys.shape[-2]
    all_keys = torch.cat((cached_keys, keys), dim=-2)
    all_values = torch.cat((cached_values, values), dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.arange(n_all)[None, :] <= torch.arange(n_new)[:, None] + n_cached
    scores = queries @ all_keys.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ all_values
'''
MISTAKES["kv_cache_step"] = {
    "kv_cache_new_tokens_missing": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    scores = queries @ cached_keys.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    return torch.softmax(scores, dim=-1) @ cached_values
''',
    "kv_cache_ignored": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_new = queries.shape[-2]
    allowed = torch.ones(n_new, n_new, dtype=torch.bool).tril()
    scores = queries @ keys.transpose(-1, -2) / math.sqrt(keys.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
    "kv_cache_wrong_order": _slip(
        "all_keys = torch.cat((cached_keys, keys), dim=-2)\n    all_values = torch.cat((cached_values, values), dim=-2)",
        "all_keys = torch.cat((keys, cached_keys), dim=-2)\n    all_values = torch.cat((values, cached_values), dim=-2)",
        _KV),
    "kv_cache_mask_not_shifted": _slip(
        "torch.arange(n_new)[:, None] + n_cached", "torch.arange(n_new)[:, None]", _KV),
    "kv_cache_mask_not_shifted:sdpa_is_causal": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, is_causal=True)
''',
    "kv_cache_mask_missing": _slip(
        '    scores = scores.masked_fill(~allowed, float("-inf"))\n', "", _KV),
    "scale_by_sqrt_tokens": _slip(
        "/ math.sqrt(queries.shape[-1])", "/ math.sqrt(n_all)", _KV),
    "softmax_wrong_axis": _slip("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)", _KV),
    "causal_mask_upper": _slip(
        "allowed = torch.arange(n_all)[None, :] <= torch.arange(n_new)[:, None] + n_cached",
        "allowed = torch.ones(n_new, n_all, dtype=torch.bool).triu(diagonal=n_cached)", _KV),
}
VARIANTS["kv_cache_step"] = {
    "arange_mask": _KV,
    "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, attn_mask=allowed)
''',
}

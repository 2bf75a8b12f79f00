"""Eighth fresh set, notebook 07: a trainable attention layer, positions and a KV cache (PyTorch)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- mhsa_forward
# One learner's full answer, written for this set; each mistake is that answer with one slip.
_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0
        self.n_heads = n_heads
        self.d_head = d_out // n_heads
        self.causal = causal
        self.scale = scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        causal_mask = torch.tril(torch.ones(context_length, context_length)).bool()
        self.register_buffer("mask", causal_mask)

    def _heads(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self._heads(self.w_query(inputs))
        k = self._heads(self.w_key(inputs))
        v = self._heads(self.w_value(inputs))
        scores = torch.matmul(q, k.transpose(-1, -2))
        if self.scale:
            scores = scores / self.d_head ** 0.5
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        context = torch.matmul(self.dropout(weights), v)
        context = context.permute(0, 2, 1, 3).contiguous().view(b, t, self.n_heads * self.d_head)
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
    with torch.no_grad():
        return layer(inputs)
'''


def _slip(*pairs: str) -> str:
    """_LAYER with each (old, new) text replaced once; the old text must be there."""
    source = _LAYER
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


MISTAKES["mhsa_forward"] = {
    "weights_not_transposed": _slip(
        "copy_(w_query.T)", "copy_(w_query)", "copy_(w_key.T)", "copy_(w_key)",
        "copy_(w_value.T)", "copy_(w_value)", "copy_(w_out.T)", "copy_(w_out)"),
    "weights_not_transposed:w_out_only": _slip("copy_(w_out.T)", "copy_(w_out)"),
    "causal_flag_ignored:always_masked": _slip(
        "        if self.causal:\n            scores = scores.masked_fill",
        "        if True:\n            scores = scores.masked_fill"),
    "causal_flag_ignored:never_passed": _slip("dropout=0.5, causal=causal)", "dropout=0.5)"),
    "causal_mask_upper": _slip("torch.tril(torch.ones(", "torch.triu(torch.ones("),
    "mask_wrong_sign": _slip("masked_fill(~self.mask[:t, :t]", "masked_fill(self.mask[:t, :t]"),
    "mask_with_zero": _slip('self.mask[:t, :t], float("-inf"))', "self.mask[:t, :t], 0.0)"),
    "mask_after_softmax:not_renormalised": _slip(
        '''            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = torch.softmax(scores, dim=-1)''',
        '''            pass
        weights = torch.softmax(scores, dim=-1)
        if self.causal:
            weights = weights.masked_fill(~self.mask[:t, :t], 0.0)'''),
    "no_scaling": _slip("            scores = scores / self.d_head ** 0.5\n", "            pass\n"),
    "scale_by_sqrt_d_model:d_out": _slip(
        "scores / self.d_head ** 0.5", "scores / (self.n_heads * self.d_head) ** 0.5"),
    "softmax_wrong_axis": _slip("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)"),
    "heads_reshape_without_transpose": _slip(
        "x.view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)", "x.reshape(b, self.n_heads, t, self.d_head)"),
    "heads_interleaved": _slip(
        "x.view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)",
        "x.view(b, t, self.d_head, self.n_heads).permute(0, 3, 1, 2)"),
    "missing_output_projection": _slip("return self.w_out(context)", "return context"),
    "uncatalogued:eval_forgotten": _slip("    layer.eval()\n", ""),
    "uncatalogued:dtype_not_converted": _slip("    layer = layer.to(inputs.dtype)\n", ""),
}
VARIANTS["mhsa_forward"] = {
    "template": _LAYER,
    "where_einsum": _slip(
        'scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))',
        'scores = torch.where(self.mask[:t, :t], scores, torch.full_like(scores, float("-inf")))',
        "scores = torch.matmul(q, k.transpose(-1, -2))", 'scores = torch.einsum("bhqd,bhkd->bhqk", q, k)'),
}

# --------------------------------------------------------------------------- sinusoidal_encoding
_SE = '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequencies = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = positions * frequencies
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
'''


def _se(*pairs: str) -> str:
    source = _SE
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


MISTAKES["sinusoidal_encoding"] = {
    "sin_cos_swapped": _se("[:, 0::2] = torch.sin", "[:, 0::2] = torch.cos", "[:, 1::2] = torch.cos",
                           "[:, 1::2] = torch.sin"),
    "sinusoid_halves_not_interleaved": '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequencies = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = positions * frequencies
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
''',
    "sinusoid_wrong_exponent:i_not_2i": _se("torch.arange(0, d_model, 2, dtype=torch.float32)",
                                            "torch.arange(d_model // 2, dtype=torch.float32)"),
    "sinusoid_wrong_exponent:sign": _se("10000.0 ** (-torch.arange", "10000.0 ** (torch.arange"),
    "sinusoid_wrong_exponent:per_column": '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequencies = 10000.0 ** (-torch.arange(d_model, dtype=torch.float32) / d_model)
    angles = positions * frequencies
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles[:, 0::2])
    encoding[:, 1::2] = torch.cos(angles[:, 1::2])
    return encoding
''',
    "positions_from_one": _se("torch.arange(n_positions, dtype=torch.float32)",
                              "torch.arange(1, n_positions + 1, dtype=torch.float32)"),
    "loop_leftover:last_pair": '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)
    encoding = torch.zeros(n_positions, d_model)
    for i in range(d_model // 2 - 1):
        frequency = 10000.0 ** (-2 * i / d_model)
        encoding[:, 2 * i] = torch.sin(positions * frequency)
        encoding[:, 2 * i + 1] = torch.cos(positions * frequency)
    return encoding
''',
    "uncatalogued:float64": _se("encoding = torch.zeros(n_positions, d_model)",
                                "encoding = torch.zeros(n_positions, d_model, dtype=torch.float64)"),
    "sinusoid_wrong_exponent:not_divided_by_d": _se("/ d_model)\n", ")\n"),
}
VARIANTS["sinusoidal_encoding"] = {
    "stack_reshape": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = t / 10000.0 ** (2 * i / d_model)
    return torch.stack([torch.sin(angles), torch.cos(angles)], dim=-1).reshape(n_positions, d_model)
''',
    "numpy_then_tensor": '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    enc = np.zeros((n_positions, d_model))
    enc[:, 0::2] = np.sin(t * freq)
    enc[:, 1::2] = np.cos(t * freq)
    return torch.from_numpy(enc.astype(np.float32))
''',
}

# --------------------------------------------------------------------------- rotary_embedding
_ROPE = '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
'''


def _rope(*pairs: str) -> str:
    source = _ROPE
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


MISTAKES["rotary_embedding"] = {
    "rope_rotation_wrong_direction": _rope("even * cos - odd * sin", "even * cos + odd * sin",
                                           "even * sin + odd * cos", "-even * sin + odd * cos"),
    "sin_cos_swapped": _rope("even * cos - odd * sin", "even * sin - odd * cos",
                             "even * sin + odd * cos", "even * cos + odd * sin"),
    "rope_halves_instead_of_pairs": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    first, second = x[..., :d // 2], x[..., d // 2:]
    return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)
''',
    "rope_ignores_positions": _rope("positions.to(x.dtype)[:, None]",
                                    "torch.arange(x.shape[-2], dtype=x.dtype)[:, None]"),
    "positions_from_one": _rope("positions.to(x.dtype)[:, None]", "(positions + 1).to(x.dtype)[:, None]"),
    "sinusoid_wrong_exponent:i_not_2i": _rope("torch.arange(0, d, 2, dtype=x.dtype) / d",
                                              "torch.arange(d // 2, dtype=x.dtype) / d"),
    "lower_precision:float32_angles": _rope(
        "theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)",
        "theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)",
        "angles = positions.to(x.dtype)[:, None] * theta",
        "angles = (positions.float()[:, None] * theta).to(x.dtype)"),
    "changes_inputs_in_place": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = even * cos - odd * sin
    x[..., 1::2] = even * sin + odd * cos
    return x
''',
    "rope_pair_overwritten_before_use:view_overwritten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    out = x.clone()
    even, odd = out[..., 0::2], out[..., 1::2]
    out[..., 0::2] = even * torch.cos(angles) - odd * torch.sin(angles)
    out[..., 1::2] = even * torch.sin(angles) + odd * torch.cos(angles)
    return out
''',
}
VARIANTS["rotary_embedding"] = {
    "stack_flatten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=x.dtype) / d))
    ang = torch.outer(positions.to(x.dtype), inv)
    c, s = ang.cos(), ang.sin()
    a, b = x[..., ::2], x[..., 1::2]
    return torch.stack([a * c - b * s, a * s + b * c], dim=-1).flatten(-2)
''',
    "complex": '''
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
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''


def _kv(*pairs: str) -> str:
    source = _KV
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


MISTAKES["kv_cache_step"] = {
    "kv_cache_new_tokens_missing": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    scores = queries @ cached_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores, dim=-1) @ cached_values
''',
    "kv_cache_ignored": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n = queries.shape[-2]
    allowed = torch.ones(n, n, dtype=torch.bool).tril()
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
    "kv_cache_wrong_order": _kv("torch.cat([cached_keys, keys]", "torch.cat([keys, cached_keys]",
                                "torch.cat([cached_values, values]", "torch.cat([values, cached_values]"),
    "kv_cache_mask_not_shifted": _kv(".tril(diagonal=n_all - n_new)", ".tril()"),
    "kv_cache_mask_not_shifted:sdpa_is_causal": '''
import torch.nn.functional as F


def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    return F.scaled_dot_product_attention(queries, all_keys, all_values, is_causal=True)
''',
    "kv_cache_mask_missing": _kv('    scores = scores.masked_fill(~allowed, float("-inf"))\n', ""),
    "no_scaling": _kv(" / math.sqrt(keys.shape[-1])", ""),
    "mask_wrong_sign": _kv("masked_fill(~allowed", "masked_fill(allowed"),
    "changes_inputs_in_place:queries_divided": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries /= math.sqrt(queries.shape[-1])
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ all_keys.transpose(-2, -1)).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
    "uncatalogued:returns_cache_too": _kv("    return torch.softmax(scores, dim=-1) @ all_values",
                                          "    return torch.softmax(scores, dim=-1) @ all_values, all_keys, all_values"),
}
VARIANTS["kv_cache_step"] = {
    "template": _KV,
    "sdpa_explicit_mask": '''
import torch.nn.functional as F


def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), dim=-2)
    v = torch.cat((cached_values, values), dim=-2)
    n_cached = cached_keys.shape[-2]
    rows = torch.arange(queries.shape[-2])[:, None]
    cols = torch.arange(k.shape[-2])[None, :]
    return F.scaled_dot_product_attention(queries, k, v, attn_mask=cols <= rows + n_cached)
''',
    "einsum_where": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], -2)
    v = torch.cat([cached_values, values], -2)
    n_cached, n_new = cached_keys.shape[-2], queries.shape[-2]
    visible = torch.arange(k.shape[-2])[None, :] <= (n_cached + torch.arange(n_new))[:, None]
    scores = torch.einsum("...qd,...kd->...qk", queries, k) / keys.shape[-1] ** 0.5
    scores = torch.where(visible, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    return torch.einsum("...qk,...kd->...qd", torch.softmax(scores, -1), v)
''',
}

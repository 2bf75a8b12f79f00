"""Seventh fresh set, notebook 07. Written without the key (see README.md).

The mhsa_forward cases are one learner's full answer (_LAYER, written for this set) with one slip
each, made by _slip() (text replacement)."""

_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_out // n_heads
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
        q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)
        scores = q @ k.transpose(-2, -1)
        if self.scale:
            scores = scores / self.d_head ** 0.5
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        context = (self.dropout(weights) @ v).permute(0, 2, 1, 3).reshape(b, t, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''


def _slip(*pairs):
    text = _LAYER
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


_SPLIT = ".view(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)"

MISTAKES = {
    "mhsa_forward": {
        "linear_weight_not_transposed": _slip(("copy_(w_query.T)", "copy_(w_query)"), ("copy_(w_key.T)", "copy_(w_key)"),
                                              ("copy_(w_value.T)", "copy_(w_value)"), ("copy_(w_out.T)", "copy_(w_out)")),
        "causal_flag_ignored": _slip(("if self.causal:", "if self.mask is not None:")),
        "heads_reshape_without_transpose": _slip((_SPLIT, ".view(b, self.n_heads, t, self.d_head)"),
                                                 ("@ v).permute(0, 2, 1, 3).reshape", "@ v).reshape")),
        "scale_by_sqrt_d_model:d_out": _slip(("self.d_head ** 0.5", "(self.n_heads * self.d_head) ** 0.5")),
        "missing_output_projection": _slip(("return self.w_out(context)", "return context")),
        "causal_mask_upper": _slip(("torch.tril(torch.ones", "torch.triu(torch.ones")),
        "mask_with_zero": _slip(('float("-inf")', "0.0")),
        "keys_times_queries": _slip(("scores = q @ k.transpose(-2, -1)", "scores = k @ q.transpose(-2, -1)")),
        "uncatalogued:eval_forgotten": _slip(("    layer.eval()\n", "")),
        "uncatalogued:dtype_not_converted": _slip((", causal=causal).to(inputs.dtype)", ", causal=causal)")),
    },
    "sinusoidal_encoding": {
        "sin_cos_swapped": """
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.cos(pos * freq)
    enc[:, 1::2] = torch.sin(pos * freq)
    return enc
""",
        "sinusoid_halves_not_interleaved": """
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    return torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=1)
""",
        "sinusoid_wrong_exponent:i_not_2i": """
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(d_model // 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
""",
        "positions_from_one": """
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
""",
        "uncatalogued:float64_result": """
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float64)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    enc = torch.zeros(n_positions, d_model, dtype=torch.float64)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
""",
        "uncatalogued:base_1000": """
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freq = 1000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
""",
    },
    "rotary_embedding": {
        "rope_rotation_wrong_direction": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    a = positions.to(x.dtype)[:, None] * theta
    e, o = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = e * torch.cos(a) + o * torch.sin(a)
    out[..., 1::2] = -e * torch.sin(a) + o * torch.cos(a)
    return out
""",
        "sin_cos_swapped": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    a = positions.to(x.dtype)[:, None] * theta
    e, o = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = e * torch.sin(a) - o * torch.cos(a)
    out[..., 1::2] = e * torch.cos(a) + o * torch.sin(a)
    return out
""",
        "rope_halves_instead_of_pairs": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    a = positions.to(x.dtype)[:, None] * theta
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * torch.cos(a) - x2 * torch.sin(a), x1 * torch.sin(a) + x2 * torch.cos(a)], dim=-1)
""",
        "rope_ignores_positions": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    a = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta
    e, o = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = e * torch.cos(a) - o * torch.sin(a)
    out[..., 1::2] = e * torch.sin(a) + o * torch.cos(a)
    return out
""",
        "changes_inputs_in_place": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    a = positions.to(x.dtype)[:, None] * theta
    e, o = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = e * torch.cos(a) - o * torch.sin(a)
    x[..., 1::2] = e * torch.sin(a) + o * torch.cos(a)
    return x
""",
        "lower_precision:float32_angles": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    a = positions.float()[:, None] * theta
    c, s = torch.cos(a).to(x.dtype), torch.sin(a).to(x.dtype)
    e, o = x[..., 0::2], x[..., 1::2]
    return torch.stack([e * c - o * s, e * s + o * c], dim=-1).flatten(-2)
""",
    },
    "kv_cache_step": {
        "kv_cache_ignored": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n = queries.shape[-2]
    allowed = torch.ones(n, n, dtype=torch.bool).tril()
    s = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(s.masked_fill(~allowed, float('-inf')), dim=-1) @ values
""",
        "kv_cache_new_tokens_missing": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    s = queries @ cached_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(s, dim=-1) @ cached_values
""",
        "kv_cache_wrong_order": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([keys, cached_keys], dim=-2)
    v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    s = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(s.masked_fill(~allowed, float('-inf')), dim=-1) @ v
""",
        "kv_cache_mask_not_shifted": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    allowed = torch.ones(queries.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    s = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(s.masked_fill(~allowed, float('-inf')), dim=-1) @ v
""",
        "kv_cache_mask_missing": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    s = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(s, dim=-1) @ v
""",
        "no_scaling": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    s = queries @ k.transpose(-2, -1)
    return torch.softmax(s.masked_fill(~allowed, float('-inf')), dim=-1) @ v
""",
        "changes_inputs_in_place:queries_scaled": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries /= math.sqrt(queries.shape[-1])
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    s = queries @ k.transpose(-2, -1)
    return torch.softmax(s.masked_fill(~allowed, float('-inf')), dim=-1) @ v
""",
    },
}

VARIANTS = {
    "mhsa_forward": {
        "answer": _LAYER,
        "where_mask": _slip(('scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))',
                             'scores = torch.where(self.mask[:t, :t], scores, torch.full_like(scores, float("-inf")))')),
    },
    "sinusoidal_encoding": {
        "stack_interleave": """
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions).float().unsqueeze(1)
    i = torch.arange(d_model // 2).float()
    angle = t * torch.exp(-math.log(10000.0) * 2 * i / d_model)
    return torch.stack([angle.sin(), angle.cos()], dim=-1).reshape(n_positions, d_model)
""",
    },
    "rotary_embedding": {
        "stack_flatten": """
def rotary_embedding(x, positions):
    half = x.shape[-1] // 2
    inv = 1.0 / (10000.0 ** (torch.arange(half, dtype=x.dtype) * 2 / x.shape[-1]))
    a = torch.outer(positions.to(x.dtype), inv)
    c, s = a.cos(), a.sin()
    e, o = x[..., ::2], x[..., 1::2]
    return torch.stack([e * c - o * s, e * s + o * c], dim=-1).flatten(-2)
""",
    },
    "kv_cache_step": {
        "sdpa": """
import torch.nn.functional as F

def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), dim=-2)
    v = torch.cat((cached_values, values), dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    rows = torch.arange(n_new)[:, None] + (n_all - n_new)
    allowed = torch.arange(n_all)[None, :] <= rows
    return F.scaled_dot_product_attention(queries, k, v, attn_mask=allowed)
""",
        "manual_softmax": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], -2)
    v = torch.cat([cached_values, values], -2)
    n_c = cached_keys.shape[-2]
    n_new = queries.shape[-2]
    s = torch.matmul(queries, k.transpose(-1, -2)) / keys.shape[-1] ** 0.5
    hide = torch.ones(n_new, n_c + n_new, dtype=torch.bool).triu(diagonal=n_c + 1)
    s = s.masked_fill(hide, float('-inf'))
    s = s - s.amax(dim=-1, keepdim=True)
    w = s.exp()
    return (w / w.sum(-1, keepdim=True)) @ v
""",
    },
}

"""Blind set 7, notebook 07: Trainable attention. Written from notebooks/07_trainable_attention.ipynb only.

The module exercise's cases are built from one correct cell by replacing one line (one mistake each)."""

_MHSA = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        assert d_out % n_heads == 0
        self.d_out = d_out
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
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


def _m(old, new, count=1):
    assert _MHSA.count(old) >= 1, old
    return _MHSA.replace(old, new, count)


_WQ = "layer.w_query.weight.copy_(w_query.T)"
_WK = "layer.w_key.weight.copy_(w_key.T)"
_WV = "layer.w_value.weight.copy_(w_value.T)"
_WO = "layer.w_out.weight.copy_(w_out.T)"

MISTAKES = {
    "mhsa_forward": {
        "weights_not_transposed": (["transpose", "(out, in)", ".t", "weight"],
                                   _MHSA.replace(_WQ, "layer.w_query.weight.copy_(w_query)")
                                   .replace(_WK, "layer.w_key.weight.copy_(w_key)")
                                   .replace(_WV, "layer.w_value.weight.copy_(w_value)")
                                   .replace(_WO, "layer.w_out.weight.copy_(w_out)")),
        "no_eval_dropout": (["eval", "dropout", "train mode"], _m("    layer.eval()\n", "")),
        "scale_d_out": (["d_head", "sqrt", "d_out"], _m("/ math.sqrt(self.d_head)", "/ math.sqrt(self.d_out)")),
        "mask_upper_triangle": (["upper", "lower", "tril", "triu", "future"],
                                _m("torch.tril(torch.ones(context_length", "torch.triu(torch.ones(context_length")),
        "mask_inverted_convention": (["true where", "allowed", "~", "invert"],
                                     _m("masked_fill(~self.mask[:t, :t]", "masked_fill(self.mask[:t, :t]")),
        "view_without_transpose": (["transpose", "heads", "tokens", "view"],
                                   _m("q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
                                      "q = self.w_query(inputs).view(b, self.n_heads, t, self.d_head)")
                                   .replace("k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
                                            "k = self.w_key(inputs).view(b, self.n_heads, t, self.d_head)")
                                   .replace("v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
                                            "v = self.w_value(inputs).view(b, self.n_heads, t, self.d_head)")
                                   .replace("(weights @ v).transpose(1, 2).reshape", "(weights @ v).reshape")),
        "softmax_dim_heads": (["dim", "axis", "keys", "last"], _m("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)")),
        "no_output_projection": (["w_out", "output projection"], _m("return self.w_out(context)", "return context")),
        "mask_zero_not_inf": (["-inf", "0", "before the softmax"], _m('float("-inf")', "0.0")),
    },
    "sinusoidal_encoding": {
        "sin_cos_swapped": (["sin", "cos", "even", "odd"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.cos(angle)
    out[:, 1::2] = torch.sin(angle)
    return out.float()
'''),
        "exponent_uses_column_index": (["2i", "pair", "exponent", "column index"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    j = torch.arange(d_model, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * j / d_model)
    out = torch.where(torch.arange(d_model) % 2 == 0, torch.sin(angle), torch.cos(angle))
    return out.float()
'''),
        "concatenated_halves": (["interleav", "even", "odd", "columns", "concatenat"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    return torch.cat([torch.sin(angle), torch.cos(angle)], dim=-1).float()
'''),
        "multiply_not_divide": (["divide", "multiply", "frequency", "10000"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]
    angle = t * 10000 ** (2 * i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angle)
    out[:, 1::2] = torch.cos(angle)
    return out.float()
'''),
        "positions_from_one": (["position", "t = 0", "start", "from 0"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angle)
    out[:, 1::2] = torch.cos(angle)
    return out.float()
'''),
        "returns_float64": (["float32", "dtype", "float64"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angle)
    out[:, 1::2] = torch.cos(angle)
    return out
'''),
    },
    "rotary_embedding": {
        "rotation_sign_flipped": (["sign", "minus", "-sin", "direction"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angle), torch.sin(angle)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * cos + x1 * sin
    out[..., 1::2] = -x0 * sin + x1 * cos
    return out
'''),
        "rotate_half_pairs": (["pair", "neighbour", "2i, 2i+1", "half"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angle), torch.sin(angle)
    x0, x1 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1)
'''),
        "index_not_positions": (["positions", "arange", "position of each token"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    pos = torch.arange(x.shape[-2], dtype=x.dtype)
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = pos[:, None] * theta
    cos, sin = torch.cos(angle), torch.sin(angle)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out
'''),
        "theta_per_feature": (["theta_i", "pair", "2i", "frequency"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-2 * torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angle), torch.sin(angle)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out
'''),
        "in_place": (["in place", "in-place", "change", "clone", "copy"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angle), torch.sin(angle)
    x0, x1 = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x0 * cos - x1 * sin
    x[..., 1::2] = x0 * sin + x1 * cos
    return x
'''),
        "sequential_overwrite": (["overwrit", "updated", "original", "x_{2i}"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angle), torch.sin(angle)
    out = x.clone()
    out[..., 0::2] = x[..., 0::2] * cos - x[..., 1::2] * sin
    out[..., 1::2] = out[..., 0::2] * sin + x[..., 1::2] * cos
    return out
'''),
    },
    "kv_cache_step": {
        "upper_left_mask": (["lower-right", "corner", "n_cached", "offset", "diagonal"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    mask = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool))
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
        "no_mask": (["mask", "causal", "future"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
        "cache_appended_after": (["order", "append", "cache first", "cat"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([keys, cached_keys], dim=-2)
    v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    mask = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool), diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
        "cat_wrong_dim": (["dim", "tokens axis", "-2", "cat"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=0)
    v = torch.cat([cached_values, values], dim=0)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    mask = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool), diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
        "new_keys_only": (["cache", "cached", "append", "earlier tokens"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_new = queries.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    mask = torch.tril(torch.ones(n_new, n_new, dtype=torch.bool))
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "no_scaling": (["sqrt", "scale", "d_k"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-2, -1)
    mask = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool), diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "view_transpose": _MHSA,
        "einsum_split": _MHSA.replace(
            "scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)",
            'scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.d_head ** -0.5',
        ).replace(
            "layer.eval()\n", "layer.train(False)\n",
        ),
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angle)
    out[:, 1::2] = torch.cos(angle)
    return out.to(torch.float32)
''',
        "stack_interleave": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions).double().unsqueeze(1)
    freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2).double() / d_model)
    angle = t * freq
    return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(n_positions, d_model).float()
''',
    },
    "rotary_embedding": {
        "even_odd": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angle), torch.sin(angle)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out
''',
        "complex": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    xd = x.double()
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angle = positions.double()[:, None] * theta
    z = torch.view_as_complex(xd.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    r = torch.view_as_real(z * torch.polar(torch.ones_like(angle), angle)).reshape(x.shape)
    return r.to(x.dtype)
''',
    },
    "kv_cache_step": {
        "cat_tril_offset": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
    mask = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool), diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
        "sdpa_explicit_mask": '''
import torch.nn.functional as F


def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), -2)
    v = torch.cat((cached_values, values), -2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    i = torch.arange(n_new)[:, None] + (n_all - n_new)
    j = torch.arange(n_all)[None, :]
    return F.scaled_dot_product_attention(queries, k, v, attn_mask=j <= i)
''',
    },
}

"""Blind set 5, notebook 07: Trainable attention, positions and a KV cache (PyTorch). Written from notebooks/07_trainable_attention.ipynb only."""

_CLASS = """
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        assert d_out % n_heads == 0
        self.d_out, self.n_heads, self.d_head = d_out, n_heads, d_out // n_heads
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
        scores = q @ k.transpose(-2, -1) / SCALE
        if self.causal:
            scores = scores.masked_fill(MASKCOND, float("-inf"))
        weights = torch.softmax(scores, dim=SMDIM)
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).contiguous().view(b, t, self.d_out)
        return OUTPUT
"""

_FORWARD = """

def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for lin, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value), (layer.w_out, w_out)):
            lin.weight.copy_(torch.as_tensor(w, dtype=inputs.dtype)TRANSPOSE)
    EVAL
    return layer(inputs)
"""


def _mhsa(scale="self.d_head ** 0.5", maskcond="~self.mask[:t, :t]", smdim="-1", output="self.w_out(context)",
          transpose=".T", eval_="layer.eval()"):
    src = _CLASS.replace("SCALE", scale).replace("MASKCOND", maskcond).replace("SMDIM", smdim)
    src = src.replace("OUTPUT", output)
    return "\n" + src + _FORWARD.replace("TRANSPOSE", transpose).replace("EVAL", eval_)


MISTAKES = {
    "mhsa_forward": {
        "weights_not_transposed": (["transpose", ".t", "(out_features, in_features)"], _mhsa(transpose="")),
        "no_eval_dropout_active": (["eval", "dropout", "training mode"], _mhsa(eval_="pass")),
        "scale_by_d_out": (["d_head", "sqrt", "d_out"], _mhsa(scale="self.d_out ** 0.5")),
        "mask_upper_not_inverted": (["mask", "future", "diagonal"], _mhsa(maskcond="self.mask[:t, :t]")),
        "no_output_projection": (["w_out", "output projection", "w_o"], _mhsa(output="context")),
    },
    "sinusoidal_encoding": {
        "sin_cos_swapped": (["sine", "cosine", "even columns"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angle = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.cos(angle)
    pe[:, 1::2] = torch.sin(angle)
    return pe
'''),
        "exponent_uses_i_not_2i": (["2i", "frequency", "exponent"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angle = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
'''),
        "positions_from_one": (["position 0", "start at 0", "t = 0"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angle = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
'''),
        "halves_not_interleaved": (["interleav", "even columns", "odd"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angle = t / 10000 ** (i / d_model)
    return torch.cat([torch.sin(angle), torch.cos(angle)], dim=-1)
'''),
        "float64_result": (["float32", "dtype", "float64"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angle = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
'''),
    },
    "rotary_embedding": {
        "rotation_sign_flipped": (["sign", "direction", "-sin"], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * cos + x1 * sin
    out[..., 1::2] = -x0 * sin + x1 * cos
    return out
'''),
        "ignores_positions_uses_arange": (["positions", "arange", "not necessarily 0"], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d, n = x.shape[-1], x.shape[-2]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = torch.arange(n, dtype=x.dtype)[:, None] * theta
    cos, sin = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out
'''),
        "half_split_pairs": (["pairs", "(2i, 2i+1)", "halves"], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1)
'''),
        "overwrites_before_use": (["in place", "copy", "overwrit"], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(ang), torch.sin(ang)
    out = x.clone()
    out[..., 0::2] = out[..., 0::2] * cos - out[..., 1::2] * sin
    out[..., 1::2] = out[..., 0::2] * sin + out[..., 1::2] * cos
    return out
'''),
    },
    "kv_cache_step": {
        "upper_left_mask": (["lower-right", "n_cached", "corner"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool))
    s = queries @ k.transpose(-2, -1) / queries.shape[-1] ** 0.5
    return torch.softmax(s.masked_fill(~allowed, float("-inf")), dim=-1) @ v
'''),
        "no_mask": (["causal", "mask", "future"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    s = queries @ k.transpose(-2, -1) / queries.shape[-1] ** 0.5
    return torch.softmax(s, dim=-1) @ v
'''),
        "appended_in_front": (["order", "append", "cache first"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([keys, cached_keys], dim=-2)
    v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool), diagonal=n_cached)
    s = queries @ k.transpose(-2, -1) / queries.shape[-1] ** 0.5
    return torch.softmax(s.masked_fill(~allowed, float("-inf")), dim=-1) @ v
'''),
        "diagonal_off_by_one": (["itself", "diagonal", "j <= n_cached + i"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool), diagonal=n_cached - 1)
    allowed[:, 0] = True
    s = queries @ k.transpose(-2, -1) / queries.shape[-1] ** 0.5
    return torch.softmax(s.masked_fill(~allowed, float("-inf")), dim=-1) @ v
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "book_style": _mhsa(),
        "loop_heads_load_state": '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.n_heads, self.d_head, self.causal = n_heads, d_out // n_heads, causal
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        mask = torch.ones(context_length, context_length).tril().bool()
        self.register_buffer("mask", mask)

    def forward(self, inputs):
        t = inputs.shape[1]
        q, k, v = self.w_query(inputs), self.w_key(inputs), self.w_value(inputs)
        heads = []
        for h in range(self.n_heads):
            sl = slice(h * self.d_head, (h + 1) * self.d_head)
            s = q[..., sl] @ k[..., sl].transpose(1, 2) / math.sqrt(self.d_head)
            if self.causal:
                s = s.masked_fill(self.mask[:t, :t].logical_not(), -torch.inf)
            heads.append(self.dropout(torch.softmax(s, dim=-1)) @ v[..., sl])
        return self.w_out(torch.cat(heads, dim=-1))


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    x = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w, dtype=x.dtype) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, x.shape[1], dropout=0.5,
                                   causal=causal).to(x.dtype)
    with torch.no_grad():
        layer.w_query.weight[:] = w_query.T
        layer.w_key.weight[:] = w_key.T
        layer.w_value.weight[:] = w_value.T
        layer.w_out.weight[:] = w_out.T
    layer.eval()
    return layer(x)
''',
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angle = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe.float()
''',
        "stack_exp_log": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions).float().unsqueeze(1)
    freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2).float() / d_model)
    ang = t * freq
    return torch.stack([torch.sin(ang), torch.cos(ang)], dim=-1).reshape(n_positions, d_model)
''',
    },
    "rotary_embedding": {
        "even_odd": '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    ang = (torch.as_tensor(positions).to(torch.float64)[:, None] * theta).to(x.dtype)
    cos, sin = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1).flatten(-2)
''',
        "complex": '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    xd = x.to(torch.float64)
    z = torch.view_as_complex(xd.reshape(*xd.shape[:-1], d // 2, 2).contiguous())
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    ang = torch.as_tensor(positions).to(torch.float64)[:, None] * theta
    rot = torch.polar(torch.ones_like(ang), ang)
    return torch.view_as_real(z * rot).reshape(x.shape).to(x.dtype)
''',
    },
    "kv_cache_step": {
        "cat_tril_diag": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(a) for a in (queries, keys, values))
    cached_keys = torch.as_tensor(cached_keys, dtype=keys.dtype)
    cached_values = torch.as_tensor(cached_values, dtype=values.dtype)
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    allowed = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool), diagonal=n_all - n_new)
    s = queries @ k.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    return torch.softmax(s.masked_fill(~allowed, float("-inf")), dim=-1) @ v
''',
        "sdpa_explicit_mask": '''
import torch.nn.functional as F

def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(a) for a in (queries, keys, values))
    k = torch.cat([torch.as_tensor(cached_keys, dtype=keys.dtype), keys], dim=-2)
    v = torch.cat([torch.as_tensor(cached_values, dtype=values.dtype), values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    i = torch.arange(n_new)[:, None]
    j = torch.arange(n_all)[None, :]
    return F.scaled_dot_product_attention(queries, k, v, attn_mask=j <= (n_all - n_new) + i)
''',
    },
}

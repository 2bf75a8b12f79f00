"""Blind set 11, notebook 07: trainable attention. Written from notebooks/07_trainable_attention.ipynb only."""

_CLASS = '''
import math
import torch
from torch import nn

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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        scores = q @ k.transpose(-1, -2) / SCALE
        if self.causal:
            scores = scores.masked_fill(MASKEXPR, float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=SOFTDIM))
        ctx = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return OUTEXPR
'''

_FWD = '''

def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], 0.0, causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(WQ)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''


def _mhsa(scale="math.sqrt(self.d_head)", mask="~self.mask[:t, :t]", dim="-1", out="self.w_out(ctx)",
          wq="w_query.T", fwd=None):
    src = (_CLASS.replace("SCALE", scale).replace("MASKEXPR", mask).replace("SOFTDIM", dim)
           .replace("OUTEXPR", out))
    return src + (fwd if fwd is not None else _FWD.replace("WQ", wq))


MISTAKES = {
    "mhsa_forward": {
        "no_transpose_weights": (["transpose", "(out, in)", "layout", ".t"], _mhsa(wq="w_query")),
        "scale_d_out": (["d_head", "d_out", "sqrt"], _mhsa(scale="math.sqrt(q.shape[1] * self.d_head)")),
        "mask_not_inverted": (["mask", "future", "~", "inverted"], _mhsa(mask="self.mask[:t, :t]")),
        "softmax_dim_queries": (["dim", "keys", "last dim", "rows"], _mhsa(dim="-2")),
        "no_w_out": (["w_out", "output projection"], _mhsa(out="ctx")),
        "train_mode_dropout": (["eval", "dropout", "train mode"], _mhsa().replace(
            "0.0, causal).to(inputs.dtype)", "0.5, causal).to(inputs.dtype)").replace("    layer.eval()\n", "")),
    },
    "sinusoidal_encoding": {
        "sin_cos_swapped": (["sine", "cosine", "even", "odd"], '''
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    ang = t / 10000 ** (i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.cos(ang)
    P[:, 1::2] = torch.sin(ang)
    return P.float()
'''),
        "exponent_i_not_2i": (["2i", "exponent", "frequency", "10000"], '''
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)
    ang = t / 10000 ** (i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(ang)
    P[:, 1::2] = torch.cos(ang)
    return P.float()
'''),
        "multiply_not_divide": (["divide", "10000", "multipl", "frequency"], '''
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    ang = t * 10000 ** (i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(ang)
    P[:, 1::2] = torch.cos(ang)
    return P.float()
'''),
        "halves_concat": (["interleav", "even columns", "odd columns", "halves"], '''
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    ang = t / 10000 ** (i / d_model)
    return torch.cat([torch.sin(ang), torch.cos(ang)], dim=-1)
'''),
        "positions_from_one": (["position", "t = 0", "from 0", "off by one"], '''
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    ang = t / 10000 ** (i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(ang)
    P[:, 1::2] = torch.cos(ang)
    return P.float()
'''),
        "float64_result": (["float32", "dtype", "float64"], '''
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    ang = t / 10000 ** (i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(ang)
    P[:, 1::2] = torch.cos(ang)
    return P
'''),
    },
    "rotary_embedding": {
        "rotation_sign": (["sign", "-sin", "rotation", "direction"], '''
import torch
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x0 * c + x1 * s
    out[..., 1::2] = -x0 * s + x1 * c
    return out
'''),
        "halves_not_pairs": (["pairs", "neighbour", "2i, 2i+1", "halves", "rotate_half"], '''
import torch
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x0 * c - x1 * s, x0 * s + x1 * c], dim=-1)
'''),
        "index_positions": (["positions", "arange", "positions[t]", "not 0, 1, 2"], '''
import torch
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    pos = torch.arange(x.shape[-2], dtype=x.dtype)
    ang = pos[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], dim=-1).flatten(-2)
'''),
        "in_place": (["in place", "in-place", "clone", "modif"], '''
import torch
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x0 * c - x1 * s
    x[..., 1::2] = x0 * s + x1 * c
    return x
'''),
        "theta_wrong_exponent": (["theta", "exponent", "-2i/d", "frequency"], '''
import torch
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], dim=-1).flatten(-2)
'''),
    },
    "kv_cache_step": {
        "upper_left_mask": (["corner", "offset", "n_cached", "lower-right", "tril"], '''
import math
import torch
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    s = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    mask = torch.tril(torch.ones(n_new, n_all, dtype=torch.bool))
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
'''),
        "no_mask": (["causal", "mask", "future", "new tokens"], '''
import math
import torch
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    s = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    return torch.softmax(s, dim=-1) @ v
'''),
        "new_first": (["order", "append", "cache first", "cat"], '''
import math
import torch
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([keys, cached_keys], dim=-2)
    v = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    s = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(n_all - n_new)
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
'''),
        "cat_wrong_dim": (["dim", "tokens axis", "-2", "cat"], '''
import math
import torch
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=0)
    v = torch.cat([cached_values, values], dim=0)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    s = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(n_all - n_new)
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
'''),
        "only_cache": (["new keys", "append", "own key", "itself"], '''
import math
import torch
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys[..., :-1, :]], dim=-2)
    v = torch.cat([cached_values, values[..., :-1, :]], dim=-2)
    k = torch.cat([k, keys[..., -1:, :]], dim=-2) if k.shape[-2] == 0 else k
    v = torch.cat([v, values[..., -1:, :]], dim=-2) if v.shape[-2] == 0 else v
    n_new, n_all = queries.shape[-2], k.shape[-2]
    s = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(n_all - n_new)
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
'''),
        "no_scale": (["sqrt", "scale", "d_k"], '''
import torch
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    s = queries @ k.transpose(-1, -2)
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(n_all - n_new)
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "module": _mhsa(),
        "einsum_module": _mhsa(fwd='''

def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], causal=causal)
    layer = layer.to(dtype=inputs.dtype).eval()
    layer.w_query.weight.data = w_query.T.clone().to(inputs.dtype)
    layer.w_key.weight.data = w_key.T.clone().to(inputs.dtype)
    layer.w_value.weight.data = w_value.T.clone().to(inputs.dtype)
    layer.w_out.weight.data = w_out.T.clone().to(inputs.dtype)
    with torch.no_grad():
        return layer(inputs)
'''),
    },
    "sinusoidal_encoding": {
        "broadcast": '''
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    ang = t / 10000 ** (i / d_model)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(ang)
    P[:, 1::2] = torch.cos(ang)
    return P.to(torch.float32)
''',
        "stack_exp": '''
import math
import torch
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64).unsqueeze(1)
    freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    ang = t * freq
    return torch.stack([torch.sin(ang), torch.cos(ang)], dim=-1).reshape(n_positions, d_model).float()
''',
    },
    "rotary_embedding": {
        "stack_pairs": '''
import torch
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    ang = positions.to(x.dtype)[:, None] * theta
    c, s = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], dim=-1).flatten(-2)
''',
        "complex": '''
import torch
def rotary_embedding(x, positions):
    d = x.shape[-1]
    xd = x.to(torch.float64)
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    ang = positions.to(torch.float64)[:, None] * theta
    z = torch.view_as_complex(xd.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    rot = torch.polar(torch.ones_like(ang), ang)
    out = torch.view_as_real(z * rot).reshape(x.shape)
    return out.to(x.dtype)
''',
    },
    "kv_cache_step": {
        "cat_mask": '''
import math
import torch
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    s = queries @ k.transpose(-1, -2) / math.sqrt(k.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(n_all - n_new)
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
''',
        "sdpa": '''
import torch
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

"""Blind set 10, notebook 07: trainable attention. Written from notebooks/07_trainable_attention.ipynb only."""

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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
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


def _m(old, new):
    assert old in _MHSA, old
    return _MHSA.replace(old, new)


_ROPE = '''
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
'''


def _r(old, new):
    assert old in _ROPE, old
    return _ROPE.replace(old, new)


_KV = '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    scores = queries @ k.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''


def _k(old, new):
    assert old in _KV, old
    return _KV.replace(old, new)


MISTAKES = {
    "mhsa_forward": {
        "no_transpose_weights": (["transpose", "(out, in)", ".t", "weight"], _m(
            "        layer.w_query.weight.copy_(w_query.T)\n        layer.w_key.weight.copy_(w_key.T)\n"
            "        layer.w_value.weight.copy_(w_value.T)\n        layer.w_out.weight.copy_(w_out.T)\n",
            "        layer.w_query.weight.copy_(w_query)\n        layer.w_key.weight.copy_(w_key)\n"
            "        layer.w_value.weight.copy_(w_value)\n        layer.w_out.weight.copy_(w_out)\n")),
        "no_eval_dropout": (["eval", "dropout", "train mode"], _m("    layer.eval()\n", "")),
        "scale_d_out": (["d_head", "d_out", "sqrt"], _m("/ math.sqrt(self.d_head)", "/ math.sqrt(self.n_heads * self.d_head)")),
        "view_without_transpose": (["transpose", "heads", "tokens", "view"], _m(
            "        q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)\n"
            "        k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)\n"
            "        v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)\n",
            "        q = self.w_query(inputs).view(b, self.n_heads, t, self.d_head)\n"
            "        k = self.w_key(inputs).view(b, self.n_heads, t, self.d_head)\n"
            "        v = self.w_value(inputs).view(b, self.n_heads, t, self.d_head)\n").replace(
            "(weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)",
            "(weights @ v).reshape(b, t, self.n_heads * self.d_head)")),
        "mask_upper_inverted": (["future", "tril", "diagonal", "below"], _m(
            "torch.tril(torch.ones(context_length, context_length, dtype=torch.bool))",
            "torch.triu(torch.ones(context_length, context_length, dtype=torch.bool))")),
        "no_output_projection": (["w_out", "output projection"], _m("        return self.w_out(context)\n", "        return context\n")),
        "mask_zero_not_inf": (["-inf", "zero", "infinity"], _m('masked_fill(~self.mask[:t, :t], float("-inf"))', 'masked_fill(~self.mask[:t, :t], 0.0)')),
    },
    "sinusoidal_encoding": {
        "exponent_i_not_2i": (["2i", "exponent", "frequency", "pair"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)[None, :]
    angle = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
'''),
        "sin_cos_swapped": (["sine", "cosine", "even", "odd"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.cos(angle)
    pe[:, 1::2] = torch.sin(angle)
    return pe
'''),
        "halves_not_interleaved": (["interleav", "even columns", "halves", "concatenat"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    return torch.cat([torch.sin(angle), torch.cos(angle)], dim=1)
'''),
        "multiply_not_divide": (["divide", "multiply", "10000"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)[None, :]
    angle = t * 10000 ** (2 * i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
'''),
        "column_index_exponent": (["2i", "column", "pair", "same angle"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    j = torch.arange(d_model, dtype=torch.float32)[None, :]
    angle = t / 10000 ** (j / d_model)
    pe = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, 1::2])
    return pe
'''),
        "float64_dtype": (["float32", "dtype", "float64"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
'''),
    },
    "rotary_embedding": {
        "sign_flipped": (["sign", "-sin", "direction", "rotation"], _r(
            "    out[..., 0::2] = x_even * cos - x_odd * sin\n    out[..., 1::2] = x_even * sin + x_odd * cos\n",
            "    out[..., 0::2] = x_even * cos + x_odd * sin\n    out[..., 1::2] = -x_even * sin + x_odd * cos\n")),
        "ignore_positions": (["positions", "arange", "not necessarily"], _r(
            "positions.to(x.dtype)[:, None]", "torch.arange(x.shape[-2], dtype=x.dtype)[:, None]")),
        "halves_pairs": (["neighbouring", "pairs", "2i, 2i+1", "halves"], _r(
            "    x_even, x_odd = x[..., 0::2], x[..., 1::2]\n    out = torch.empty_like(x)\n"
            "    out[..., 0::2] = x_even * cos - x_odd * sin\n    out[..., 1::2] = x_even * sin + x_odd * cos\n",
            "    x1, x2 = x[..., : d // 2], x[..., d // 2:]\n"
            "    out = torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)\n")),
        "theta_without_2": (["2i", "theta", "frequency", "exponent"], _r("10000.0 ** (-2 * i / d)", "10000.0 ** (-i / d)")),
        "in_place": (["in place", "clone", "change x"], _r(
            "    out = torch.empty_like(x)\n", "    x_even, x_odd = x_even.clone(), x_odd.clone()\n    out = x\n")),
    },
    "kv_cache_step": {
        "upper_left_mask": (["lower-right", "corner", "offset", "cached"], _k(
            ".tril(diagonal=n_all - n_new)", ".tril(diagonal=0)")),
        "no_mask": (["mask", "causal", "future"], _k('    scores = scores.masked_fill(~allowed, float("-inf"))\n', "")),
        "new_keys_only": (["cache", "cat", "append", "cached"], _k(
            "    k = torch.cat([cached_keys, keys], dim=-2)\n    v = torch.cat([cached_values, values], dim=-2)\n",
            "    k, v = keys, values\n")),
        "cat_wrong_order": (["order", "before", "cache first", "append"], _k(
            "    k = torch.cat([cached_keys, keys], dim=-2)\n    v = torch.cat([cached_values, values], dim=-2)\n",
            "    k = torch.cat([keys, cached_keys], dim=-2)\n    v = torch.cat([values, cached_values], dim=-2)\n")),
        "no_scale": (["sqrt", "scale", "d_k"], _k(" / math.sqrt(queries.shape[-1])", "")),
        "cat_wrong_axis": (["axis", "dim", "tokens axis", "-2"], _k(
            "    k = torch.cat([cached_keys, keys], dim=-2)\n    v = torch.cat([cached_values, values], dim=-2)\n",
            "    k = torch.cat([cached_keys, keys], dim=0)\n    v = torch.cat([cached_values, values], dim=0)\n")),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "view_transpose": _MHSA,
        "head_loop_bool_where": _m(
            "        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)\n"
            "        if self.causal:\n"
            '            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))\n',
            "        scores = torch.einsum(\"bhqd,bhkd->bhqk\", q, k) / self.d_head ** 0.5\n"
            "        if self.causal:\n"
            "            scores = torch.where(self.mask[:t, :t], scores, torch.tensor(float(\"-inf\"), dtype=scores.dtype))\n"),
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)[None, :]
    angle = t / 10000 ** (2 * i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
''',
        "stack_exp": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    inv = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angle = t * inv[None, :]
    return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(n_positions, d_model).float()
''',
    },
    "rotary_embedding": {
        "even_odd": _ROPE,
        "complex": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = positions.to(torch.float64)[:, None] * theta
    rot = torch.polar(torch.ones_like(angles), angles)
    xc = torch.view_as_complex(x.to(torch.float64).reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(xc * rot).reshape(x.shape).to(x.dtype)
''',
    },
    "kv_cache_step": {
        "lower_right": _KV,
        "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), -2)
    v = torch.cat((cached_values, values), -2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.arange(n_all)[None, :] <= (n_cached + torch.arange(n_new))[:, None]
    return torch.nn.functional.scaled_dot_product_attention(queries, k, v, attn_mask=allowed)
''',
    },
}

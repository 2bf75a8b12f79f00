"""Ninth fresh set, notebook 07: trainable attention, positions and the key-value cache (PyTorch)."""

MISTAKES: dict[str, dict[str, str]] = {}
VARIANTS: dict[str, dict[str, str]] = {}

# --------------------------------------------------------------------------- mhsa_forward
# One learner's full answer; each mistake is this answer with one slip.
_LAYER = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "d_out must be divisible by n_heads"
        self.n_heads = n_heads
        self.head_dim = d_out // n_heads
        self.d_out = d_out
        self.causal = causal
        self.scale = scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        mask = torch.tril(torch.ones(context_length, context_length)).bool()
        self.register_buffer("mask", mask)

    def forward(self, inputs):
        b, n, _ = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(2, 3)
        if self.scale:
            scores = scores / self.head_dim ** 0.5
        if self.causal:
            scores = scores.masked_fill(~self.mask[:n, :n], -torch.inf)
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).contiguous().view(b, n, self.d_out)
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


def _slip(*pairs, source=_LAYER):
    """The answer with each (old, new, count) replaced; old must occur exactly count times."""
    for pair in pairs:
        old, new, count = pair if len(pair) == 3 else (*pair, 1)
        assert source.count(old) == count, (old, source.count(old))
        source = source.replace(old, new)
    return source


_SPLIT = ".view(b, n, self.n_heads, self.head_dim).transpose(1, 2)"

MISTAKES["mhsa_forward"] = {
    "linear_weight_not_transposed": _slip(("copy_(w_query.T)", "copy_(w_query)"),
                                          ("copy_(w_key.T)", "copy_(w_key)"),
                                          ("copy_(w_value.T)", "copy_(w_value)"),
                                          ("copy_(w_out.T)", "copy_(w_out)")),
    "linear_weight_not_transposed:output_only": _slip(("copy_(w_out.T)", "copy_(w_out)")),
    "heads_reshape_without_transpose": _slip((_SPLIT, ".view(b, self.n_heads, n, self.head_dim)", 3)),
    "heads_reshape_without_transpose:combine": _slip((
        "(weights @ v).transpose(1, 2).contiguous().view(b, n, self.d_out)",
        "(weights @ v).contiguous().view(b, n, self.d_out)")),
    "heads_interleaved": _slip((_SPLIT, ".view(b, n, self.head_dim, self.n_heads).permute(0, 3, 1, 2)", 3)),
    "no_scaling": _slip(("scores = scores / self.head_dim ** 0.5", "scores = scores")),
    "scale_by_sqrt_d_model": _slip(("self.head_dim ** 0.5", "self.d_out ** 0.5")),
    "scale_by_d_k": _slip(("self.head_dim ** 0.5", "self.head_dim")),
    "causal_flag_ignored": _slip(("if self.causal:", "if self.mask is not None:")),
    "causal_mask_upper": _slip(("torch.tril(torch.ones", "torch.triu(torch.ones")),
    "mask_wrong_sign": _slip(("masked_fill(~self.mask[:n, :n]", "masked_fill(self.mask[:n, :n]")),
    "mask_after_softmax": _slip(
        ("            scores = scores.masked_fill(~self.mask[:n, :n], -torch.inf)\n", "            pass\n"),
        ("        weights = torch.softmax(scores, dim=-1)\n",
         "        weights = torch.softmax(scores, dim=-1)\n"
         "        if self.causal:\n"
         "            weights = weights.masked_fill(~self.mask[:n, :n], 0.0)\n")),
    "softmax_wrong_axis": _slip(("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2)")),
    "missing_output_projection": _slip(("return self.w_out(context)", "return context")),
    "mixed_up_projections": _slip(("layer.w_key.weight.copy_(w_key.T)", "layer.w_key.weight.copy_(w_query.T)")),
    "keys_without_transpose": _slip(("scores = q @ k.transpose(2, 3)", "scores = q @ k")),
    "lower_precision:float32_layer": _slip(("    layer = layer.to(inputs.dtype)\n", ""),
                                           ("return layer(inputs)", "return layer(inputs.float())")),
    "uncatalogued:eval_missing": _slip(("    layer.eval()\n", "")),
    "uncatalogued:square_root_precedence": _slip(("scores / self.head_dim ** 0.5", "scores / self.head_dim ** 1 / 2")),
}
VARIANTS["mhsa_forward"] = {
    "einsum_where": '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.causal, self.scale = n_heads, d_out // n_heads, causal, scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        idx = torch.arange(context_length)
        self.register_buffer("mask", idx[:, None] >= idx[None, :])

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        shape = (batch, tokens, self.n_heads, self.d_head)
        q = self.w_query(inputs).reshape(shape)
        k = self.w_key(inputs).reshape(shape)
        v = self.w_value(inputs).reshape(shape)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k)
        if self.scale:
            scores = scores * self.d_head ** -0.5
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = torch.where(allowed, scores, torch.full_like(scores, float("-inf")))
        weights = scores.softmax(dim=-1)
        self.last_weights = weights.detach()
        context = torch.einsum("bhqk,bkhd->bqhd", self.dropout(weights), v)
        return self.w_out(context.reshape(batch, tokens, -1))


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[-2],
                                   dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in zip((layer.w_query, layer.w_key, layer.w_value, layer.w_out),
                             (w_query, w_key, w_value, w_out)):
            linear.weight.copy_(w.t())
    layer.eval()
    return layer(inputs).detach()
''',
    "loop_over_heads_state_dict": '''
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
        blocked = torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1)
        self.register_buffer("mask", ~blocked)

    def forward(self, inputs):
        tokens = inputs.shape[1]
        q_all, k_all, v_all = self.w_query(inputs), self.w_key(inputs), self.w_value(inputs)
        heads, all_weights = [], []
        for h in range(self.n_heads):
            cols = slice(h * self.d_head, (h + 1) * self.d_head)
            scores = q_all[..., cols] @ k_all[..., cols].transpose(-2, -1)
            if self.scale:
                scores = scores / math.sqrt(self.d_head)
            if self.causal:
                scores = scores.masked_fill(self.mask[:tokens, :tokens].logical_not(), float("-inf"))
            weights = torch.softmax(scores, dim=-1)
            all_weights.append(weights.detach())
            heads.append(self.dropout(weights) @ v_all[..., cols])
        self.last_weights = torch.stack(all_weights, dim=1)
        return self.w_out(torch.cat(heads, dim=-1))


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    layer.load_state_dict({"w_query.weight": w_query.T, "w_key.weight": w_key.T, "w_value.weight": w_value.T,
                           "w_out.weight": w_out.T, "mask": layer.mask})
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
''',
    "permute_and_float_mask": _slip(
        (_SPLIT, ".reshape(b, n, self.n_heads, self.head_dim).permute(0, 2, 1, 3)", 3),
        ("            scores = scores.masked_fill(~self.mask[:n, :n], -torch.inf)\n",
         "            scores = scores + torch.zeros_like(scores).masked_fill(~self.mask[:n, :n], -math.inf)\n")),
}

# --------------------------------------------------------------------------- sinusoidal_encoding
_SIN = '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = pos / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''

MISTAKES["sinusoidal_encoding"] = {
    "sin_cos_swapped": _slip(("pe[:, 0::2] = torch.sin(angles)", "pe[:, 0::2] = torch.cos(angles)"),
                             ("pe[:, 1::2] = torch.cos(angles)", "pe[:, 1::2] = torch.sin(angles)"), source=_SIN),
    "sinusoid_halves_not_interleaved": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = pos / 10000 ** (i / d_model)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
''',
    "sinusoid_wrong_exponent:pair_index_not_doubled": _slip(
        ("i = torch.arange(0, d_model, 2, dtype=torch.float32)", "i = torch.arange(d_model // 2, dtype=torch.float32)"),
        source=_SIN),
    "sinusoid_wrong_exponent:column_index": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    j = torch.arange(d_model, dtype=torch.float32)
    angles = pos / 10000 ** (j / d_model)
    pe = torch.zeros(n_positions, d_model)
    pe[:, 0::2] = torch.sin(angles[:, 0::2])
    pe[:, 1::2] = torch.cos(angles[:, 1::2])
    return pe
''',
    "sinusoid_wrong_exponent:sign": _slip(("angles = pos / 10000", "angles = pos * 10000"), source=_SIN),
    "positions_from_one": _slip(("torch.arange(n_positions, dtype=torch.float32)",
                                 "torch.arange(1, n_positions + 1, dtype=torch.float32)"), source=_SIN),
    "integer_arithmetic:exponent_floor_division": _slip(
        ("i = torch.arange(0, d_model, 2, dtype=torch.float32)", "i = torch.arange(0, d_model, 2)"),
        ("(i / d_model)", "(i // d_model)"), source=_SIN),
    "loop_leftover": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)
    pe = torch.zeros(n_positions, d_model)
    for i in range(d_model // 2 - 1):
        freq = 10000.0 ** (-2 * i / d_model)
        pe[:, 2 * i] = torch.sin(pos * freq)
        pe[:, 2 * i + 1] = torch.cos(pos * freq)
    return pe
''',
    "uncatalogued:numpy_float64_result": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = np.arange(n_positions)[:, None]
    angles = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n_positions, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return torch.from_numpy(pe)
''',
    "uncatalogued:base_1000": _slip(("pos / 10000 **", "pos / 1000 **"), source=_SIN),
    "uncatalogued:degrees": _slip(("pe[:, 0::2] = torch.sin(angles)", "pe[:, 0::2] = torch.sin(torch.deg2rad(angles))"),
                                  ("pe[:, 1::2] = torch.cos(angles)", "pe[:, 1::2] = torch.cos(torch.deg2rad(angles))"),
                                  source=_SIN),
}
VARIANTS["sinusoidal_encoding"] = {
    "exp_log": '''
def sinusoidal_encoding(n_positions, d_model):
    position = torch.arange(n_positions).float().unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe
''',
    "stack_interleave": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    freqs = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = t * freqs
    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(n_positions, d_model)
''',
    "numpy_float64_then_float32": '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    angles = t * 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    pe = np.empty((n_positions, d_model))
    pe[:, ::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return torch.tensor(pe, dtype=torch.float32)
''',
}

# --------------------------------------------------------------------------- rotary_embedding
_ROPE = '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    freqs = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=x.dtype) / d))
    angles = positions.to(x.dtype)[:, None] * freqs[None, :]
    cos, sin = angles.cos(), angles.sin()
    x1 = x[..., 0::2]
    x2 = x[..., 1::2]
    out = torch.zeros_like(x)
    out[..., 0::2] = x1 * cos - x2 * sin
    out[..., 1::2] = x1 * sin + x2 * cos
    return out
'''

MISTAKES["rotary_embedding"] = {
    "rope_rotation_wrong_direction": _slip(("x1 * cos - x2 * sin", "x1 * cos + x2 * sin"),
                                           ("x1 * sin + x2 * cos", "-x1 * sin + x2 * cos"), source=_ROPE),
    "sin_cos_swapped": _slip(("cos, sin = angles.cos(), angles.sin()", "sin, cos = angles.cos(), angles.sin()"),
                             source=_ROPE),
    "rope_halves_instead_of_pairs": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    freqs = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=x.dtype) / d))
    angles = positions.to(x.dtype)[:, None] * freqs[None, :]
    cos, sin = angles.cos(), angles.sin()
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
''',
    "rope_ignores_positions": _slip(("positions.to(x.dtype)[:, None]",
                                     "torch.arange(x.shape[-2], dtype=x.dtype)[:, None]"), source=_ROPE),
    "sinusoid_wrong_exponent": _slip(("torch.arange(0, d, 2, dtype=x.dtype) / d", "torch.arange(d // 2, dtype=x.dtype) / d"),
                                     source=_ROPE),
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
    "lower_precision:frequencies_in_float32": _slip(("torch.arange(0, d, 2, dtype=x.dtype)", "torch.arange(0, d, 2)"),
                                                    source=_ROPE),
    "uncatalogued:positions_shifted": _slip(("positions.to(x.dtype)[:, None]", "(positions + 1).to(x.dtype)[:, None]"),
                                            source=_ROPE),
    "uncatalogued:minus_sign_missing": _slip(("x1 * cos - x2 * sin", "x1 * cos + x2 * sin"), source=_ROPE),
    "uncatalogued:angles_not_outer": _slip(("positions.to(x.dtype)[:, None] * freqs[None, :]",
                                            "positions.to(x.dtype) * freqs"), source=_ROPE),
}
VARIANTS["rotary_embedding"] = {
    "complex": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    rotation = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * rotation).reshape(x.shape)
''',
    "stack_flatten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = torch.pow(10000.0, -torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.outer(positions.to(x.dtype), theta)
    c, s = torch.cos(angles), torch.sin(angles)
    a, b = x[..., ::2], x[..., 1::2]
    return torch.stack([a * c - b * s, a * s + b * c], dim=-1).flatten(-2)
''',
    "rotate_half_interleaved": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = (positions.to(x.dtype)[:, None] * theta).repeat_interleave(2, dim=-1)
    rotated = torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1).reshape(x.shape)
    return x * torch.cos(angles) + rotated * torch.sin(angles)
''',
}

# --------------------------------------------------------------------------- kv_cache_step
_KV = '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), dim=-2)
    v = torch.cat((cached_values, values), dim=-2)
    n_new, n_total = queries.shape[-2], k.shape[-2]
    n_cached = n_total - n_new
    mask = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)
    scores = queries @ k.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
'''

MISTAKES["kv_cache_step"] = {
    "kv_cache_new_tokens_missing": _slip(("torch.cat((cached_keys, keys), dim=-2)", "cached_keys"),
                                         ("torch.cat((cached_values, values), dim=-2)", "cached_values"),
                                         ("n_cached = n_total - n_new", "n_cached = n_total"),
                                         ("tril(diagonal=n_cached)", "tril(diagonal=n_cached - 1)"), source=_KV),
    "kv_cache_ignored": _slip(("torch.cat((cached_keys, keys), dim=-2)", "keys"),
                              ("torch.cat((cached_values, values), dim=-2)", "values"), source=_KV),
    "kv_cache_wrong_order": _slip(("torch.cat((cached_keys, keys), dim=-2)", "torch.cat((keys, cached_keys), dim=-2)"),
                                  ("torch.cat((cached_values, values), dim=-2)",
                                   "torch.cat((values, cached_values), dim=-2)"), source=_KV),
    "kv_cache_mask_not_shifted": _slip(("tril(diagonal=n_cached)", "tril()"), source=_KV),
    "kv_cache_mask_not_shifted:sdpa_is_causal": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, is_causal=True)
''',
    "kv_cache_mask_missing": _slip(('    scores = scores.masked_fill(~mask, float("-inf"))\n', ""), source=_KV),
    "causal_mask_off_by_one": _slip(("tril(diagonal=n_cached)", "tril(diagonal=n_cached - 1)"), source=_KV),
    "mask_wrong_sign": _slip(("masked_fill(~mask,", "masked_fill(mask,"), source=_KV),
    "no_scaling": _slip((" / math.sqrt(queries.shape[-1])", ""), source=_KV),
    "keys_transpose_all_axes": _slip(("k.transpose(-2, -1)", "k.T"), source=_KV),
    "softmax_no_max_subtraction": _slip(("    weights = torch.softmax(scores, dim=-1)\n",
                                         "    weights = scores.exp() / scores.exp().sum(dim=-1, keepdim=True)\n"),
                                        source=_KV),
    "changes_inputs_in_place": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries /= math.sqrt(queries.shape[-1])
    k = torch.cat((cached_keys, keys), dim=-2)
    v = torch.cat((cached_values, values), dim=-2)
    n_new, n_total = queries.shape[-2], k.shape[-2]
    mask = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_total - n_new)
    scores = (queries @ k.transpose(-2, -1)).masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
''',
    "uncatalogued:scaled_by_sqrt_d_v": _slip(("math.sqrt(queries.shape[-1])", "math.sqrt(values.shape[-1])"), source=_KV),
    "uncatalogued:returns_cache_too": _slip(("    return weights @ v\n", "    return weights @ v, k, v\n"), source=_KV),
}
VARIANTS["kv_cache_step"] = {
    "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_k = torch.cat([cached_keys, keys], dim=-2)
    all_v = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_k.shape[-2]
    allowed = torch.arange(n_all)[None, :] <= torch.arange(n_new)[:, None] + (n_all - n_new)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_k, all_v, attn_mask=allowed)
''',
    "where_and_manual_softmax": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_cached = cached_keys.shape[-2]
    k = torch.cat([cached_keys, keys], -2)
    v = torch.cat([cached_values, values], -2)
    n_new = queries.shape[-2]
    rows = torch.arange(n_new).unsqueeze(1) + n_cached
    cols = torch.arange(n_cached + n_new).unsqueeze(0)
    scores = torch.matmul(queries, k.transpose(-1, -2)) / keys.shape[-1] ** 0.5
    scores = torch.where(cols <= rows, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    scores = scores - scores.amax(dim=-1, keepdim=True)
    weights = scores.exp()
    return (weights / weights.sum(dim=-1, keepdim=True)) @ v
''',
    "full_mask_last_rows": _slip(("    mask = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)\n",
                                  "    mask = torch.ones(n_total, n_total, dtype=torch.bool).tril()[n_cached:]\n"),
                                 source=_KV),
}

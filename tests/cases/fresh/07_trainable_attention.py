"""Fresh learner answers for notebook 07 (see README.md: written without the key, never tuned on).

The ``mhsa_forward`` cell holds the module and the loader, so each of its cases is a whole cell:
``_c((old, new), ...)`` is this file's own correct cell, ``_BASE``, with some lines replaced.
"""

_BASE = '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "d_out must be divisible by n_heads"
        self.n_heads = n_heads
        self.d_head = d_out // n_heads
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
        b, t, _ = inputs.shape
        q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(2, 3)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t] == 0, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).contiguous().view(b, t, self.d_out)
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


def _c(*pairs: tuple[str, str]) -> str:
    """``_BASE`` with each ``(old, new)`` pair's text replaced (``old`` occurs exactly once)."""
    source = _BASE
    for old, new in pairs:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


MISTAKES = {
    "mhsa_forward": {
        "linear_weight_not_transposed:data_assign": _c(
            ("layer.w_query.weight.copy_(w_query.T)", "layer.w_query.weight.data = w_query.clone()"),
            ("layer.w_key.weight.copy_(w_key.T)", "layer.w_key.weight.data = w_key.clone()"),
            ("layer.w_value.weight.copy_(w_value.T)", "layer.w_value.weight.data = w_value.clone()"),
            ("layer.w_out.weight.copy_(w_out.T)", "layer.w_out.weight.data = w_out.clone()")),
        "uncatalogued:layer_dtype_not_converted": _c(("    layer = layer.to(inputs.dtype)\n", "")),
        "uncatalogued:dropout_left_on": _c(("    layer.eval()\n", "")),
        "uncatalogued:view_of_non_contiguous": _c(
            ("(weights @ v).transpose(1, 2).contiguous().view(b, t, self.d_out)",
             "(weights @ v).transpose(1, 2).view(b, t, self.d_out)")),
        "heads_reshape_without_transpose:combine_only": _c(
            ("(weights @ v).transpose(1, 2).contiguous().view(b, t, self.d_out)",
             "(weights @ v).reshape(b, t, self.d_out)")),
        "heads_reshape_without_transpose:split_only": _c(
            ("q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "q = self.w_query(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "k = self.w_key(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "v = self.w_value(inputs).view(b, self.n_heads, t, self.d_head)")),
        "mask_wrong_sign": _c(("self.mask[:t, :t] == 0, float", "self.mask[:t, :t], float")),
        "scale_by_sqrt_d_model:d_in": _c(("math.sqrt(self.d_head)", "math.sqrt(inputs.shape[-1])")),
        "causal_flag_ignored:not_passed": _c(
            ("inputs.shape[1], dropout=0.5, causal=causal)", "inputs.shape[1], dropout=0.5)")),
        "softmax_wrong_axis:dim1": _c(("torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=1)")),
        "weights_not_transposed:w_out_matmul": _c(("return self.w_out(context)",
                                                   "return context @ self.w_out.weight")),
        "mask_after_softmax:zero_fill": _c(
            ("            scores = scores.masked_fill(self.mask[:t, :t] == 0, float(\"-inf\"))\n", "            pass\n"),
            ("        weights = torch.softmax(scores, dim=-1)\n",
             "        weights = torch.softmax(scores, dim=-1)\n        if self.causal:\n"
             "            weights = weights.masked_fill(~self.mask[:t, :t], 0.0)\n")),
        "causal_mask_off_by_one:diagonal_minus_one": _c(
            ("torch.tril(torch.ones(context_length, context_length)).bool()",
             "torch.tril(torch.ones(context_length, context_length), diagonal=-1).bool()")),
        "uncatalogued:bias_left_on": _c(
            ("self.w_query = nn.Linear(d_in, d_out, bias=False)", "self.w_query = nn.Linear(d_in, d_out)"),
            ("self.w_key = nn.Linear(d_in, d_out, bias=False)", "self.w_key = nn.Linear(d_in, d_out)"),
            ("self.w_value = nn.Linear(d_in, d_out, bias=False)", "self.w_value = nn.Linear(d_in, d_out)")),
        "uncatalogued:keys_transposed_on_wrong_dims": _c(("q @ k.transpose(2, 3)", "q @ k.transpose(1, 2)")),
    },
    "sinusoidal_encoding": {
        "sinusoid_halves_not_interleaved:stack_flatten": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freqs = 1.0 / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = positions * freqs
    return torch.stack([torch.sin(angles), torch.cos(angles)], dim=1).flatten(1)
""",
        "sinusoid_wrong_exponent:i_over_d": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = positions / 10000 ** (i / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
""",
        "sinusoid_wrong_exponent:positive": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = positions * 10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
""",
        "sinusoid_wrong_exponent:per_column": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = positions / 10000.0 ** (torch.arange(d_model, dtype=torch.float32) / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles[:, 0::2])
    encoding[:, 1::2] = torch.cos(angles[:, 1::2])
    return encoding
""",
        "sin_cos_swapped": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = positions * 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    encoding = torch.empty(n_positions, d_model)
    encoding[:, 0::2] = torch.cos(angles)
    encoding[:, 1::2] = torch.sin(angles)
    return encoding
""",
        "positions_from_one": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    angles = positions * 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
""",
        "integer_arithmetic:floor_division": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions)[:, None]
    exponent = torch.arange(0, d_model, 2) // d_model
    angles = positions / 10000 ** exponent
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
""",
        "uncatalogued:returns_float64": """
def sinusoidal_encoding(n_positions, d_model):
    positions = np.arange(n_positions)[:, None]
    angles = positions / 10000 ** (np.arange(0, d_model, 2) / d_model)
    encoding = np.zeros((n_positions, d_model))
    encoding[:, 0::2] = np.sin(angles)
    encoding[:, 1::2] = np.cos(angles)
    return torch.from_numpy(encoding)
""",
    },
    "rotary_embedding": {
        "rope_rotation_wrong_direction": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x1 * cos + x2 * sin
    out[..., 1::2] = -x1 * sin + x2 * cos
    return out
""",
        "rope_halves_instead_of_pairs:rotate_half": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    angles = torch.cat([angles, angles], dim=-1)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    rotated_half = torch.cat([-x2, x1], dim=-1)
    return x * torch.cos(angles) + rotated_half * torch.sin(angles)
""",
        "rope_ignores_positions:arange": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
""",
        "lower_precision:float32_angles": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = positions.float()[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
""",
        "changes_inputs_in_place:slices": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = even * cos - odd * sin
    x[..., 1::2] = even * sin + odd * cos
    return x
""",
        "sinusoid_wrong_exponent:pair_index_over_d": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
""",
        "uncatalogued:encoding_added_not_rotated": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    encoding = torch.stack([torch.sin(angles), torch.cos(angles)], dim=-1).flatten(-2)
    return x + encoding
""",
    },
}

VARIANTS = {
    "mhsa_forward": {
        "finfo_fill_functional_softmax": _c(
            ('scores.masked_fill(self.mask[:t, :t] == 0, float("-inf"))',
             "scores.masked_fill(~self.mask[:t, :t], torch.finfo(scores.dtype).min)"),
            ("torch.softmax(scores, dim=-1)", "nn.functional.softmax(scores, dim=-1)")),
        "einsum_unflatten_flatten": _c(
            ("q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "q = self.w_query(inputs).unflatten(-1, (self.n_heads, self.d_head)).transpose(1, 2)"),
            ("scores = q @ k.transpose(2, 3)", "scores = torch.einsum('bhqd,bhkd->bhqk', q, k)"),
            ("(weights @ v).transpose(1, 2).contiguous().view(b, t, self.d_out)",
             "(weights @ v).transpose(1, 2).flatten(2)")),
        "load_state_dict_train_false": _c(
            ("        layer.w_query.weight.copy_(w_query.T)\n", ""),
            ("        layer.w_key.weight.copy_(w_key.T)\n", ""),
            ("        layer.w_value.weight.copy_(w_value.T)\n", ""),
            ("        layer.w_out.weight.copy_(w_out.T)\n",
             "        layer.load_state_dict({'w_query.weight': w_query.T, 'w_key.weight': w_key.T,\n"
             "                               'w_value.weight': w_value.T, 'w_out.weight': w_out.T,\n"
             "                               'mask': layer.mask}, strict=True)\n"),
            ("    layer.eval()\n", "    layer.train(False)\n")),
        "permute_reshape_scale_keys_dim": _c(
            ("(weights @ v).transpose(1, 2).contiguous().view(b, t, self.d_out)",
             "(weights @ v).permute(0, 2, 1, 3).reshape(b, t, -1)"),
            ("math.sqrt(self.d_head)", "k.shape[-1] ** 0.5")),
    },
    "sinusoidal_encoding": {
        "log_space_interleave_by_stack": """
def sinusoidal_encoding(n_positions, d_model):
    position = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    angles = position * div_term
    return torch.stack([torch.sin(angles), torch.cos(angles)], dim=-1).reshape(n_positions, d_model)
""",
        "numpy_then_float32": """
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angles = t / np.power(10000.0, 2 * i / d_model)
    pe = np.empty((n_positions, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return torch.tensor(pe, dtype=torch.float32)
""",
        "outer": """
def sinusoidal_encoding(n_positions, d_model):
    freqs = 10000.0 ** (-torch.arange(0, d_model, 2).float() / d_model)
    angles = torch.outer(torch.arange(n_positions).float(), freqs)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, ::2], pe[:, 1::2] = angles.sin(), angles.cos()
    return pe
""",
    },
    "rotary_embedding": {
        "complex_numbers": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    rotated = pairs * torch.polar(torch.ones_like(angles), angles)
    return torch.view_as_real(rotated).reshape(x.shape).to(x.dtype)
""",
        "stack_flatten": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, d, 2).to(x.dtype) / d))
    angles = torch.outer(positions.to(x.dtype), inv_freq)
    x_even, x_odd = x[..., ::2], x[..., 1::2]
    out = torch.stack([x_even * angles.cos() - x_odd * angles.sin(),
                       x_even * angles.sin() + x_odd * angles.cos()], dim=-1)
    return out.flatten(-2)
""",
        "rotate_pairs_trick": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = (positions.to(x.dtype)[:, None] * theta).repeat_interleave(2, dim=-1)
    swapped = torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1).flatten(-2)
    return x * angles.cos() + swapped * angles.sin()
""",
    },
}

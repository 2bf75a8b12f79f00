'''Second fresh set, notebook 07: learner submissions written without the key.

Written on 2026-11-23 by a helper session that read only the exercise texts, signatures and solution
cells of solutions/07_trainable_attention.ipynb and the ids and titles of the mistake catalogue
(src/attention_course/mistakes.py); not autograder/key/, verdict.py, expected/, accuracy.py, nor any
other case file. cross_attention is left out (being replaced). Each case was checked only against the
notebook's own solution (selfcheck.py), never against the grader. Rule: this file is never edited
after its first measurement.

The mhsa_forward cases share one learner's layer (_LAYER, written here independently of the
notebook's solution) and differ from it by one slip each, made with _slip().
'''

_LAYER = """
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "d_out must be divisible by n_heads"
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
        q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(2, 3)
        if self.scale:
            scores = scores / self.d_head ** 0.5
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], -torch.inf)
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).contiguous().view(b, t, self.n_heads * self.d_head)
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
"""


def _slip(*pairs: tuple[str, str]) -> str:
    source = _LAYER
    for old, new in pairs:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source


MISTAKES = {
    "mhsa_forward": {
        "linear_weight_not_transposed": _slip(
            ("layer.w_query.weight.copy_(w_query.T)", "layer.w_query.weight.copy_(w_query)"),
            ("layer.w_key.weight.copy_(w_key.T)", "layer.w_key.weight.copy_(w_key)"),
            ("layer.w_value.weight.copy_(w_value.T)", "layer.w_value.weight.copy_(w_value)"),
            ("layer.w_out.weight.copy_(w_out.T)", "layer.w_out.weight.copy_(w_out)"),
        ),
        "causal_flag_ignored": _slip(
            ("        if self.causal:\n            scores = scores.masked_fill",
             "        if True:\n            scores = scores.masked_fill"),
        ),
        "causal_mask_upper": _slip(
            ("torch.tril(torch.ones(context_length, context_length))",
             "torch.triu(torch.ones(context_length, context_length))"),
        ),
        "mask_wrong_sign": _slip(("masked_fill(~self.mask[:t, :t]", "masked_fill(self.mask[:t, :t]")),
        "heads_reshape_without_transpose": _slip(
            ("q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "q = self.w_query(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "k = self.w_key(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "v = self.w_value(inputs).view(b, self.n_heads, t, self.d_head)"),
            ("(weights @ v).transpose(1, 2).contiguous().view(", "(weights @ v).contiguous().view("),
        ),
        "scale_by_sqrt_d_model": _slip(
            ("scores = scores / self.d_head ** 0.5", "scores = scores / inputs.shape[-1] ** 0.5"),
        ),
        "uncatalogued:eval_forgotten": _slip(("    layer.eval()\n", "")),
        "lower_precision:inputs_to_float32": _slip(
            ("    layer = layer.to(inputs.dtype)\n", ""),
            ("        return layer(inputs)", "        return layer(inputs.float())"),
        ),
        "weights_transposed": _slip(
            ("(weights @ v).transpose(1, 2)", "(weights.transpose(-2, -1) @ v).transpose(1, 2)"),
        ),
        "uncatalogued:view_without_contiguous": _slip(
            ("(weights @ v).transpose(1, 2).contiguous().view(", "(weights @ v).transpose(1, 2).view("),
        ),
    },
    "sinusoidal_encoding": {
        "sin_cos_swapped": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.cos(pos * freq)
    enc[:, 1::2] = torch.sin(pos * freq)
    return enc
''',
        "sinusoid_halves_not_interleaved": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    return torch.cat([torch.sin(pos * freq), torch.cos(pos * freq)], dim=-1)
''',
        "sinusoid_wrong_exponent:i_over_d": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = pos / 10000.0 ** (i / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles)
    enc[:, 1::2] = torch.cos(angles)
    return enc
''',
        "sinusoid_wrong_exponent:per_column": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = pos / 10000.0 ** (torch.arange(d_model, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles[:, 0::2])
    enc[:, 1::2] = torch.cos(angles[:, 1::2])
    return enc
''',
        "positions_from_one": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(pos * freq)
    enc[:, 1::2] = torch.cos(pos * freq)
    return enc
''',
        "integer_arithmetic:floor_division": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = torch.arange(n_positions)[:, None]
    two_i = torch.arange(0, d_model, 2)
    angles = pos / 10000 ** (two_i // d_model)
    enc = torch.zeros(n_positions, d_model)
    enc[:, 0::2] = torch.sin(angles)
    enc[:, 1::2] = torch.cos(angles)
    return enc
''',
        "uncatalogued:float64_result": '''
def sinusoidal_encoding(n_positions, d_model):
    pos = np.arange(n_positions)[:, None]
    freq = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)
    enc = np.zeros((n_positions, d_model))
    enc[:, 0::2] = np.sin(pos * freq)
    enc[:, 1::2] = np.cos(pos * freq)
    return torch.from_numpy(enc)
''',
    },
    "rotary_embedding": {
        "rope_rotation_wrong_direction": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., ::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., ::2] = even * cos + odd * sin
    out[..., 1::2] = -even * sin + odd * cos
    return out
''',
        "rope_halves_instead_of_pairs": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = angles.cos(), angles.sin()
    first, second = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)
''',
        "rope_ignores_positions": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    m = torch.arange(x.shape[-2], dtype=x.dtype)
    angles = m[:, None] * theta
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
''',
        "sinusoid_wrong_exponent:rope": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * angles.cos() - odd * angles.sin()
    out[..., 1::2] = even * angles.sin() + odd * angles.cos()
    return out
''',
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
        "lower_precision:float32_angles": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = positions.float()[:, None] * theta
    cos, sin = torch.cos(angles).to(x.dtype), torch.sin(angles).to(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
''',
        "sin_cos_swapped:rope": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * sin - odd * cos
    out[..., 1::2] = even * cos + odd * sin
    return out
''',
        "uncatalogued:output_in_halves": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.cat([even * cos - odd * sin, even * sin + odd * cos], dim=-1)
''',
    },
}

VARIANTS = {
    "mhsa_forward": {
        "as_written": _LAYER,
        "reshape_permute_einsum": '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        if d_out % n_heads != 0:
            raise ValueError("n_heads must divide d_out")
        self.n_heads, self.d_head = n_heads, d_out // n_heads
        self.causal, self.scale = causal, scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        mask = torch.ones(context_length, context_length, dtype=torch.bool).tril()
        self.register_buffer("mask", mask)

    def _heads(self, x):
        b, t, _ = x.shape
        return x.reshape(b, t, self.n_heads, self.d_head).permute(0, 2, 1, 3)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q, k, v = self._heads(self.w_query(inputs)), self._heads(self.w_key(inputs)), self._heads(self.w_value(inputs))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t] == 0, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        context = torch.einsum("bhqk,bhkd->bhqd", self.dropout(weights), v)
        return self.w_out(context.permute(0, 2, 1, 3).reshape(b, t, -1))


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[-2],
                                   dropout=0.5, causal=causal).to(inputs.dtype)
    state = {"w_query.weight": w_query.T, "w_key.weight": w_key.T, "w_value.weight": w_value.T,
             "w_out.weight": w_out.T, "mask": layer.mask}
    layer.load_state_dict({name: value.contiguous() for name, value in state.items()})
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
''',
    },
    "sinusoidal_encoding": {
        "stack_interleave": '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequencies = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = positions * frequencies
    return torch.stack([torch.sin(angles), torch.cos(angles)], dim=-1).reshape(n_positions, d_model)
''',
        "exp_log_form": '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(positions * div)
    pe[:, 1::2] = torch.cos(positions * div)
    return pe
''',
    },
    "rotary_embedding": {
        "complex_numbers": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    rotation = torch.polar(torch.ones_like(angles), angles)
    return torch.view_as_real(pairs * rotation).reshape(x.shape)
''',
        "stack_flatten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = torch.pow(torch.tensor(10000.0, dtype=x.dtype), -torch.arange(0, d, 2, dtype=x.dtype) / d)
    angle = torch.outer(positions.to(x.dtype), theta)
    c, s = torch.cos(angle), torch.sin(angle)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * c - x2 * s, x1 * s + x2 * c], dim=-1).flatten(-2)
''',
    },
}

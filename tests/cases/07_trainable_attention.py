"""Learner-style answers for notebook 07: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from
attention_course.mistakes) or a variant's name. Values: what a learner types into that cell.
Run by ``python3 tasks.py accuracy`` and tests/test_accuracy.py.

The ``mhsa_forward`` cell holds the module and the function that loads weights into it, so each of
its cases is the whole cell: :func:`_mhsa_cell` fills one part of a correct cell with a wrong or
different piece. Mistakes left out on purpose: forgetting ``eval()`` leaves dropout on, whose random
output no mutant can reproduce (the checks report a plain difference); a mask that is not a buffer
but a plain attribute computes the same numbers.
"""

_MHSA_PARTS = {
    "mask": "torch.ones(context_length, context_length, dtype=torch.bool).tril()",
    "split": "x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)",
    "scores": "queries @ keys.transpose(-2, -1)",
    "scale": "scores = scores / math.sqrt(self.d_head)",
    "causal": "self.causal",
    "masking": "scores = scores.masked_fill(~self.mask[:tokens, :tokens], float('-inf'))",
    "softmax": "weights = torch.softmax(scores, dim=-1)",
    "after": "",
    "combine": "context.transpose(1, 2).reshape(batch, tokens, self.n_heads * self.d_head)",
    "project": "self.w_out(context)",
    "load": "linear.weight.copy_(w.T)",
}

_MHSA_TEMPLATE = """
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.d_out = n_heads, d_out // n_heads, d_out
        self.causal, self.scale = causal, scale
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", <<mask>>)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape

        def split(x):
            return <<split>>

        queries, keys, values = split(self.w_query(inputs)), split(self.w_key(inputs)), split(self.w_value(inputs))
        scores = <<scores>>
        if self.scale:
            <<scale>>
        if <<causal>>:
            <<masking>>
        <<softmax>>
        <<after>>
        self.last_weights = weights.detach()
        context = self.dropout(weights) @ values
        context = <<combine>>
        return <<project>>


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[-2], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            <<load>>
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
"""


def _mhsa_cell(**parts) -> str:
    """The correct cell with some of its parts replaced (see ``_MHSA_PARTS``)."""
    source = _MHSA_TEMPLATE
    for name, default in _MHSA_PARTS.items():
        source = source.replace(f"<<{name}>>", parts.get(name, default))
    return source.replace("        \n", "")  # an empty part leaves no blank line with spaces


MISTAKES = {
    "mhsa_forward": {
        "linear_weight_not_transposed": _mhsa_cell(load="linear.weight.copy_(w)"),
        "causal_flag_ignored": _mhsa_cell(causal="True"),
        "causal_mask_upper": _mhsa_cell(mask="torch.ones(context_length, context_length, dtype=torch.bool).triu()"),
        "causal_mask_off_by_one": _mhsa_cell(
            mask="torch.ones(context_length, context_length, dtype=torch.bool).tril(-1)"),
        "mask_wrong_sign": _mhsa_cell(
            masking="scores = scores.masked_fill(self.mask[:tokens, :tokens], float('-inf'))"),
        "mask_with_zero": _mhsa_cell(masking="scores = scores.masked_fill(~self.mask[:tokens, :tokens], 0.0)"),
        "mask_after_softmax": _mhsa_cell(
            masking="pass",
            after="weights = weights.masked_fill(~self.mask[:tokens, :tokens], 0.0) if self.causal else weights"),
        "no_scaling": _mhsa_cell(scale="pass"),
        "scale_by_sqrt_d_model": _mhsa_cell(scale="scores = scores / math.sqrt(self.d_out)"),
        "softmax_wrong_axis": _mhsa_cell(softmax="weights = torch.softmax(scores, dim=-2)"),
        "softmax_no_max_subtraction": _mhsa_cell(
            softmax="weights = torch.exp(scores) / torch.exp(scores).sum(dim=-1, keepdim=True)"),
        "keys_times_queries": _mhsa_cell(scores="keys @ queries.transpose(-2, -1)"),
        "heads_reshape_without_transpose": _mhsa_cell(
            split="x.reshape(batch, self.n_heads, tokens, self.d_head)",
            combine="context.reshape(batch, tokens, self.n_heads * self.d_head)"),
        "heads_interleaved": _mhsa_cell(
            split="x.view(batch, tokens, self.d_head, self.n_heads).permute(0, 3, 1, 2)",
            combine="context.permute(0, 2, 3, 1).reshape(batch, tokens, self.n_heads * self.d_head)"),
        "missing_output_projection": _mhsa_cell(project="context"),
        "returns_weights": _mhsa_cell(project="weights"),
    },
    "sinusoidal_encoding": {
        "sinusoid_halves_not_interleaved": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequencies = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    angles = positions * frequencies
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)
""",
        "sinusoid_wrong_exponent": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    columns = torch.arange(d_model, dtype=torch.float32)
    angles = positions / 10000.0 ** (columns / d_model)  # (positions, d_model): one frequency per column
    encoding = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles[:, 1::2])
    return encoding
""",
        "sin_cos_swapped": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    frequencies = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.cos(positions * frequencies)
    encoding[:, 1::2] = torch.sin(positions * frequencies)
    return encoding
""",
        "positions_from_one": """
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    frequencies = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(positions * frequencies)
    encoding[:, 1::2] = torch.cos(positions * frequencies)
    return encoding
""",
    },
    "rotary_embedding": {
        "rope_rotation_wrong_direction": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * torch.cos(angles) + odd * torch.sin(angles)
    out[..., 1::2] = -even * torch.sin(angles) + odd * torch.cos(angles)
    return out
""",
        "rope_halves_instead_of_pairs": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    first, second = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([first * torch.cos(angles) - second * torch.sin(angles),
                      first * torch.sin(angles) + second * torch.cos(angles)], dim=-1)
""",
        "sinusoid_wrong_exponent": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * torch.cos(angles) - odd * torch.sin(angles)
    out[..., 1::2] = even * torch.sin(angles) + odd * torch.cos(angles)
    return out
""",
        "rope_ignores_positions": """
def rotary_embedding(x, positions):
    d, tokens = x.shape[-1], x.shape[-2]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.arange(tokens, dtype=x.dtype)[:, None] * theta
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * torch.cos(angles) - odd * torch.sin(angles)
    out[..., 1::2] = even * torch.sin(angles) + odd * torch.cos(angles)
    return out
""",
        "changes_inputs_in_place": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    even, odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = even * torch.cos(angles) - odd * torch.sin(angles)
    x[..., 1::2] = even * torch.sin(angles) + odd * torch.cos(angles)
    return x
""",
    },
    "kv_cache_step": {
        "kv_cache_new_tokens_missing": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    scores = queries @ cached_keys.transpose(-2, -1) / math.sqrt(cached_keys.shape[-1])
    return torch.softmax(scores, dim=-1) @ cached_values
""",
        "kv_cache_ignored": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_new = queries.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    scores = scores.masked_fill(~torch.ones(n_new, n_new, dtype=torch.bool).tril(), float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
""",
        "kv_cache_wrong_order": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([keys, cached_keys], dim=-2)
    all_values = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ all_values
""",
        "kv_cache_mask_not_shifted": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, is_causal=True)
""",
        "kv_cache_mask_missing": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores, dim=-1) @ all_values
""",
        "causal_mask_off_by_one": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_cached = cached_keys.shape[-2]
    blocked = torch.ones(queries.shape[-2], all_keys.shape[-2], dtype=torch.bool).triu(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores.masked_fill(blocked, float("-inf")), dim=-1) @ all_values
""",
        "causal_mask_upper": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_cached = cached_keys.shape[-2]
    allowed = torch.ones(queries.shape[-2], all_keys.shape[-2], dtype=torch.bool).triu(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ all_values
""",
        "mask_after_softmax": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    weights = torch.softmax(queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1]), dim=-1)
    return (weights * allowed) @ all_values
""",
        "mask_wrong_sign": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores.masked_fill(allowed, float("-inf")), dim=-1) @ all_values
""",
        "mask_with_zero": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores * allowed, dim=-1) @ all_values
""",
        "no_scaling": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = (queries @ all_keys.transpose(-2, -1)).masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
""",
        "scale_by_sqrt_tokens": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(n_all)
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ all_values
""",
        "softmax_wrong_axis": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-2) @ all_values
""",
        "returns_weights": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
""",
    },
}

VARIANTS = {
    "mhsa_forward": {
        "seed_style_mask": _mhsa_cell(
            mask="torch.triu(torch.ones(context_length, context_length), diagonal=1)",
            masking="scores = scores.masked_fill(self.mask.bool()[:tokens, :tokens], -torch.inf)"),
        "einsum_and_sdpa_free": _mhsa_cell(
            scores="torch.einsum('bhqd,bhkd->bhqk', queries, keys)",
            combine="torch.einsum('bhtd->bthd', context).reshape(batch, tokens, -1)"),
        "where_instead_of_masked_fill": _mhsa_cell(
            masking="scores = torch.where(self.mask[:tokens, :tokens], scores, "
                    "torch.full_like(scores, float('-inf')))"),
        "scale_queries_first": _mhsa_cell(
            scores="(queries / math.sqrt(self.d_head)) @ keys.transpose(-2, -1)", scale="pass"),
        "parameters_assigned": _mhsa_cell(load="linear.weight = nn.Parameter(w.T.contiguous())"),
        "state_dict": """
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0
        self.n_heads, self.causal, self.scale = n_heads, causal, scale
        self.w_query, self.w_key, self.w_value = (nn.Linear(d_in, d_out, bias=False) for _ in range(3))
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length)).bool())

    def forward(self, inputs):
        b, t, _ = inputs.shape
        heads = [y.unflatten(-1, (self.n_heads, -1)).transpose(1, 2)
                 for y in (self.w_query(inputs), self.w_key(inputs), self.w_value(inputs))]
        q, k, v = heads  # (b, heads, t, d_head)
        scores = q @ k.mT
        if self.scale:
            scores = scores * k.shape[-1] ** -0.5
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t].logical_not(), -math.inf)
        weights = scores.softmax(-1)
        self.last_weights = weights.detach()
        return self.w_out((self.dropout(weights) @ v).transpose(1, 2).flatten(-2))


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1],
                                   dropout=0.5, causal=causal).to(inputs.dtype)
    state = {"w_query.weight": w_query.T, "w_key.weight": w_key.T, "w_value.weight": w_value.T,
             "w_out.weight": w_out.T, "mask": layer.mask}
    layer.load_state_dict(state)
    return layer.eval()(inputs).detach()
""",
    },
    "sinusoidal_encoding": {
        "d2l_style": """
def sinusoidal_encoding(n_positions, d_model):
    encoding = torch.zeros((n_positions, d_model))
    X = torch.arange(n_positions, dtype=torch.float32).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    encoding[:, 0::2] = torch.sin(X)
    encoding[:, 1::2] = torch.cos(X)
    return encoding
""",
        "exp_log_float32": """
def sinusoidal_encoding(n_positions, d_model):
    position = torch.arange(n_positions).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(position * div_term)
    encoding[:, 1::2] = torch.cos(position * div_term)
    return encoding
""",
        "stack_and_flatten": """
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)
    w = 1.0 / 10000 ** (torch.arange(d_model // 2, dtype=torch.float32) * 2 / d_model)
    angles = torch.outer(t, w)
    return torch.stack([angles.sin(), angles.cos()], dim=-1).flatten(-2)
""",
        # computed in float64 with NumPy, returned as the float32 tensor the exercise asks for
        "numpy_then_float32": """
def sinusoidal_encoding(n_positions, d_model):
    angles = np.arange(n_positions)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    encoding = np.empty((n_positions, d_model))
    encoding[:, 0::2], encoding[:, 1::2] = np.sin(angles), np.cos(angles)
    return torch.from_numpy(encoding).float()
""",
    },
    "rotary_embedding": {
        "complex_numbers": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d / 2)
    pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], d // 2, 2).contiguous())
    turned = pairs * torch.polar(torch.ones_like(angles), angles)
    return torch.view_as_real(turned).reshape(x.shape)
""",
        "stack_and_flatten": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=x.dtype) / d))
    angles = torch.outer(positions.to(x.dtype), theta)
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., ::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
""",
        "rotate_half_trick": """
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = (positions.to(x.dtype)[:, None] * theta).repeat_interleave(2, dim=-1)  # (tokens, d)
    partner = torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1).flatten(-2)  # (-x1, x0, -x3, x2, ...)
    return x * angles.cos() + partner * angles.sin()
""",
    },
    "kv_cache_step": {
        "sdpa_with_mask": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_cached, n_new = cached_keys.shape[-2], queries.shape[-2]
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, attn_mask=allowed)
""",
        "arange_mask_and_einsum": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), -2)
    v = torch.cat((cached_values, values), -2)
    n_cached = cached_keys.size(-2)
    positions = torch.arange(queries.size(-2))[:, None] + n_cached  # (n_new, 1)
    allowed = torch.arange(k.size(-2))[None, :] <= positions  # (n_new, n_all)
    scores = torch.einsum("...qd,...kd->...qk", queries, k) * keys.size(-1) ** -0.5
    scores = torch.where(allowed, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    return torch.einsum("...qk,...kv->...qv", scores.softmax(-1), v)
""",
        "cache_open_then_square_mask": """
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_cached, n_new = cached_keys.shape[-2], queries.shape[-2]
    allowed = torch.cat([torch.ones(n_new, n_cached, dtype=torch.bool),
                         torch.ones(n_new, n_new, dtype=torch.bool).tril()], dim=-1)
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    scores = queries @ all_keys.mT / math.sqrt(queries.shape[-1])
    weights = torch.softmax(scores.masked_fill(allowed.logical_not(), -math.inf), dim=-1)
    return weights @ torch.cat([cached_values, values], dim=-2)
""",
    },
}

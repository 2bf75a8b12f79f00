"""Blind set 2, notebook 07: Trainable attention, positions and a key-value cache (PyTorch). Written from notebooks/07_trainable_attention.ipynb only."""

MISTAKES = {
    "mhsa_forward": {
        "weights_not_transposed": (["transpose", ".t", "(out_features, in_features)", "out, in"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

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

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w))
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "no_eval_dropout_active": (["eval", "dropout", "train mode", "training"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

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

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    with torch.no_grad():
        return layer(inputs)
'''),
        "mask_convention_inverted": (["convention", "invert", "~", "allowed"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

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

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "scale_sqrt_d_out": (["d_head", "sqrt", "scale", "d_out"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

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

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.n_heads * self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "heads_split_without_transpose": (["transpose", "split", "heads", "view"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

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

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, self.n_heads, tokens, self.d_head)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "causal_flag_ignored": (["causal", "mask", "future"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_out // n_heads
        self.causal = False
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "no_cast_to_input_dtype": (["dtype", "float64", ".to(", "double"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

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

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
    },
    "sinusoidal_encoding": {
        "frequency_per_column": (["pair", "2i", "column index", "same frequency", "same angle"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    j = torch.arange(d_model, dtype=torch.float64)  # column index
    angles = t / 10000 ** (j / d_model)  # (positions, d_model)
    P = torch.where(j % 2 == 0, torch.sin(angles), torch.cos(angles))
    return P.float()
'''),
        "sin_cos_swapped": (["sine", "cosine", "even", "odd", "swapped"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 2i
    angles = t / 10000 ** (i / d_model)  # (positions, d_model / 2)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.cos(angles)
    P[:, 1::2] = torch.sin(angles)
    return P.float()
'''),
        "float64_result": (["float32", "dtype", ".float()"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 2i
    angles = t / 10000 ** (i / d_model)  # (positions, d_model / 2)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P
'''),
        "positions_from_one": (["position 0", "t = 0", "from 0", "start"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 2i
    angles = t / 10000 ** (i / d_model)  # (positions, d_model / 2)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P.float()
'''),
        "multiply_instead_of_divide": (["divide", "10000", "frequenc", "exponent"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 2i
    angles = t * 10000 ** (i / d_model)  # (positions, d_model / 2)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P.float()
'''),
        "halves_not_interleaved": (["interleav", "even columns", "odd columns", "concatenat", "halves"], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 2i
    angles = t / 10000 ** (i / d_model)  # (positions, d_model / 2)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, :d_model // 2] = torch.sin(angles)
    P[:, d_model // 2:] = torch.cos(angles)
    return P.float()
'''),
    },
    "rotary_embedding": {
        "rotation_sign_flipped": (["sign", "direction", "-sin", "clockwise", "transpose"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)  # (d/2,)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos + x_odd * sin
    out[..., 1::2] = -x_even * sin + x_odd * cos
    return out
'''),
        "halves_not_neighbours": (["neighbour", "neighbor", "pairs", "2i, 2i+1", "halves"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)  # (d/2,)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., : d // 2], x[..., d // 2:]
    out = torch.empty_like(x)
    out[..., : d // 2] = x_even * cos - x_odd * sin
    out[..., d // 2:] = x_even * sin + x_odd * cos
    return out
'''),
        "ignores_positions": (["positions", "arange", "not necessarily", "position of each token"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)  # (d/2,)
    angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        "theta_i_over_d": (["2i", "frequenc", "theta", "exponent"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-i / d)  # (d/2,)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        "in_place": (["in place", "in-place", "modif", "clone"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)  # (d/2,)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    new_even = x_even * cos - x_odd * sin
    new_odd = x_even * sin + x_odd * cos
    x[..., 0::2] = new_even
    x[..., 1::2] = new_odd
    return x
'''),
    },
    "kv_cache_step": {
        "is_causal_upper_left": (["corner", "lower-right", "lower right", "is_causal", "n_cached"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, k, v, is_causal=True)
'''),
        "no_mask": (["mask", "causal", "future"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "diagonal_off_by_one": (["itself", "diagonal", "off by one", "off-by-one", "own key"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached - 1)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "new_before_cache": (["order", "append", "after the cache", "cat"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([keys, cached_keys], dim=-2)
    all_values = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "scale_sqrt_d_v": (["d_k", "sqrt", "width of the keys"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(values.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "cat_along_first_dim": (["tokens axis", "dim=-2", "cat", "axis"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys])
    all_values = torch.cat([cached_values, values])
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "module_view_transpose": '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

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

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs):
        batch, tokens, _ = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ values).transpose(1, 2).reshape(batch, tokens, -1)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
''',
        "einsum_unflatten": '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        assert d_out % n_heads == 0
        self.n_heads, self.causal = n_heads, causal
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        allowed = torch.ones(context_length, context_length).tril().bool()
        self.register_buffer("mask", allowed)

    def forward(self, inputs):
        n = inputs.shape[1]
        q = self.w_query(inputs).unflatten(-1, (self.n_heads, -1))  # (b, t, h, d)
        k = self.w_key(inputs).unflatten(-1, (self.n_heads, -1))
        v = self.w_value(inputs).unflatten(-1, (self.n_heads, -1))
        scores = torch.einsum("bihd,bjhd->bhij", q, k) / q.shape[-1] ** 0.5
        if self.causal:
            scores = scores.masked_fill(self.mask[:n, :n].logical_not(), -torch.inf)
        weights = self.dropout(scores.softmax(dim=-1))
        context = torch.einsum("bhij,bjhd->bihd", weights, v).flatten(-2)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    x = torch.as_tensor(inputs)
    w = [torch.as_tensor(m, dtype=x.dtype) for m in (w_query, w_key, w_value, w_out)]
    layer = MultiHeadSelfAttention(w[0].shape[0], w[0].shape[1], n_heads, x.shape[1], 0.5, causal).to(x.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w[0].T)
        layer.w_key.weight.copy_(w[1].T)
        layer.w_value.weight.copy_(w[2].T)
        layer.w_out.weight.copy_(w[3].T)
    return layer.eval()(x).detach()
''',
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 2i
    angles = t / 10000 ** (i / d_model)  # (positions, d_model / 2)
    P = torch.zeros(n_positions, d_model, dtype=torch.float64)
    P[:, 0::2] = torch.sin(angles)
    P[:, 1::2] = torch.cos(angles)
    return P.float()
''',
        "loops_math": '''
def sinusoidal_encoding(n_positions, d_model):
    P = torch.empty(n_positions, d_model, dtype=torch.float32)
    for t in range(n_positions):
        for i in range(d_model // 2):
            angle = t / 10000 ** (2 * i / d_model)
            P[t, 2 * i] = math.sin(angle)
            P[t, 2 * i + 1] = math.cos(angle)
    return P
''',
        "stack_interleave": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions).float().unsqueeze(1)
    freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2).float() / d_model)
    angles = t * freq
    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(n_positions, d_model)
''',
    },
    "rotary_embedding": {
        "pairs_even_odd": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)  # (d/2,)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
''',
        "complex_multiply": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = positions.to(torch.float64)[:, None] * theta
    rotation = torch.polar(torch.ones_like(angles), angles)  # (tokens, d/2), complex128
    pairs = torch.view_as_complex(x.to(torch.float64).reshape(*x.shape[:-1], d // 2, 2).contiguous())
    rotated = torch.view_as_real(pairs * rotation).reshape(x.shape)
    return rotated.to(x.dtype)
''',
        "stack_flatten": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    angles = positions[:, None].to(x.dtype) * torch.pow(torch.tensor(10000.0, dtype=x.dtype),
                                                        -torch.arange(0, d, 2, dtype=x.dtype) / d)
    c, s = angles.cos(), angles.sin()
    a, b = x[..., ::2], x[..., 1::2]
    return torch.stack([a * c - b * s, a * s + b * c], dim=-1).flatten(-2)
''',
    },
    "kv_cache_step": {
        "cat_masked_fill": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
        "sdpa_attn_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), -2)
    v = torch.cat((cached_values, values), -2)
    n_cached, n_new = cached_keys.shape[-2], queries.shape[-2]
    i = torch.arange(n_new)[:, None]
    j = torch.arange(n_cached + n_new)[None, :]
    return torch.nn.functional.scaled_dot_product_attention(queries, k, v, attn_mask=j <= n_cached + i)
''',
    },
}

"""Blind set 13, notebook 07: Trainable attention. Written from notebooks/07_trainable_attention.ipynb only."""

MISTAKES = {
    'mhsa_forward': {
        'weights_not_transposed': (['transpose', '.t', '(out, in)', 'nn.linear'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query))
        layer.w_key.weight.copy_(torch.as_tensor(w_key))
        layer.w_value.weight.copy_(torch.as_tensor(w_value))
        layer.w_out.weight.copy_(torch.as_tensor(w_out))
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        'no_eval_dropout': (['eval', 'dropout', 'training mode'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    with torch.no_grad():
        return layer(inputs)
'''),
        'scale_d_out': (['d_head', 'sqrt', 'd_out', 'per head'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_out)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        'heads_view_no_transpose': (['transpose', 'split', 'heads', 'view'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
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
        q = self.w_query(inputs).view(b, self.n_heads, t, self.d_head)
        k = self.w_key(inputs).view(b, self.n_heads, t, self.d_head)
        v = self.w_value(inputs).view(b, self.n_heads, t, self.d_head)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).reshape(b, t, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        'mask_inverted': (['mask', 'future', '~', 'invert'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        'no_w_out': (['w_out', 'output projection'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return context


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
    },
    'sinusoidal_encoding': {
        'pair_index_exponent': (['2i', 'exponent', 'frequency', 'pair'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        'sin_cos_swapped': (['sine', 'cosine', 'even', 'odd'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.cos(angles)
    pe[:, 1::2] = torch.sin(angles)
    return pe
'''),
        'halves_not_interleaved': (['interleav', 'even columns', 'halves', 'concatenat'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe = torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
    return pe
'''),
        'positions_from_one': (['position', 'from 0', 'start', 't = 0'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        'float64_result': (['float32', 'dtype', 'float64'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    two_i = np.arange(0, d_model, 2)
    angles = t / 10000 ** (two_i / d_model)
    pe = np.zeros((n_positions, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return torch.from_numpy(pe)
'''),
    },
    'rotary_embedding': {
        'rotation_sign': (['sign', 'direction', '-sin', 'clockwise'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos + x_odd * sin
    out[..., 1::2] = -x_even * sin + x_odd * cos
    return out
'''),
        'halves_not_pairs': (['pair', 'neighbouring', 'halves', '2i, 2i+1'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., : d // 2], x[..., d // 2:]
    out = torch.empty_like(x)
    out[..., : d // 2] = x_even * cos - x_odd * sin
    out[..., d // 2:] = x_even * sin + x_odd * cos
    return out
'''),
        'ignores_positions': (['positions', 'arange', 'position of each token'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        'theta_missing_two': (['2i', 'exponent', 'frequency', 'theta'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-i / d)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
    },
    'kv_cache_step': {
        'upper_left_mask': (['lower-right', 'corner', 'diagonal', 'offset', 'cached'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril()
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'no_mask': (['causal', 'mask', 'future'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'cache_after_new': (['order', 'append', 'after the cache', 'cat'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([keys, torch.as_tensor(cached_keys)], dim=-2)
    all_values = torch.cat([values, torch.as_tensor(cached_values)], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'cat_first_axis': (['tokens axis', 'dim=-2', 'axis', 'cat'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=0)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=0)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'scale_by_n_keys': (['sqrt', 'd_k', 'scale', 'width'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(all_keys.shape[-2])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
    },
}

VARIANTS = {
    'mhsa_forward': {
        'view_transpose': '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
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
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    layer = layer.to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
''',
        'einsum': '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        assert d_out % n_heads == 0
        self.n_heads = n_heads
        self.causal = causal
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        mask = torch.ones(context_length, context_length).tril().bool()
        self.register_buffer("mask", mask)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        h = self.n_heads
        q = self.w_query(inputs).unflatten(-1, (h, -1))  # (b, t, h, dh)
        k = self.w_key(inputs).unflatten(-1, (h, -1))
        v = self.w_value(inputs).unflatten(-1, (h, -1))
        scores = torch.einsum("bihd,bjhd->bhij", q, k) / math.sqrt(q.shape[-1])
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t].logical_not(), -torch.inf)
        weights = self.dropout(scores.softmax(dim=-1))
        context = torch.einsum("bhij,bjhd->bihd", weights, v).flatten(-2)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    x = torch.as_tensor(inputs)
    layer = MultiHeadSelfAttention(x.shape[-1], w_query.shape[1], n_heads, x.shape[1], dropout=0.5, causal=causal)
    layer.to(x.dtype)
    with torch.no_grad():
        for linear, w in zip((layer.w_query, layer.w_key, layer.w_value, layer.w_out), (w_query, w_key, w_value, w_out)):
            linear.weight.copy_(torch.as_tensor(w).t())
        layer.eval()
        return layer(x)
''',
    },
    'sinusoidal_encoding': {
        'interleave_assign': '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / 10000 ** (two_i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
''',
        'numpy_stack': '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angles = t * np.exp(-np.log(10000.0) * 2 * i / d_model)
    pe = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n_positions, d_model)
    return torch.from_numpy(pe.astype(np.float32))
''',
    },
    'rotary_embedding': {
        'even_odd': '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta  # (tokens, d/2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
''',
        'complex': '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = torch.pow(torch.tensor(10000.0, dtype=x.dtype), -torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype).unsqueeze(-1) * theta
    pairs = x.unflatten(-1, (d // 2, 2))
    c = torch.polar(torch.ones_like(angles), angles)
    rotated = torch.view_as_complex(pairs.contiguous()) * c
    return torch.view_as_real(rotated).flatten(-2).to(x.dtype)
''',
    },
    'kv_cache_step': {
        'cat_mask': '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
        'sdpa_attn_mask': '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    q = torch.as_tensor(queries)
    k = torch.cat((torch.as_tensor(cached_keys), torch.as_tensor(keys)), dim=-2)
    v = torch.cat((torch.as_tensor(cached_values), torch.as_tensor(values)), dim=-2)
    n_cached = k.shape[-2] - q.shape[-2]
    query_pos = torch.arange(q.shape[-2])[:, None] + n_cached
    key_pos = torch.arange(k.shape[-2])[None, :]
    allowed = key_pos <= query_pos
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
''',
    },
}

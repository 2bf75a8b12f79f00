"""Blind set 14, notebook 07: Trainable attention. Written from notebooks/07_trainable_attention.ipynb only."""

MISTAKES = {
    'mhsa_forward': {
        'no_transpose_copy': (['transpose', '.t', '(out, in)'], '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query)
        layer.w_key.weight.copy_(w_key)
        layer.w_value.weight.copy_(w_value)
        layer.w_out.weight.copy_(w_out)
    layer.eval()
    return layer(inputs)
'''),
        'no_eval_dropout': (['eval', 'dropout', 'train'], '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    return layer(inputs)
'''),
        'scale_d_out': (['d_head', 'sqrt', 'd_out'], '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    return layer(inputs)
'''),
        'view_without_transpose': (['transpose', 'heads', 'view'], '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    return layer(inputs)
'''),
        'mask_not_inverted': (['mask', '~', 'future'], '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    return layer(inputs)
'''),
        'no_output_projection': (['w_out', 'output projection', 'w_o'], '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return out


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    return layer(inputs)
'''),
    },
    'sinusoidal_encoding': {
        'sin_cos_swapped': (['sin', 'cos', 'even'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i2 = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (i2 / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.cos(angles)
    pe[:, 1::2] = torch.sin(angles)
    return pe
'''),
        'exponent_column_index': (['2i', 'exponent', 'pair'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i2 = 2 * torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (i2 / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        'multiply_not_divide': (['divide', 'frequency', '10000'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i2 = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t * 10000 ** (i2 / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        'positions_from_one': (['position', 'from 0', 't = 0'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    i2 = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (i2 / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        'float64_numpy': (['float32', 'dtype', 'float64'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    angles = t / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((n_positions, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return torch.from_numpy(pe)
'''),
        'halves_not_interleaved': (['interleav', 'even columns', 'halves'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    angles = t / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)
'''),
    },
    'rotary_embedding': {
        'rotate_halves': (['pairs', 'halves', 'interleav'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
'''),
        'wrong_rotation_sign': (['sign', 'direction', '-sin'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos + x_odd * sin
    out[..., 1::2] = -x_even * sin + x_odd * cos
    return out
'''),
        'ignores_positions': (['positions', 'arange', 'not necessarily'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        'theta_i_over_d': (['2i', 'exponent', 'theta'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d // 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        'inplace': (['in place', 'change', 'clone'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x_even * cos - x_odd * sin
    x[..., 1::2] = x_even * sin + x_odd * cos
    return x
'''),
    },
    'kv_cache_step': {
        'upper_left_mask': (['corner', 'offset', 'cached'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'no_mask': (['causal', 'mask', 'future'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'new_before_cache': (['order', 'append', 'after the cache'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([keys, torch.as_tensor(cached_keys)], dim=-2)
    all_values = torch.cat([values, torch.as_tensor(cached_values)], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'scale_d_v': (['d_k', 'sqrt', 'keys'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(values.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'is_causal_sdpa': (['is_causal', 'corner', 'attn_mask'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    import torch.nn.functional as F
    k = torch.cat([torch.as_tensor(cached_keys), torch.as_tensor(keys)], dim=-2)
    v = torch.cat([torch.as_tensor(cached_values), torch.as_tensor(values)], dim=-2)
    return F.scaled_dot_product_attention(torch.as_tensor(queries), k, v, is_causal=True)
'''),
    },
}

VARIANTS = {
    'mhsa_forward': {
        'view_transpose': '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    return layer(inputs)
''',
        'einsum_where': '''
class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out, self.n_heads, self.d_head, self.causal = d_out, n_heads, d_out // n_heads, causal
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
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.d_head ** -0.5
        if self.causal:
            scores = torch.where(self.mask[:t, :t], scores, torch.full_like(scores, -torch.inf))
        weights = self.dropout(scores.softmax(dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.d_out)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    w_query, w_key, w_value, w_out = (torch.as_tensor(w) for w in (w_query, w_key, w_value, w_out))
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, inputs.shape[1], dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(w_query.T)
        layer.w_key.weight.copy_(w_key.T)
        layer.w_value.weight.copy_(w_value.T)
        layer.w_out.weight.copy_(w_out.T)
    layer.eval()
    return layer(inputs)
''',
    },
    'sinusoidal_encoding': {
        'slices': '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i2 = torch.arange(0, d_model, 2, dtype=torch.float32)[None, :]
    angles = t / 10000 ** (i2 / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
''',
        'numpy_interleave': '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    angles = t * freq
    pe = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n_positions, d_model)
    return torch.tensor(pe, dtype=torch.float32)
''',
    },
    'rotary_embedding': {
        'even_odd': '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
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
    pairs = x.reshape(*x.shape[:-1], d // 2, 2)
    i = torch.arange(d // 2, dtype=torch.float64)
    angles = torch.as_tensor(positions).double()[:, None] * torch.pow(10000.0, -2 * i / d)
    z = torch.view_as_complex(pairs.double().contiguous()) * torch.polar(torch.ones_like(angles), angles)
    return torch.view_as_real(z).reshape(x.shape).to(x.dtype)
''',
    },
    'kv_cache_step': {
        'cat_masked_fill': '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    all_keys = torch.cat([torch.as_tensor(cached_keys), keys], dim=-2)
    all_values = torch.cat([torch.as_tensor(cached_values), values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril(diagonal=n_all - n_new)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
        'sdpa_attn_mask': '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    import torch.nn.functional as F
    q = torch.as_tensor(queries)
    k = torch.cat([torch.as_tensor(cached_keys), torch.as_tensor(keys)], dim=-2)
    v = torch.cat([torch.as_tensor(cached_values), torch.as_tensor(values)], dim=-2)
    n_new, n_all = q.shape[-2], k.shape[-2]
    rows = torch.arange(n_new)[:, None] + (n_all - n_new)
    mask = torch.arange(n_all)[None, :] <= rows
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
''',
    },
}

"""Blind set 15, notebook 07: Trainable attention. Written from notebooks/07_trainable_attention.ipynb only."""

MISTAKES = {
    "mhsa_forward": {
        "no_transpose_weights": (['transpose', '(out, in)', '.t'], '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query))
        layer.w_key.weight.copy_(torch.as_tensor(w_key))
        layer.w_value.weight.copy_(torch.as_tensor(w_value))
        layer.w_out.weight.copy_(torch.as_tensor(w_out))
    layer.eval()
    return layer(inputs)
'''),
        "no_eval_dropout_active": (['eval', 'dropout', 'train'], '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    return layer(inputs)
'''),
        "scale_by_d_out": (['d_head', 'sqrt', 'd_out'], '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.n_heads * self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
'''),
        "mask_upper_triangle": (['upper', 'triu', 'future', 'diagonal'], '''
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
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool)))

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
'''),
        "mask_not_inverted": (['~', 'invert', 'true where', 'allowed'], '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
'''),
        "heads_merged_without_transpose": (['transpose', 'heads', 'side by side'], '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
'''),
        "causal_ignored": (['causal', 'mask', '-inf'], '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
'''),
    },
    "sinusoidal_encoding": {
        "exponent_uses_column_index": (['2i', 'pair', 'column index', 'frequency'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = 2 * torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe.float()
'''),
        "sin_cos_swapped": (['sine', 'cosine', 'even', 'odd'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.cos(angles)
    pe[:, 1::2] = torch.sin(angles)
    return pe.float()
'''),
        "halves_not_interleaved": (['interleav', 'even columns', 'concatenat', 'halves'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe = torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
    return pe.float()
'''),
        "multiply_instead_divide": (['divide', '10000', 'multiply'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t * 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe.float()
'''),
        "returns_float64": (['float32', 'dtype', 'float64'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        "positions_from_one": (['t = 0', 'position 0', 'start', 'from 0'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe.float()
'''),
    },
    "rotary_embedding": {
        "rotation_sign_flipped": (['sign', 'direction', '-sin', 'clockwise'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos + odd * sin
    out[..., 1::2] = -even * sin + odd * cos
    return out
'''),
        "arange_not_positions": (['positions', 'arange', 'given'], '''
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
'''),
        "halves_rotate": (['neighbour', 'pairs', 'halves', '2i, 2i+1'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    first, second = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)
'''),
        "inplace_update": (['in place', 'copy', 'change'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    even, odd = even.clone(), odd.clone()
    out = x
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
'''),
        "theta_wrong_exponent": (['theta', 'exponent', '2i / d', 'frequency'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d // 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
'''),
        "positive_exponent": (['theta', '10000', 'negative exponent'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
'''),
    },
    "kv_cache_step": {
        "upper_left_corner": (['lower-right', 'corner', 'n_cached', 'diagonal'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=0)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "is_causal_sdpa": (['is_causal', 'corner', 'lower-right'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat([cached_keys, keys], dim=-2)
    v = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, k, v, is_causal=True)
'''),
        "no_mask": (['mask', 'causal', 'future'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "cache_after_new": (['order', 'cache first', 'append'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([keys, cached_keys], dim=-2)
    all_values = torch.cat([values, cached_values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "new_keys_only": (['cache', 'cached keys', 'append'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    n_new = queries.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_new, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "not_scaled": (['sqrt', 'scale', 'd_k'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    scores = queries @ all_keys.transpose(-2, -1)
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "module": '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
''',
        "einsum_head_loop": '''
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

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        q = self.split(self.w_query(inputs))
        k = self.split(self.w_key(inputs))
        v = self.split(self.w_value(inputs))
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.d_head ** -0.5
        if self.causal:
            scores = scores.masked_fill(~self.mask[:t, :t], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        out = torch.cat([weights[:, h] @ v[:, h] for h in range(self.n_heads)], dim=-1)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
''',
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe.float()
''',
        "loops": '''
def sinusoidal_encoding(n_positions, d_model):
    pe = np.zeros((n_positions, d_model))
    for t in range(n_positions):
        for i in range(d_model // 2):
            angle = t / 10000 ** (2 * i / d_model)
            pe[t, 2 * i] = math.sin(angle)
            pe[t, 2 * i + 1] = math.cos(angle)
    return torch.tensor(pe, dtype=torch.float32)
''',
    },
    "rotary_embedding": {
        "even_odd": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = positions.to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
''',
        "complex": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=torch.float64)
    angles = positions.to(torch.float64)[:, None] * 10000.0 ** (-2 * i / d)
    rot = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(x.to(torch.float64).reshape(*x.shape[:-1], d // 2, 2).contiguous())
    return torch.view_as_real(pairs * rot).reshape(x.shape).to(x.dtype)
''',
    },
    "kv_cache_step": {
        "masked_fill": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_all - n_new
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool, device=queries.device).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
        "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), dim=-2)
    v = torch.cat((cached_values, values), dim=-2)
    n_new, n_all = queries.shape[-2], k.shape[-2]
    rows = torch.arange(n_new)[:, None] + (n_all - n_new)
    cols = torch.arange(n_all)[None, :]
    return torch.nn.functional.scaled_dot_product_attention(queries, k, v, attn_mask=cols <= rows)
''',
    },
}

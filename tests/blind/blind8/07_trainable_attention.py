"""Blind set 8, notebook 07: Trainable attention, positions, key-value cache. Written from notebooks/07_trainable_attention.ipynb only."""

MISTAKES = {
    "mhsa_forward": {
        "no_transpose_on_copy": (['transpose', '.t', '(out, in)', 'layout'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
        "scale_by_d_out": (['d_head', 'd_out', 'sqrt', 'per head'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_out)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
        "no_eval_dropout_active": (['eval', 'dropout', 'training mode'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
        "mask_inverted": (['invert', '~', 'future', 'true where'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
        "view_without_transpose": (['transpose', 'view', 'columns', 'head h'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, self.n_heads, tokens, self.d_head)
        k = self.w_key(inputs).view(batch, self.n_heads, tokens, self.d_head)
        v = self.w_value(inputs).view(batch, self.n_heads, tokens, self.d_head)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
        "always_causal": (['causal', 'causal=false', 'always'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if True:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
        "dtype_not_matched": (['dtype', 'float64', '.to(', 'double'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    return layer(inputs)
'''),
        "softmax_dim_minus2": (['dim', 'dim=-1', 'keys', 'columns'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-2))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
        "mask_fill_zero": (['-inf', 'zero', 'masked_fill', 'negative infinity'], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], 0.0)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
'''),
    },
    "sinusoidal_encoding": {
        "column_index_exponent": (['2i', 'pair', 'column index', 'exponent'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    j = torch.arange(d_model, dtype=torch.float32)
    angles = t / torch.pow(10000.0, j / d_model)
    pe = torch.where(torch.arange(d_model) % 2 == 0, torch.sin(angles), torch.cos(angles))
    return pe
'''),
        "sin_cos_swapped": (['sin', 'cos', 'even', 'odd'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / torch.pow(10000.0, i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.cos(angles)
    pe[:, 1::2] = torch.sin(angles)
    return pe
'''),
        "float64_result": (['float32', 'dtype', 'float64'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    i = np.arange(0, d_model, 2)
    angles = t / 10000 ** (i / d_model)
    pe = np.zeros((n_positions, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return torch.from_numpy(pe)
'''),
        "multiply_not_divide": (['divide', 'frequency', '10000', 'multiply'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t * torch.pow(10000.0, i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        "positions_from_one": (['t = 0', 'position 0', 'start', 'arange'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / torch.pow(10000.0, i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
'''),
        "halves_not_interleaved": (['interleav', 'even columns', 'odd columns', 'concatenat'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / torch.pow(10000.0, i / d_model)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)
'''),
    },
    "rotary_embedding": {
        "rotation_sign": (['sign', 'direction', '-sin', 'clockwise'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos + x_odd * sin
    out[..., 1::2] = -x_even * sin + x_odd * cos
    return out
'''),
        "halves_not_pairs": (['neighbouring', 'pairs', 'halves', '2i, 2i+1'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
'''),
        "positions_ignored": (['positions', 'arange', 'given positions'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        "theta_exponent_i": (['2i', 'frequency', 'exponent', 'theta'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        "in_place": (['in place', 'clone', 'changes x', 'copy'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (-2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2].clone(), x[..., 1::2].clone()
    x[..., 0::2] = x_even * cos - x_odd * sin
    x[..., 1::2] = x_even * sin + x_odd * cos
    return x
'''),
        "degrees_positive_theta": (['negative', '10000 ** (-2i/d)', 'theta', 'inverse'], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=x.dtype)
    theta = 10000.0 ** (2 * i / d)
    angles = positions.to(x.dtype)[:, None] * theta[None, :]
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
    },
    "kv_cache_step": {
        "upper_left_corner": (['lower-right', 'diagonal=n_cached', 'corner', 'upper-left'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_total = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_total - n_new
    allowed = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=0)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "no_mask": (['causal', 'mask', 'future'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_total = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_total - n_new
    allowed = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "cat_dim0": (['dim', 'tokens axis', 'dim=-2', 'batch'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=0)
    all_values = torch.cat([cached_values, values], dim=0)
    n_new, n_total = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_total - n_new
    allowed = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "new_before_cache": (['order', 'append', 'after the cache', 'prepend'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([keys, cached_keys], dim=-2)
    all_values = torch.cat([values, cached_values], dim=-2)
    n_new, n_total = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_total - n_new
    allowed = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "scale_by_d_v": (['d_k', 'sqrt', "keys' width", 'values'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_total = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_total - n_new
    allowed = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(values.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "mask_fill_zero": (['-inf', 'zero', 'masked_fill', 'negative infinity'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_total = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_total - n_new
    allowed = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, 0.0)
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
        self.d_out = d_out
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
        batch, tokens, _ = inputs.shape
        q = self.w_query(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            scores = scores.masked_fill(~self.mask[:tokens, :tokens], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
    return layer(inputs)
''',
        "einsum_permute": '''
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
        allowed = torch.ones(context_length, context_length).tril().bool()
        self.register_buffer("mask", allowed)

    def forward(self, inputs):
        b, t, _ = inputs.shape
        h = self.n_heads

        def split(x):
            return x.reshape(b, t, h, -1).permute(0, 2, 1, 3)

        q, k, v = split(self.w_query(inputs)), split(self.w_key(inputs)), split(self.w_value(inputs))
        scores = torch.einsum("bhid,bhjd->bhij", q, k) / q.shape[-1] ** 0.5
        if self.causal:
            scores = scores.masked_fill(self.mask[:t, :t].logical_not(), -torch.inf)
        weights = self.dropout(scores.softmax(dim=-1))
        out = torch.einsum("bhij,bhjd->bihd", weights, v).reshape(b, t, -1)
        return self.w_out(out)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    x = torch.as_tensor(inputs)
    layer = MultiHeadSelfAttention(w_query.shape[0], w_query.shape[1], n_heads, x.shape[1], dropout=0.5,
                                   causal=causal).to(x.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight[...] = torch.as_tensor(w, dtype=x.dtype).t()
    return layer.eval()(x).detach()
''',
    },
    "sinusoidal_encoding": {
        "broadcast": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = t / torch.pow(10000.0, i / d_model)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float32)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe
''',
        "loops": '''
def sinusoidal_encoding(n_positions, d_model):
    pe = np.zeros((n_positions, d_model))
    for t in range(n_positions):
        for i in range(d_model // 2):
            angle = t / 10000 ** (2 * i / d_model)
            pe[t, 2 * i] = np.sin(angle)
            pe[t, 2 * i + 1] = np.cos(angle)
    return torch.tensor(pe, dtype=torch.float32)
''',
    },
    "rotary_embedding": {
        "even_odd": '''
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
''',
        "complex": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -torch.arange(0, d, 2, dtype=torch.float64) / d)
    angles = torch.outer(positions.to(torch.float64), theta)
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
    n_new, n_total = queries.shape[-2], all_keys.shape[-2]
    n_cached = n_total - n_new
    allowed = torch.ones(n_new, n_total, dtype=torch.bool).tril(diagonal=n_cached)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
        "sdpa_attn_mask": '''
import torch.nn.functional as F


def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    k = torch.cat((cached_keys, keys), -2)
    v = torch.cat((cached_values, values), -2)
    n_new, n_total = queries.shape[-2], k.shape[-2]
    i = torch.arange(n_new)[:, None]
    j = torch.arange(n_total)[None, :]
    mask = j <= (n_total - n_new) + i
    return F.scaled_dot_product_attention(queries, k, v, attn_mask=mask)
''',
    },
}

"""Blind set 9, notebook 07: Trainable multi-head attention, positions and a key-value cache. Written from notebooks/07_trainable_attention.ipynb only."""

MISTAKES = {
    'mhsa_forward': {
        'weights_not_transposed': (['transpose', '.t', '(out, in)', 'out_features'], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
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
    with torch.no_grad():
        return layer(inputs)
'''),
        'no_eval_dropout_on': (['eval', 'dropout', 'train mode', 'training'], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
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
    with torch.no_grad():
        return layer(inputs)
'''),
        'scale_by_d_out': (['d_head', 'sqrt', 'd_out'], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_out)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
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
    with torch.no_grad():
        return layer(inputs)
'''),
        'mask_fills_allowed': (['invert', '~', 'allowed', 'future'], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
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
    with torch.no_grad():
        return layer(inputs)
'''),
        'causal_flag_ignored': (['causal', 'flag', 'mask'], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if True:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
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
    with torch.no_grad():
        return layer(inputs)
'''),
        'heads_view_without_transpose': (['transpose', 'view', 'heads', 'reshape'], '''
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
        q = self.w_query(inputs).reshape(batch, self.n_heads, tokens, self.d_head)
        k = self.w_key(inputs).reshape(batch, self.n_heads, tokens, self.d_head)
        v = self.w_value(inputs).reshape(batch, self.n_heads, tokens, self.d_head)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        context = (weights @ v).reshape(batch, tokens, self.d_out)
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
        'no_output_projection': (['w_out', 'output projection'], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
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
        'module_not_cast_to_dtype': (['dtype', 'float64', '.to('], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        context = (weights @ v).transpose(1, 2).reshape(batch, tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    if inputs.dtype == torch.float64:
        inputs = inputs.float()
    d_in, d_out = w_query.shape
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, inputs.shape[1], dropout=0.5, causal=causal)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        'softmax_over_queries': (['dim', 'softmax', 'dim=-1', 'over the keys'], '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-2)
        weights = self.dropout(weights)
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
    with torch.no_grad():
        return layer(inputs)
'''),
    },
    'sinusoidal_encoding': {
        'sin_cos_swapped': (['sin', 'cos', 'even', 'odd'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.cos(angles)
    out[:, 1::2] = torch.sin(angles)
    return out.float()
'''),
        'exponent_i_not_2i': (['2i', 'exponent', 'frequency'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out.float()
'''),
        'frequency_per_column': (['pair', 'same frequency', '2i', 'column index'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    j = torch.arange(d_model, dtype=torch.float64)
    angles = t / 10000 ** (j / d_model)
    out = torch.where(j.long() % 2 == 0, torch.sin(angles), torch.cos(angles))
    return out.float()
'''),
        'halves_not_interleaved': (['interleav', 'even columns', 'halves', 'concatenat'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1).float()
'''),
        'float64_result': (['float32', 'dtype'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out
'''),
        'positions_from_one': (['position 0', 't = 0', 'off by one', 'start'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(1, n_positions + 1, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out.float()
'''),
        'multiply_not_divide': (['divide', '10000', 'frequency'], '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t * 10000 ** (i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out.float()
'''),
    },
    'rotary_embedding': {
        'rotation_sign': (['sign', 'direction', '-sin', 'clockwise'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    dtype = x.dtype if x.is_floating_point() else torch.float32
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=dtype) / d)
    angles = positions.to(dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos + x_odd * sin
    out[..., 1::2] = -x_even * sin + x_odd * cos
    return out
'''),
        'half_split_pairs': (['neighbouring', 'pairs', 'half', '2i, 2i+1'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
'''),
        'theta_exponent_i_over_d': (['2i', 'exponent', 'frequency', 'theta'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    dtype = x.dtype if x.is_floating_point() else torch.float32
    theta = 10000.0 ** (-torch.arange(d // 2, dtype=dtype) / d)
    angles = positions.to(dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        'ignores_positions': (['positions', 'arange', 'given positions'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    dtype = x.dtype if x.is_floating_point() else torch.float32
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=dtype) / d)
    angles = torch.arange(x.shape[-2], dtype=dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
        'modifies_x_in_place': (['in place', 'clone', 'modif', 'copy'], '''
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
        'cos_sin_swapped': (['cos', 'sin', 'swapped'], '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    dtype = x.dtype if x.is_floating_point() else torch.float32
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=dtype) / d)
    angles = positions.to(dtype)[:, None] * theta
    cos, sin = torch.sin(angles), torch.cos(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
'''),
    },
    'kv_cache_step': {
        'upper_left_mask': (['lower-right', 'diagonal=n_cached', 'corner', 'upper-left'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    cached_keys, cached_values = torch.as_tensor(cached_keys), torch.as_tensor(cached_values)
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'no_mask': (['causal', 'mask', 'future'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    cached_keys, cached_values = torch.as_tensor(cached_keys), torch.as_tensor(cached_values)
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'cache_ignored': (['cache', 'cached_keys', 'append', 'torch.cat'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_new = queries.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_new, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'new_before_cache': (['order', 'cache first', 'order of the text'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    cached_keys, cached_values = torch.as_tensor(cached_keys), torch.as_tensor(cached_values)
    all_keys = torch.cat([keys, cached_keys], dim=-2)
    all_values = torch.cat([values, cached_values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'scale_by_d_v': (['d_k', 'sqrt', 'd_v'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    cached_keys, cached_values = torch.as_tensor(cached_keys), torch.as_tensor(cached_values)
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(values.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        'sdpa_is_causal': (['is_causal', 'upper-left', 'lower-right', 'attn_mask'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    q = torch.as_tensor(queries)
    k = torch.cat([torch.as_tensor(cached_keys), torch.as_tensor(keys)], dim=-2)
    v = torch.cat([torch.as_tensor(cached_values), torch.as_tensor(values)], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
'''),
        'mask_off_by_one': (['off by one', 'diagonal', 'itself', 'future'], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    cached_keys, cached_values = torch.as_tensor(cached_keys), torch.as_tensor(cached_values)
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached + 1)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
    },
}

VARIANTS = {
    'mhsa_forward': {
        'reshape_transpose': '''
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
        q = self.w_query(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:tokens, :tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
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
    with torch.no_grad():
        return layer(inputs)
''',
        'einsum_load_state_dict': '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention with einsum and an additive mask."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False):
        super().__init__()
        self.n_heads = n_heads
        self.causal = causal
        self.w_query = nn.Linear(d_in, d_out, bias=False)
        self.w_key = nn.Linear(d_in, d_out, bias=False)
        self.w_value = nn.Linear(d_in, d_out, bias=False)
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        future = torch.triu(torch.ones(context_length, context_length), diagonal=1).bool()
        self.register_buffer("mask", ~future)

    def forward(self, inputs):
        q = self.w_query(inputs).unflatten(-1, (self.n_heads, -1))
        k = self.w_key(inputs).unflatten(-1, (self.n_heads, -1))
        v = self.w_value(inputs).unflatten(-1, (self.n_heads, -1))
        d_head = q.shape[-1]
        scores = torch.einsum("bihd,bjhd->bhij", q, k) / d_head ** 0.5
        if self.causal:
            n = inputs.shape[1]
            scores = scores.masked_fill(~self.mask[:n, :n], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.einsum("bhij,bjhd->bihd", weights, v).flatten(-2)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    x = torch.as_tensor(inputs)
    w = [torch.as_tensor(m).to(x.dtype) for m in (w_query, w_key, w_value, w_out)]
    layer = MultiHeadSelfAttention(w[0].shape[0], w[0].shape[1], n_heads, x.shape[1], dropout=0.5,
                                   causal=causal).to(x.dtype)
    state = {"w_query.weight": w[0].T, "w_key.weight": w[1].T, "w_value.weight": w[2].T,
             "w_out.weight": w[3].T, "mask": layer.mask}
    with torch.no_grad():
        layer.load_state_dict({name: t.contiguous() for name, t in state.items()})
    return layer.eval()(x).detach()
''',
    },
    'sinusoidal_encoding': {
        'broadcast_slices': '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64)[:, None]
    i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angles = t / 10000 ** (i / d_model)
    out = torch.zeros(n_positions, d_model, dtype=torch.float64)
    out[:, 0::2] = torch.sin(angles)
    out[:, 1::2] = torch.cos(angles)
    return out.float()
''',
        'numpy_stack': '''
def sinusoidal_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    freqs = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    angles = t * freqs
    table = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(n_positions, d_model)
    return torch.from_numpy(table.astype(np.float32))
''',
        'double_loop': '''
def sinusoidal_encoding(n_positions, d_model):
    table = torch.empty(n_positions, d_model, dtype=torch.float32)
    for t in range(n_positions):
        for i in range(d_model // 2):
            angle = t / 10000 ** (2 * i / d_model)
            table[t, 2 * i] = math.sin(angle)
            table[t, 2 * i + 1] = math.cos(angle)
    return table
''',
    },
    'rotary_embedding': {
        'even_odd_slices': '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    positions = torch.as_tensor(positions)
    d = x.shape[-1]
    dtype = x.dtype if x.is_floating_point() else torch.float32
    theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=dtype) / d)
    angles = positions.to(dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    x_even, x_odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = x_even * cos - x_odd * sin
    out[..., 1::2] = x_even * sin + x_odd * cos
    return out
''',
        'complex_polar': '''
def rotary_embedding(x, positions):
    x = torch.as_tensor(x)
    d = x.shape[-1]
    theta = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -torch.arange(d // 2, dtype=torch.float64) * 2 / d)
    angles = torch.as_tensor(positions).double()[:, None] * theta
    rot = torch.polar(torch.ones_like(angles), angles)
    pairs = torch.view_as_complex(x.double().reshape(*x.shape[:-1], d // 2, 2).contiguous())
    rotated = torch.view_as_real(pairs * rot).reshape(x.shape)
    return rotated.to(x.dtype)
''',
    },
    'kv_cache_step': {
        'cat_tril_masked_fill': '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    cached_keys, cached_values = torch.as_tensor(cached_keys), torch.as_tensor(cached_values)
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
        'sdpa_explicit_mask': '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    q = torch.as_tensor(queries)
    k = torch.cat([torch.as_tensor(cached_keys), torch.as_tensor(keys)], dim=-2)
    v = torch.cat([torch.as_tensor(cached_values), torch.as_tensor(values)], dim=-2)
    n_new, n_total = q.shape[-2], k.shape[-2]
    rows = torch.arange(n_new)[:, None] + (n_total - n_new)
    cols = torch.arange(n_total)[None, :]
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=cols <= rows)
''',
    },
}

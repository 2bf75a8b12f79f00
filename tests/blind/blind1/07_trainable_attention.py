"""Blind set 1, notebook 07: Attention that learns, and knows where words are (PyTorch). Written from notebooks/07_trainable_attention.ipynb only."""

MISTAKES = {
    "mhsa_forward": {
        "no_weight_transpose": (["transpose", ".t", "(out, in)", "out_features"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w))
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "forgot_eval": (["eval", "dropout", "train mode"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    with torch.no_grad():
        return layer(inputs)
'''),
        "mask_inverted": (["inverted", "true where", "allowed", "blocked", "~"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "scale_by_d_out": (["d_head", "per head", "head width", "sqrt(d_out)"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_out)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "no_dtype_cast": (["dtype", "float64", ".to(inputs.dtype)", "double"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "combine_without_transpose": (["transpose", "heads back", "contiguous", "scrambl"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "split_without_transpose": (["transpose", "view", "split_heads", "scrambl"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, self.n_heads, n_tokens, self.d_head)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "no_output_projection": (["w_out", "output projection", "w_o"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return context


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
'''),
        "softmax_over_queries": (["dim=-1", "last dimension", "over the keys", "rows"], '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-2)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
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
        "exponent_i_not_2i": (["2i", "pair index", "exponent", "column pair"], '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    i = torch.arange(d_model // 2, dtype=torch.float32)
    angles = positions / 10000 ** (i / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
'''),
        "halves_not_interleaved": (["interleav", "even columns", "odd columns", "concatenat"], '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = positions / 10000 ** (two_i / d_model)
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)
'''),
        "sin_cos_swapped": (["sine", "cosine", "swap", "sines in the even"], '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = positions / 10000 ** (two_i / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.cos(angles)
    encoding[:, 1::2] = torch.sin(angles)
    return encoding
'''),
        "float64_from_numpy": (["float32", "dtype", "float64"], '''
def sinusoidal_encoding(n_positions, d_model):
    positions = np.arange(n_positions)[:, None]
    two_i = np.arange(0, d_model, 2)
    angles = positions / 10000 ** (two_i / d_model)
    encoding = np.zeros((n_positions, d_model))
    encoding[:, 0::2] = np.sin(angles)
    encoding[:, 1::2] = np.cos(angles)
    return torch.from_numpy(encoding)
'''),
        "positions_from_one": (["position 0", "from 0", "start at 0", "t = 0"], '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(1, n_positions + 1, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = positions / 10000 ** (two_i / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
'''),
        "multiplies_by_frequency_power": (["10000^{2i/d}", "frequenc", "multipl", "instead of dividing"], '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)
    angles = positions * 10000 ** (two_i / d_model)
    encoding = torch.zeros(n_positions, d_model)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
'''),
    },
    "rotary_embedding": {
        "rotate_half_pairs": (["neighbouring", "(2i, 2i+1)", "rotate_half", "interleav", "halves"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    first, second = x[..., : d // 2], x[..., d // 2:]
    return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)
'''),
        "rotation_sign_flipped": (["sign", "direction", "-sin", "clockwise"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos + odd * sin
    out[..., 1::2] = -even * sin + odd * cos
    return out
'''),
        "ignores_positions": (["positions[t]", "not necessarily", "given positions", "token index"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.arange(x.shape[-2], dtype=x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
'''),
        "theta_with_i_not_2i": (["2i", "exponent", "theta", "frequenc"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000 ** (-torch.arange(d // 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
'''),
        "writes_into_x": (["in place", "in-place", "clone", "modif"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta
    cos, sin = torch.cos(angles), torch.sin(angles)
    new_even = x[..., 0::2] * cos - x[..., 1::2] * sin
    new_odd = x[..., 0::2] * sin + x[..., 1::2] * cos
    x[..., 0::2] = new_even
    x[..., 1::2] = new_odd
    return x
'''),
        "float64_result": (["dtype", "dtype of x", "float32"], '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angles = torch.from_numpy(np.asarray(positions)[:, None] * theta)  # float64
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    rotated_even = even * cos - odd * sin
    rotated_odd = even * sin + odd * cos
    return torch.stack([rotated_even, rotated_odd], dim=-1).flatten(-2)
'''),
    },
    "kv_cache_step": {
        "upper_left_mask": (["lower-right", "n_cached", "diagonal=n_cached", "upper-left"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_all = queries.shape[-2], all_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_all, dtype=torch.bool).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "no_causal_mask": (["causal", "future", "among themselves", "no mask"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "new_before_cache": (["append", "after the cache", "order of the text", "cache first"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([keys, cached_keys], dim=-2)
    all_values = torch.cat([values, cached_values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "cat_on_dim0": (["dim=-2", "tokens axis", "leading", "dim=0"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=0)
    all_values = torch.cat([cached_values, values], dim=0)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
'''),
        "sdpa_is_causal": (["is_causal", "upper-left", "explicit attn_mask", "lower-right"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, is_causal=True)
'''),
        "sdpa_mask_blocked_convention": (["true where", "allowed", "inverted", "convention"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)
    all_values = torch.cat([cached_values, values], dim=-2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    future = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).triu(diagonal=n_cached + 1)
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, attn_mask=future)
'''),
        "cache_only": (["append", "new keys", "own key", "itself"], '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    scores = queries @ cached_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    return torch.softmax(scores, dim=-1) @ cached_values
'''),
    },
}

VARIANTS = {
    "mhsa_forward": {
        "view_transpose": '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in, d_out, n_heads, context_length, dropout=0.0, causal=False, scale=True):
        super().__init__()
        assert d_out % n_heads == 0, "n_heads must divide d_out"
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
        self.register_buffer("mask", torch.tril(torch.ones(context_length, context_length, dtype=torch.bool)))
        self.last_weights = None

    def forward(self, inputs):
        batch, n_tokens, _ = inputs.shape

        def heads(x):  # (batch, tokens, d_out) -> (batch, heads, tokens, d_head)
            return x.view(batch, n_tokens, self.n_heads, self.d_head).transpose(1, 2)

        queries = heads(self.w_query(inputs))
        keys = heads(self.w_key(inputs))
        values = heads(self.w_value(inputs))
        scores = queries @ keys.transpose(-2, -1)  # (batch, heads, tokens, tokens)
        if self.scale:
            scores = scores / math.sqrt(self.d_head)
        if self.causal:
            allowed = self.mask[:n_tokens, :n_tokens]
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2).reshape(batch, n_tokens, self.d_out)
        return self.w_out(context)


def mhsa_forward(inputs, w_query, w_key, w_value, w_out, n_heads, causal):
    inputs = torch.as_tensor(inputs)
    _, n_tokens, d_in = inputs.shape
    d_out = w_query.shape[1]
    layer = MultiHeadSelfAttention(d_in, d_out, n_heads, context_length=n_tokens, dropout=0.5,
                                   causal=causal).to(inputs.dtype)
    with torch.no_grad():
        for linear, w in ((layer.w_query, w_query), (layer.w_key, w_key), (layer.w_value, w_value),
                          (layer.w_out, w_out)):
            linear.weight.copy_(torch.as_tensor(w).T)
    layer.eval()
    with torch.no_grad():
        return layer(inputs)
''',
        "unflatten_sdpa_free": '''
class MultiHeadSelfAttention(nn.Module):
    """Multi-head self-attention: (batch, tokens, d_in) -> (batch, tokens, d_out)."""

    def __init__(self, d_in: int, d_out: int, n_heads: int, context_length: int, dropout: float = 0.0,
                 causal: bool = False, scale: bool = True):
        super().__init__()
        self.n_heads = n_heads
        self.causal = causal
        self.scale = scale
        self.w_query, self.w_key, self.w_value = (nn.Linear(d_in, d_out, bias=False) for _ in range(3))
        self.w_out = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        blocked = torch.triu(torch.ones(context_length, context_length), diagonal=1).bool()
        self.register_buffer("mask", ~blocked)
        self.last_weights = None

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        n_tokens = inputs.shape[-2]
        q = self.w_query(inputs).unflatten(-1, (self.n_heads, -1)).transpose(-3, -2)
        k = self.w_key(inputs).unflatten(-1, (self.n_heads, -1)).transpose(-3, -2)
        v = self.w_value(inputs).unflatten(-1, (self.n_heads, -1)).transpose(-3, -2)
        scores = torch.einsum("bhid,bhjd->bhij", q, k)
        if self.scale:
            scores = scores * q.shape[-1] ** -0.5
        if self.causal:
            scores = scores.masked_fill(~self.mask[:n_tokens, :n_tokens], -torch.inf)
        weights = torch.softmax(scores, dim=-1)
        self.last_weights = weights.detach()
        context = torch.einsum("bhij,bhjd->bhid", self.dropout(weights), v)
        return self.w_out(context.transpose(-3, -2).flatten(-2))


def mhsa_forward(inputs: torch.Tensor, w_query: torch.Tensor, w_key: torch.Tensor, w_value: torch.Tensor,
                 w_out: torch.Tensor, n_heads: int, causal: bool) -> torch.Tensor:
    inputs = torch.as_tensor(inputs)
    layer = MultiHeadSelfAttention(inputs.shape[-1], w_query.shape[1], n_heads, inputs.shape[-2],
                                   dropout=0.5, causal=causal).to(inputs.dtype)
    with torch.no_grad():
        layer.w_query.weight.copy_(torch.as_tensor(w_query).T)
        layer.w_key.weight.copy_(torch.as_tensor(w_key).T)
        layer.w_value.weight.copy_(torch.as_tensor(w_value).T)
        layer.w_out.weight.copy_(torch.as_tensor(w_out).T)
    return layer.eval()(inputs)
''',
    },
    "sinusoidal_encoding": {
        "broadcast_slices": '''
def sinusoidal_encoding(n_positions, d_model):
    positions = torch.arange(n_positions, dtype=torch.float32)[:, None]   # (positions, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float32)              # (d_model / 2,)
    angles = positions / 10000 ** (two_i / d_model)                       # (positions, d_model / 2)
    encoding = torch.zeros(n_positions, d_model, dtype=torch.float32)
    encoding[:, 0::2] = torch.sin(angles)
    encoding[:, 1::2] = torch.cos(angles)
    return encoding
''',
        "stack_interleave_float64": '''
def sinusoidal_encoding(n_positions, d_model):
    t = torch.arange(n_positions, dtype=torch.float64).unsqueeze(1)
    inv_freq = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angles = t * inv_freq
    return torch.stack([angles.sin(), angles.cos()], dim=-1).reshape(n_positions, d_model).float()
''',
    },
    "rotary_embedding": {
        "even_odd_slices": '''
def rotary_embedding(x, positions):
    d = x.shape[-1]
    theta = 10000 ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)            # (d / 2,)
    angles = torch.as_tensor(positions).to(x.dtype)[:, None] * theta      # (tokens, d / 2)
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = torch.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out
''',
        "stack_and_flatten": '''
def rotary_embedding(x, positions):
    half = x.shape[-1] // 2
    pair = torch.arange(half, dtype=x.dtype)
    theta = torch.pow(torch.tensor(10000.0, dtype=x.dtype), -2 * pair / x.shape[-1])
    angles = torch.as_tensor(positions).to(x.dtype).unsqueeze(-1) * theta       # (tokens, d / 2)
    even, odd = x[..., ::2], x[..., 1::2]
    rotated = torch.stack([even * angles.cos() - odd * angles.sin(),
                           even * angles.sin() + odd * angles.cos()], dim=-1)  # (..., tokens, d / 2, 2)
    return rotated.flatten(-2)
''',
    },
    "kv_cache_step": {
        "masked_fill_tril": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    all_keys = torch.cat([cached_keys, keys], dim=-2)        # (..., n_cached + n_new, d_k)
    all_values = torch.cat([cached_values, values], dim=-2)  # (..., n_cached + n_new, d_v)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    scores = queries @ all_keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_new, n_cached + n_new, dtype=torch.bool).tril(diagonal=n_cached)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ all_values
''',
        "sdpa_explicit_mask": '''
def kv_cache_step(queries, keys, values, cached_keys, cached_values):
    queries, keys, values = (torch.as_tensor(a) for a in (queries, keys, values))
    cached_keys, cached_values = torch.as_tensor(cached_keys), torch.as_tensor(cached_values)
    all_keys = torch.cat((cached_keys, keys), -2)
    all_values = torch.cat((cached_values, values), -2)
    n_new, n_cached = queries.shape[-2], cached_keys.shape[-2]
    key_positions = torch.arange(n_cached + n_new)
    query_positions = n_cached + torch.arange(n_new)
    allowed = key_positions[None, :] <= query_positions[:, None]
    return torch.nn.functional.scaled_dot_product_attention(queries, all_keys, all_values, attn_mask=allowed)
''',
    },
}

"""Blind set 9, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

MISTAKES = {
    'encode': {
        'int32_ids': (['int64', 'dtype', 'long'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
        'returns_list': (['tensor', 'list', 'torch.tensor'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return [index[character] for character in text]


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
        'decode_returns_list': (['str', 'join', 'string'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[int(i)] for i in ids]
'''),
        'ids_from_one': (['place', 'index', 'from 0', 'off by one'], '''
def encode(text, vocabulary):
    index = {character: i + 1 for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i) - 1] for i in ids)
'''),
        'own_sorted_vocabulary': (['vocabulary', 'given vocabulary', 'sorted(set'], '''
def encode(text, vocabulary):
    own = sorted(set(text))
    index = {character: i for i, character in enumerate(own)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
        'decode_joins_with_space': (['join', 'separator', 'space'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return " ".join(vocabulary[int(i)] for i in ids)
'''),
    },
    'block_helpers': {
        'unbiased_variance': (['unbiased', 'd - 1', 'divides by d', 'torch.var'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'eps_outside_sqrt': (['eps', 'inside the square root', 'sqrt'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / (torch.sqrt(variance) + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'norm_wrong_axis': (['last axis', 'dim=-1', 'each vector', 'features'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=0, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=0, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'norm_no_keepdim': (['keepdim', 'broadcast'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1)
    variance = ((x - mean[..., None]) ** 2).mean(dim=-1)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'upper_left_mask': (['lower-right', 'diagonal=n_keys - n_queries', 'corner', 'upper-left'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'no_scale': (['sqrt', 'scale', 'd_k'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1)
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'future_allowed': (['future', 'triu', 'invert'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'keys_dot_T': (['transpose(-2, -1)', '.t', 'last two axes'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.T / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
    },
    'block_forward': {
        'post_ln': (['pre-ln', 'before', 'post-ln', 'order'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        attended, cache = self.attention(x, cache)
        h = layer_norm(x + attended, self.norm_1.weight, self.norm_1.bias)
        out = layer_norm(h + self.mlp(h), self.norm_2.weight, self.norm_2.bias)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
        'norms_swapped': (['norms[0]', 'norm_1', 'order', 'swapped'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[1, 0])
        block.norm_1.bias.copy_(nm[1, 1])
        block.norm_2.weight.copy_(nm[0, 0])
        block.norm_2.bias.copy_(nm[0, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
        'mlp_not_transposed': (['transpose', '.t', '(out, in)'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).reshape(block.mlp[0].weight.shape))
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).reshape(block.mlp[2].weight.shape))
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
        'attention_not_transposed': (['transpose', '.t', '(out, in)', 'w_query'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0])
        block.attention.w_key.weight.copy_(aw[1])
        block.attention.w_value.weight.copy_(aw[2])
        block.attention.w_out.weight.copy_(aw[3])
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
        'no_second_residual': (['residual', 'h +', 'second', 'mlp'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
        'relu_mlp': (['gelu', 'relu'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
        'scale_flag_inverted': (['scale', 'sqrt', 'd_head'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
        'heads_without_transpose': (['transpose', 'heads', 'reshape', 'columns'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, self.n_heads, tokens, self.d_head)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
'''),
    },
    'count_parameters': {
        'no_mlp_biases': (['bias', 'mlp', '4 * d_model'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model * d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''),
        'no_layer_norms': (['layer norm', 'gamma', 'beta', 'norm'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 0
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + d_model * vocab_size)
'''),
        'no_position_embedding': (['position', 'context_length'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''),
        'weight_tying': (['head', 'output', 'tying'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + 2 * d_model)
'''),
        'mlp_not_four_wide': (['4 * d_model', 'four times', 'wider'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * d_model + d_model + d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''),
        'no_final_norm': (['final', 'final_norm', 'layer norm'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + d_model * vocab_size)
'''),
        'one_norm_per_block': (['norm_2', 'two layer norms', 'each block'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''),
    },
    'causal_lm_loss': {
        'sum_not_mean': (['mean', 'sum', 'average'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    vocab_size = logits.shape[-1]
    return nn.functional.cross_entropy(logits.reshape(-1, vocab_size), targets.reshape(-1), reduction="sum")
'''),
        'log_of_softmax': (['log_softmax', 'overflow', 'log(0)', 'stable'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    probabilities = torch.softmax(logits, dim=-1)
    picked = probabilities.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -torch.log(picked).mean()
'''),
        'cross_entropy_no_reshape': (['reshape', 'flatten', '(n, c)', 'class'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits, targets)
'''),
        'shifted_again': (['shift', 'aligned', 'already shifted'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    vocab_size = logits.shape[-1]
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, vocab_size), targets[:, 1:].reshape(-1))
'''),
        'missing_minus': (['sign', 'minus', 'negative'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_p = torch.log_softmax(logits, dim=-1)
    return log_p.gather(-1, targets.unsqueeze(-1)).mean()
'''),
        'raw_logits_not_log_softmax': (['log_softmax', 'normalis', 'logsumexp'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return -logits.gather(-1, targets.unsqueeze(-1)).mean()
'''),
        'log_softmax_wrong_dim': (['dim', 'vocabulary axis', 'last axis', 'dim=-1'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_p = torch.log_softmax(logits, dim=1)
    return -log_p.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    },
    'generate': {
        'temperature_multiplies': (['divide', 'temperature', 'multiply'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) * temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        'top_k_not_renormalised': (['renormal', 'sum to 1'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    probabilities = torch.softmax(torch.as_tensor(logits) / temperature, dim=-1)
    if top_k is not None:
        kth = torch.topk(probabilities, top_k, dim=-1).values[..., -1:]
        probabilities = probabilities.masked_fill(probabilities < kth, 0.0)
    return probabilities


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        'top_k_keeps_one_more': (['k largest', 'off by one', 'top_k'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.sort(logits, dim=-1, descending=True).values[..., top_k:top_k + 1] if top_k < logits.shape[-1] else logits.min(dim=-1, keepdim=True).values
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        'top_k_over_batch': (['each row', 'dim', 'per row'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits.flatten(), top_k).values[-1]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        'no_value_error': (['valueerror', 'context_length', 'raise'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        'value_error_off_by_one': (['>=', 'off by one', 'context_length'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps >= model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        'extra_model_call': (['once more', 'last token', 'calls', 'one call too many'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            logits, cache = model(next_ids, cache)
    return tokens
'''),
        'first_position_logits': (['last position', '-1', 'logits[:, -1]'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, 0]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        'returns_only_new_tokens': (['prompt', 'followed by', 'concatenat'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens[:, prompt.shape[-1]:]
'''),
        'no_cache_whole_text': (['cache', 'whole text', 'key-value cache', 'token alone'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(tokens)
    return tokens
'''),
        'whole_text_with_cache': (['that token alone', 'new token', 'cache', 'only the new'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(tokens, cache)
    return tokens
'''),
        'multinomial_at_zero_temperature': (['argmax', 'temperature == 0', 'greedy'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            next_ids = torch.multinomial(next_token_probabilities(last, max(temperature, 1e-6), top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
    },
}

VARIANTS = {
    'encode': {
        'dict_lookup': '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
''',
        'numpy_lookup_table': '''
def encode(text, vocabulary):
    lookup = np.zeros(max(map(ord, vocabulary)) + 1, dtype=np.int64)
    lookup[[ord(c) for c in vocabulary]] = np.arange(len(vocabulary))
    codes = np.array([ord(c) for c in text], dtype=np.int64)
    return torch.from_numpy(lookup[codes])


def decode(ids, vocabulary):
    characters = np.array(list(vocabulary))
    return "".join(characters[np.asarray(ids, dtype=np.int64)].tolist())
''',
    },
    'block_helpers': {
        'explicit_formulas': '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(t) for t in (queries, keys, values))
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        'var_mean_einsum': '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    variance, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return (x - mean) * torch.rsqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    q, k, v = (torch.as_tensor(t) for t in (queries, keys, values))
    n_q, n_k = q.shape[-2], k.shape[-2]
    rows = torch.arange(n_k - n_q, n_k)[:, None]
    cols = torch.arange(n_k)[None, :]
    scores = torch.einsum("...qd,...kd->...qk", q, k) / q.shape[-1] ** 0.5
    scores = scores.masked_fill(cols > rows, float("-inf"))
    return torch.einsum("...qk,...kd->...qd", torch.softmax(scores, dim=-1), v)
''',
    },
    'block_forward': {
        'modules_copy': '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        batch, tokens, _ = x.shape
        return x.reshape(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        batch, _, n_new, _ = context.shape
        output = self.w_out(context.transpose(1, 2).reshape(batch, n_new, -1))
        return output, (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.use_norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.use_norm else x
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.use_norm else h
        mlp_out = self.mlp(m_in)
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a).to(x.dtype)

    block = Block(x.shape[-1], n_heads).to(x.dtype)
    aw, nm = t(attention_w), t(norms)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(aw[0].T)
        block.attention.w_key.weight.copy_(aw[1].T)
        block.attention.w_value.weight.copy_(aw[2].T)
        block.attention.w_out.weight.copy_(aw[3].T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(nm[0, 0])
        block.norm_1.bias.copy_(nm[0, 1])
        block.norm_2.weight.copy_(nm[1, 0])
        block.norm_2.bias.copy_(nm[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
''',
        'unflatten_load_state_dict': '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache (unflatten and einsum)."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.scale = n_heads, scale
        self.w_query, self.w_key, self.w_value, self.w_out = (nn.Linear(d_model, d_model, bias=False) for _ in range(4))

    def forward(self, inputs, cache=None):
        q, k, v = (w(inputs).unflatten(-1, (self.n_heads, -1)).permute(0, 2, 1, 3)
                   for w in (self.w_query, self.w_key, self.w_value))
        if cache is not None:
            k, v = torch.cat((cache[0], k), dim=2), torch.cat((cache[1], v), dim=2)
        if not self.scale:
            q = q * q.shape[-1] ** 0.5
        heads = causal_attention(q, k, v)
        return self.w_out(heads.permute(0, 2, 1, 3).flatten(-2)), (k, v)


class Block(nn.Module):
    """Pre-LN block."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.with_norm = residual, norm
        self.norm_1, self.norm_2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _norm(self, layer, x):
        return layer_norm(x, layer.weight, layer.bias) if self.with_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._norm(self.norm_1, x), cache)
        h = attended + (x if self.residual else 0)
        out = self.mlp(self._norm(self.norm_2, h)) + (h if self.residual else 0)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)
    dt = x.dtype
    block = Block(x.shape[-1], n_heads).to(dt).eval()
    aw = torch.as_tensor(attention_w).to(dt)
    nm = torch.as_tensor(norms).to(dt)
    state = {
        "attention.w_query.weight": aw[0].T, "attention.w_key.weight": aw[1].T,
        "attention.w_value.weight": aw[2].T, "attention.w_out.weight": aw[3].T,
        "mlp.0.weight": torch.as_tensor(mlp_w_in).to(dt).T, "mlp.0.bias": torch.as_tensor(mlp_b_in).to(dt),
        "mlp.2.weight": torch.as_tensor(mlp_w_out).to(dt).T, "mlp.2.bias": torch.as_tensor(mlp_b_out).to(dt),
        "norm_1.weight": nm[0, 0], "norm_1.bias": nm[0, 1], "norm_2.weight": nm[1, 0], "norm_2.bias": nm[1, 1],
    }
    with torch.no_grad():
        block.load_state_dict({key: value.contiguous() for key, value in state.items()})
        return block(x)[0]
''',
    },
    'count_parameters': {
        'per_part_sum': '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
''',
        'closed_form': '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.use_positions = positions
        self.use_norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    return (2 * vocab_size + context_length) * d + n_layers * (12 * d * d + 9 * d) + 2 * d
''',
    },
    'causal_lm_loss': {
        'cross_entropy_flat': '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    vocab_size = logits.shape[-1]
    return nn.functional.cross_entropy(logits.reshape(-1, vocab_size), targets.reshape(-1))
''',
        'logsumexp_gather': '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets).long()
    picked = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (torch.logsumexp(logits, dim=-1) - picked).mean()
''',
    },
    'generate': {
        'loop_with_cache': '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
''',
        'while_loop_scatter_topk': '''
def next_token_probabilities(logits, temperature, top_k=None):
    probabilities = torch.softmax(torch.as_tensor(logits) / temperature, dim=-1)
    if top_k is not None:
        top = torch.topk(probabilities, top_k, dim=-1)
        kept = torch.zeros_like(probabilities).scatter(-1, top.indices, top.values)
        probabilities = kept / kept.sum(dim=-1, keepdim=True)
    return probabilities


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[1]} + {steps} tokens exceed context_length {model.context_length}")
    new_tokens = []
    with torch.no_grad():
        logits, cache = model(prompt, None)
        while True:
            last = logits[:, -1, :]
            if temperature == 0:
                chosen = torch.argmax(last, dim=-1).unsqueeze(-1)
            else:
                chosen = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            new_tokens.append(chosen)
            if len(new_tokens) == steps:
                break
            logits, cache = model(chosen, cache)
    return torch.cat([prompt] + new_tokens, dim=1)
''',
    },
}

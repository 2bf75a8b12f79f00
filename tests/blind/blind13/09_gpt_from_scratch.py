"""Blind set 13, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

MISTAKES = {
    'encode': {
        'ids_from_one': (['from 0', 'place', 'index', 'start=1', 'off by one'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary, start=1)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i) - 1] for i in ids)
'''),
        'own_vocabulary': (['vocabulary', 'given', 'sorted(set'], '''
def encode(text, vocabulary):
    own = sorted(set(text))
    index = {character: i for i, character in enumerate(own)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
        'decode_list': (['string', 'str', 'join', 'list'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[int(i)] for i in ids]
'''),
        'int32_ids': (['int64', 'dtype', 'long'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
    },
    'block_helpers': {
        'unbiased_variance': (['unbiased', 'd - 1', 'divides by d', 'correction'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'norm_wrong_dim': (['last axis', 'dim', 'feature', 'axis'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=0, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=0, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'upper_left_mask': (['lower-right', 'corner', 'diagonal', 'offset'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril()
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'no_scaling': (['sqrt', 'scale', 'd_k'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1)
    mask = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'no_gamma_beta': (['gamma', 'beta', 'scale and shift'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps)


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
    },
    'block_forward': {
        'post_ln': (['pre-ln', 'before', 'post-ln', 'layer norm'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _normed(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(x, cache)
        h = self._normed(self.norm_1, x + attended)
        m = self.mlp(h)
        out = self._normed(self.norm_2, h + m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        attention.w_query.weight.copy_(t(attention_w[0]).T)
        attention.w_key.weight.copy_(t(attention_w[1]).T)
        attention.w_value.weight.copy_(t(attention_w[2]).T)
        attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        'attention_not_transposed': (['transpose', '.t', '(out, in)', 'nn.linear'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _normed(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normed(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        m = self.mlp(self._normed(self.norm_2, h))
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        attention.w_query.weight.copy_(t(attention_w[0]))
        attention.w_key.weight.copy_(t(attention_w[1]))
        attention.w_value.weight.copy_(t(attention_w[2]))
        attention.w_out.weight.copy_(t(attention_w[3]))
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        'relu_mlp': (['gelu', 'relu', 'activation'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def _normed(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normed(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        m = self.mlp(self._normed(self.norm_2, h))
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        attention.w_query.weight.copy_(t(attention_w[0]).T)
        attention.w_key.weight.copy_(t(attention_w[1]).T)
        attention.w_value.weight.copy_(t(attention_w[2]).T)
        attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        'residual_from_normed': (['residual', 'normalised', 'normalized', 'x +'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _normed(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        normed = self._normed(self.norm_1, x)
        attended, cache = self.attention(normed, cache)
        h = normed + attended if self.residual else attended
        m = self.mlp(self._normed(self.norm_2, h))
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        attention.w_query.weight.copy_(t(attention_w[0]).T)
        attention.w_key.weight.copy_(t(attention_w[1]).T)
        attention.w_value.weight.copy_(t(attention_w[2]).T)
        attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        'norms_layout': (['gamma', 'beta', 'norms[0]', 'layout'], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _normed(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normed(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        m = self.mlp(self._normed(self.norm_2, h))
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        attention.w_query.weight.copy_(t(attention_w[0]).T)
        attention.w_key.weight.copy_(t(attention_w[1]).T)
        attention.w_value.weight.copy_(t(attention_w[2]).T)
        attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[1][0]))
        block.norm_2.weight.copy_(t(norms[0][1]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
    },
    'count_parameters': {
        'no_positions': (['position', 'context_length', 'embedding'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[2]
        x = self.token_embedding(token_ids)
        if self.positions:
            where = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(where)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model
    attention = 4 * d_model * d_model
    norms = 2 * 2 * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    final_norm = 2 * d_model
    head = d_model * vocab_size
    return int(embeddings + n_layers * (attention + norms + mlp) + final_norm + head)
'''),
        'no_biases': (['bias', 'biases', 'mlp'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[2]
        x = self.token_embedding(token_ids)
        if self.positions:
            where = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(where)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    norms = 2 * 2 * d_model
    mlp = d_model * 4 * d_model + 4 * d_model * d_model
    final_norm = 2 * d_model
    head = d_model * vocab_size
    return int(embeddings + n_layers * (attention + norms + mlp) + final_norm + head)
'''),
        'no_layer_norms': (['layer norm', 'gamma', 'beta', 'norm'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[2]
        x = self.token_embedding(token_ids)
        if self.positions:
            where = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(where)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    norms = 0
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    final_norm = 0
    head = d_model * vocab_size
    return int(embeddings + n_layers * (attention + norms + mlp) + final_norm + head)
'''),
        'three_projections': (['w_out', 'four', 'output projection', '4 * d_model'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[2]
        x = self.token_embedding(token_ids)
        if self.positions:
            where = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(where)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 3 * d_model * d_model
    norms = 2 * 2 * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    final_norm = 2 * d_model
    head = d_model * vocab_size
    return int(embeddings + n_layers * (attention + norms + mlp) + final_norm + head)
'''),
        'tied_head': (['head', 'output layer', 'tied', 'vocab_size'], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[2]
        x = self.token_embedding(token_ids)
        if self.positions:
            where = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(where)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    norms = 2 * 2 * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    final_norm = 2 * d_model
    head = 0
    return int(embeddings + n_layers * (attention + norms + mlp) + final_norm + head)
'''),
    },
    'causal_lm_loss': {
        'no_reshape': (['reshape', '(n, c)', 'classes', 'dimension 1', 'flatten'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits, targets)
'''),
        'sum_not_mean': (['mean', 'sum', 'reduction'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="sum")
'''),
        'log_of_softmax': (['overflow', 'log_softmax', 'log(softmax', 'logsumexp'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    probs = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)
    picked = probs.gather(-1, targets.long().unsqueeze(-1)).squeeze(-1)
    return -torch.log(picked).mean()
'''),
        'shift_again': (['shift', 'already', 'targets', 'next token'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    logits, targets = logits[:, :-1], targets[:, 1:]
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
        'nll_on_logits': (['log_softmax', 'nll_loss', 'log-probabilities', 'logits'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.nll_loss(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
    },
    'generate': {
        'temperature_multiplied': (['temperature', 'divide', 'multiply'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    scaled = logits * temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1,
                                               generator=generator)
            tokens = torch.cat([tokens, next_token.to(tokens.dtype)], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        'topk_no_renormalise': (['renormal', 'sum to 1', 'top_k', 'after the softmax'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth = torch.topk(probs, top_k, dim=-1).values[..., -1:]
        probs = probs.masked_fill(probs < kth, 0.0)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1,
                                               generator=generator)
            tokens = torch.cat([tokens, next_token.to(tokens.dtype)], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        'topk_zero_logits': (['-inf', 'zero', 'logits', 'masked'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, 0.0)
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1,
                                               generator=generator)
            tokens = torch.cat([tokens, next_token.to(tokens.dtype)], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        'topk_keeps_max_only': (['kth', 'top_k largest', 'threshold', 'values[..., -1]'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., :1]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1,
                                               generator=generator)
            tokens = torch.cat([tokens, next_token.to(tokens.dtype)], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        'first_position_logits': (['last position', 'logits[:, -1]', 'last'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, 0, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1,
                                               generator=generator)
            tokens = torch.cat([tokens, next_token.to(tokens.dtype)], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
    },
}

VARIANTS = {
    'encode': {
        'dictionary': '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
''',
        'index_numpy': '''
def encode(text, vocabulary):
    return torch.tensor([vocabulary.index(c) for c in text], dtype=torch.long).reshape(len(text))


def decode(ids, vocabulary):
    characters = np.array(list(vocabulary))
    return "".join(characters[torch.as_tensor(ids).long().numpy()].tolist())
''',
    },
    'block_helpers': {
        'mean_var': '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * torch.as_tensor(gamma) + torch.as_tensor(beta)


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    mask = torch.ones(n_queries, n_keys, dtype=torch.bool, device=scores.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        'var_mean_einsum': '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    variance, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return (x - mean) * torch.rsqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    q, k, v = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = q.shape[-2], k.shape[-2]
    q_pos = torch.arange(n_k - n_q, n_k, device=q.device)[:, None]
    k_pos = torch.arange(n_k, device=q.device)[None, :]
    scores = torch.einsum("...qd,...kd->...qk", q, k) / q.shape[-1] ** 0.5
    scores = torch.where(k_pos <= q_pos, scores, torch.full_like(scores, -torch.inf))
    return torch.einsum("...qk,...kd->...qd", torch.softmax(scores, dim=-1), v)
''',
    },
    'block_forward': {
        'explicit_copies': '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _normed(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normed(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        m = self.mlp(self._normed(self.norm_2, h))
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        attention.w_query.weight.copy_(t(attention_w[0]).T)
        attention.w_key.weight.copy_(t(attention_w[1]).T)
        attention.w_value.weight.copy_(t(attention_w[2]).T)
        attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
''',
        'loops_unbind': '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        q = self.w_query(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = torch.cat(context.unbind(dim=1), dim=-1)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _normed(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normed(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        m = self.mlp(self._normed(self.norm_2, h))
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), attention_w):
            linear.weight.copy_(t(w).transpose(0, 1))
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        for norm, (gamma, beta) in zip((block.norm_1, block.norm_2), norms):
            norm.weight.copy_(t(gamma))
            norm.bias.copy_(t(beta))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
''',
    },
    'count_parameters': {
        'by_parts': '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[2]
        x = self.token_embedding(token_ids)
        if self.positions:
            where = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(where)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    norms = 2 * 2 * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    final_norm = 2 * d_model
    head = d_model * vocab_size
    return int(embeddings + n_layers * (attention + norms + mlp) + final_norm + head)
''',
        'closed_form': '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[2]
        x = self.token_embedding(token_ids)
        if self.positions:
            where = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(where)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    per_block = 12 * d * d + 9 * d
    return (2 * vocab_size + context_length + 2) * d + n_layers * per_block
''',
    },
    'causal_lm_loss': {
        'cross_entropy': '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        'logsumexp_gather': '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_probs = logits - torch.logsumexp(logits, dim=-1, keepdim=True)
    return -log_probs.gather(-1, targets.long().unsqueeze(-1)).squeeze(-1).mean()
''',
    },
    'generate': {
        'masked_fill': '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1,
                                               generator=generator)
            tokens = torch.cat([tokens, next_token.to(tokens.dtype)], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
''',
        'scatter_renormalise': '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        top = torch.topk(logits, top_k, dim=-1).indices
        keep = torch.zeros_like(probs, dtype=torch.bool).scatter(-1, top, True)
        probs = torch.where(keep, probs, torch.zeros_like(probs))
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                next_token = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1,
                                               generator=generator)
            tokens = torch.cat([tokens, next_token.to(tokens.dtype)], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
''',
    },
}

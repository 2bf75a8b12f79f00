"""Blind set 8, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

MISTAKES = {
    "encode": {
        "encode_returns_list": (['tensor', 'int64', 'list', 'torch.tensor'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return [index[character] for character in text]


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
        "encode_int32": (['int64', 'dtype', 'long', 'int32'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
        "ids_from_one": (['from 0', 'off by one', 'place', 'enumerate'], '''
def encode(text, vocabulary):
    index = {character: i + 1 for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i - 1] for i in ids.tolist())
'''),
        "vocabulary_from_text": (['vocabulary', 'order', 'sorted', 'given'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(sorted(set(text)))}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
        "decode_returns_list": (['str', 'join', 'string', 'list'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[i] for i in ids.tolist()]
'''),
        "decode_space_join": (['join', 'separator', 'space', 'empty string'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return " ".join(vocabulary[i] for i in ids.tolist())
'''),
        "encode_code_points": (['code point', 'ord', 'place', 'vocabulary'], '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([ord(character) for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
    },
    "block_helpers": {
        "unbiased_variance": (['unbiased', 'd - 1', 'divides by d', 'torch.var'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "eps_outside_sqrt": (['eps', 'inside the square root', 'sqrt(var + eps)', 'epsilon'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / (torch.sqrt(variance) + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "gamma_beta_swapped": (['gamma', 'beta', 'swapped', 'scale and shift'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * beta + gamma


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "upper_left_mask": (['lower-right', 'diagonal=n_keys - n_queries', 'corner', 'upper-left'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=0)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "not_scaled": (['sqrt', 'scale', 'd_k'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1)
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "mask_inverted_triu": (['future', 'triu', 'invert', 'lower'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).triu(diagonal=n_keys - n_queries + 1)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "softmax_over_queries": (['dim', 'keys', 'dim=-1', 'queries'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-2) @ values
'''),
    },
    "block_forward": {
        "post_ln": (['pre-ln', 'before', 'post-ln', 'order'], '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(x, cache)
        h = self._normalise(self.norm_1, x + attended if self.residual else attended)
        mlp_out = self.mlp(h)
        out = self._normalise(self.norm_2, h + mlp_out if self.residual else mlp_out)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)[0]
'''),
        "weights_not_transposed": (['transpose', '.t', '(out, in)', 'layout'], '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normalise(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mlp_out = self.mlp(self._normalise(self.norm_2, h))
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]))
        block.attention.w_key.weight.copy_(t(attention_w[1]))
        block.attention.w_value.weight.copy_(t(attention_w[2]))
        block.attention.w_out.weight.copy_(t(attention_w[3]))
        block.mlp[0].weight.copy_(t(mlp_w_in))
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out))
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)[0]
'''),
        "norm_rows_swapped": (['gamma', 'beta', 'weight', 'bias'], '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normalise(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mlp_out = self.mlp(self._normalise(self.norm_2, h))
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[1][0]))
        block.norm_2.weight.copy_(t(norms[0][1]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)[0]
'''),
        "returns_tuple": (['tuple', 'cache', '[0]', 'output only'], '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normalise(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mlp_out = self.mlp(self._normalise(self.norm_2, h))
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)
'''),
        "relu_mlp": (['gelu', 'relu'], '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normalise(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mlp_out = self.mlp(self._normalise(self.norm_2, h))
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)[0]
'''),
        "heads_view_no_transpose": (['transpose', 'view', 'columns', 'head h'], '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, self.n_heads, n_new, self.d_head)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normalise(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mlp_out = self.mlp(self._normalise(self.norm_2, h))
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)[0]
'''),
        "mlp_residual_missing": (['residual', 'h +', 'add', 'skip'], '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normalise(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mlp_out = self.mlp(self._normalise(self.norm_2, h))
        out = mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)[0]
'''),
    },
    "count_parameters": {
        "head_with_bias": (['bias', 'head', 'bias=false'], '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size + vocab_size
'''),
        "norms_forgotten": (['layer norm', 'gamma', 'beta', 'norm'], '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = attention + mlp
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
        "mlp_biases_forgotten": (['bias', 'mlp', '4 * d_model'], '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
        "tied_head": (['head', 'output', 'tied', 'separate'], '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return embeddings + n_layers * per_block + 2 * d_model
'''),
        "final_norm_forgotten": (['final_norm', 'final layer norm', '2 * d_model'], '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return embeddings + n_layers * per_block + d_model * vocab_size
'''),
        "position_embedding_forgotten": (['position', 'context_length', 'position_embedding'], '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
        "attention_three_matrices": (['w_out', 'four', 'output projection', '4 * d_model * d_model'], '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    attention = 3 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
    },
    "causal_lm_loss": {
        "no_reshape": (['reshape', 'class dimension', 'transpose', '(n, c)'], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits, targets)
'''),
        "log_of_softmax": (['log_softmax', 'log(0)', 'underflow', 'logsumexp'], '''
def causal_lm_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    picked = probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -torch.log(picked).mean()
'''),
        "sum_not_mean": (['mean', 'sum', 'average'], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="sum")
'''),
        "missing_minus": (['sign', 'minus', 'negative'], '''
def causal_lm_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1).mean()
'''),
        "shifted_again": (['shift', 'already', 'aligned', 'targets'], '''
def causal_lm_loss(logits, targets):
    logits, targets = logits[:, :-1], targets[:, 1:]
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
        "per_sequence_sum": (['mean over all', 'batch * tokens', 'per position', 'sum'], '''
def causal_lm_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    picked = log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -picked.sum(dim=1).mean()
'''),
    },
    "generate": {
        "temperature_multiplies": (['divide', 'temperature', 'multiply'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits * temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        "top_k_smallest": (['largest', 'top_k', 'smallest'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1, largest=False).values[..., -1:]
        scaled = scaled.masked_fill(scaled > kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        "top_k_not_renormalised": (['renormalis', 'sum to 1', 'after the softmax', 'divide by'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth = torch.topk(probs, top_k, dim=-1).values[..., -1:]
        probs = torch.where(probs < kth, torch.zeros_like(probs), probs)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        "top_k_less_equal": (['off by one', '<=', 'top_k largest', 'kth'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled <= kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        "no_cache_whole_text": (['cache', 'that token alone', 'whole text', 'once'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(tokens, None)
    return tokens
'''),
        "no_value_error": (['valueerror', 'context_length', 'raise'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        "extra_model_call": (['once more', 'last step', 'calls', 'while tokens remain'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            logits, cache = model(next_ids, cache)
    return tokens
'''),
        "first_position_logits": (['last position', '-1', 'logits[:, -1]'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, 0]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
        "new_tokens_only": (['prompt', 'followed by', 'n_prompt + steps', 'concatenat'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt[:, :0]
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
'''),
    },
}

VARIANTS = {
    "encode": {
        "dict_lookup": '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
''',
        "index_numpy": '''
def encode(text, vocabulary):
    ids = [vocabulary.index(c) for c in text]
    return torch.as_tensor(ids, dtype=torch.long).reshape(len(text))


def decode(ids, vocabulary):
    characters = np.array(list(vocabulary))
    return "".join(characters[np.asarray(ids, dtype=np.int64)].tolist())
''',
    },
    "block_helpers": {
        "mean_var": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        "var_mean_einsum": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    variance, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return gamma * (x - mean) * torch.rsqrt(variance + eps) + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    i = torch.arange(n_q, device=queries.device)[:, None] + (n_k - n_q)
    j = torch.arange(n_k, device=queries.device)[None, :]
    scores = torch.einsum("...qd,...kd->...qk", queries, keys) / queries.shape[-1] ** 0.5
    scores = torch.where(j <= i, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("...qk,...kv->...qv", weights, values)
''',
    },
    "block_forward": {
        "copy_weights": '''
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

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(t):
            return t.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)

        queries = split(self.w_query(inputs))
        keys = split(self.w_key(inputs))
        values = split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


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

    def _normalise(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._normalise(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mlp_out = self.mlp(self._normalise(self.norm_2, h))
        out = h + mlp_out if self.residual else mlp_out
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(t(attention_w[3]).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    return block(inputs)[0]
''',
        "load_state_dict": '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.scale = n_heads, scale
        for name in ("w_query", "w_key", "w_value", "w_out"):
            setattr(self, name, nn.Linear(d_model, d_model, bias=False))

    def forward(self, inputs, cache=None):
        b, n, d = inputs.shape
        h = self.n_heads
        q, k, v = (layer(inputs).reshape(b, n, h, d // h).permute(0, 2, 1, 3)
                   for layer in (self.w_query, self.w_key, self.w_value))
        if cache is not None:
            k, v = torch.cat((cache[0], k), dim=2), torch.cat((cache[1], v), dim=2)
        if not self.scale:
            q = q * (d // h) ** 0.5
        out = causal_attention(q, k, v).permute(0, 2, 1, 3).reshape(b, n, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1, self.norm_2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = (x + a) if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        return ((h + m) if self.residual else m), cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)
    block = Block(x.shape[-1], n_heads).to(dtype=x.dtype)
    sources = {
        "attention.w_query.weight": attention_w[0], "attention.w_key.weight": attention_w[1],
        "attention.w_value.weight": attention_w[2], "attention.w_out.weight": attention_w[3],
        "mlp.0.weight": mlp_w_in, "mlp.0.bias": mlp_b_in, "mlp.2.weight": mlp_w_out, "mlp.2.bias": mlp_b_out,
        "norm_1.weight": norms[0][0], "norm_1.bias": norms[0][1], "norm_2.weight": norms[1][0], "norm_2.bias": norms[1][1],
    }
    state = {}
    for name, value in sources.items():
        value = torch.as_tensor(value, dtype=x.dtype)
        state[name] = value.T.contiguous() if name.endswith("weight") and value.dim() == 2 else value
    block.load_state_dict(state)
    block.eval()
    with torch.no_grad():
        out, _ = block(x)
    return out
''',
    },
    "count_parameters": {
        "by_parts": '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
''',
        "closed_form": '''
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return int(2 * vocab_size * d + context_length * d + n_layers * (12 * d * d + 9 * d) + 2 * d)
''',
    },
    "causal_lm_loss": {
        "cross_entropy_flat": '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        "log_softmax_gather": '''
def causal_lm_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    picked = log_probs.gather(-1, targets.long().unsqueeze(-1)).squeeze(-1)
    return -picked.mean()
''',
    },
    "generate": {
        "loop_with_cache": '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the model's context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1]
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return tokens
''',
        "while_scatter": '''
def next_token_probabilities(logits, temperature, top_k=None):
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        top = torch.topk(logits, top_k, dim=-1).indices
        keep = torch.zeros_like(probs, dtype=torch.bool).scatter(-1, top, True)
        probs = torch.where(keep, probs, torch.zeros_like(probs))
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    batch, n_prompt = prompt.shape
    if n_prompt + steps > model.context_length:
        raise ValueError(f"{n_prompt} + {steps} tokens exceed the context length {model.context_length}")
    new_tokens = []
    with torch.no_grad():
        logits, cache = model(prompt, None)
        remaining = steps
        while remaining > 0:
            last = logits[:, -1, :]
            if temperature == 0:
                chosen = torch.argmax(last, dim=-1).unsqueeze(-1)
            else:
                chosen = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            new_tokens.append(chosen)
            remaining -= 1
            if remaining:
                logits, cache = model(chosen, cache)
    return torch.cat([prompt] + new_tokens, dim=1).to(torch.int64)
''',
    },
}

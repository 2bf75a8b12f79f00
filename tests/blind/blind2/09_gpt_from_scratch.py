"""Blind set 2, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

MISTAKES = {
    "encode": {
        "int32_ids": (["int64", "dtype", "long"], '''
def encode(text, vocabulary):
    ids = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([ids[character] for character in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
        "ids_from_one": (["from 0", "off by one", "place", "start at 0"], '''
def encode(text, vocabulary):
    ids = {character: i for i, character in enumerate(vocabulary, start=1)}
    return torch.tensor([ids[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i) - 1] for i in ids)
'''),
        "decode_returns_list": (["str", "join", "string"], '''
def encode(text, vocabulary):
    ids = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([ids[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[int(i)] for i in ids]
'''),
        "ord_instead_of_place": (["vocabulary", "ord", "place", "code point"], '''
def encode(text, vocabulary):
    return torch.tensor([ord(character) for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(chr(int(i)) for i in ids)
'''),
        "own_vocabulary_from_text": (["vocabulary", "argument", "sorted(set", "given"], '''
def encode(text, vocabulary):
    ids = {character: i for i, character in enumerate(sorted(set(text)))}
    return torch.tensor([ids[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
    },
    "block_helpers": {
        "unbiased_variance": (["n - 1", "unbiased", "divides by d", "torch.var", "d - 1"], '''
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
        "normalise_whole_tensor": (["last axis", "each vector", "dim=-1", "whole tensor", "own"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean()
    variance = ((x - mean) ** 2).mean()
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "gamma_beta_swapped": (["gamma", "beta", "swapped"], '''
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
        "upper_left_mask": (["lower-right", "lower right", "corner", "n_keys - n_queries", "cache"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "not_scaled": (["sqrt", "scale", "d_k"], '''
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
        "masked_with_zero": (["-inf", "infinity", "before the softmax", "zero"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool, device=queries.device).tril(diagonal=n_keys - n_queries)
    scores = scores.masked_fill(~allowed, 0.0)
    return torch.softmax(scores, dim=-1) @ values
'''),
    },
    "block_forward": {
        "post_ln": (["pre-ln", "post-ln", "before", "order"], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        attended, cache = self.attention(x, cache)
        h = x + attended if self.residual else attended
        if self.norm:
            h = layer_norm(h, self.norm_1.weight, self.norm_1.bias)
        out = h + self.mlp(h) if self.residual else self.mlp(h)
        if self.norm:
            out = layer_norm(out, self.norm_2.weight, self.norm_2.bias)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        "weights_not_transposed": (["transpose", ".t", "(out, in)", "out_features"], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(a, cache)
        h = x + attended if self.residual else attended
        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = h + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        "relu_mlp": (["gelu", "relu"], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(a, cache)
        h = x + attended if self.residual else attended
        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = h + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        "second_residual_adds_x": (["residual", "h +", "input of the sub-layer", "x +"], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(a, cache)
        h = x + attended if self.residual else attended
        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = x + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        "norm_1_twice": (["norm_2", "second layer norm", "norms[1]"], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(a, cache)
        h = x + attended if self.residual else attended
        m = layer_norm(h, self.norm_1.weight, self.norm_1.bias) if self.norm else h
        out = h + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        "split_without_transpose": (["transpose", "split", "heads", "view"], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, self.n_heads, tokens, self.d_head)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(a, cache)
        h = x + attended if self.residual else attended
        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = h + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
        "combine_without_transpose": (["transpose", "combine", "side by side", "heads"], '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(a, cache)
        h = x + attended if self.residual else attended
        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = h + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''),
    },
    "count_parameters": {
        "no_mlp_biases": (["bias", "biases", "mlp"], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
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
    mlp = d_model * 4 * d_model + 4 * d_model * d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
        "no_layer_norm_parameters": (["layer norm", "gamma", "beta", "norm"], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
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
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 0
    per_block = attention + mlp + norms
    return embeddings + n_layers * per_block + d_model * vocab_size
'''),
        "head_tied_to_embedding": (["head", "output head", "tying", "tied"], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
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
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return embeddings + n_layers * per_block + 2 * d_model
'''),
        "mlp_not_four_times_wider": (["4 *", "four times", "wider", "4 d_model"], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
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
    mlp = d_model * d_model + d_model + d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
        "no_position_embedding": (["position", "context_length"], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
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
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
        "attention_with_biases": (["bias", "attention", "bias=false"], '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * (d_model * d_model + d_model)
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
    },
    "causal_lm_loss": {
        "classes_on_wrong_dim": (["class", "reshape", "(n, c)", "flatten", "vocab"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits, targets)
'''),
        "sum_not_mean": (["mean", "average", "sum"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="sum")
'''),
        "log_of_softmax": (["log-softmax", "log_softmax", "underflow", "inf", "overflow"], '''
def causal_lm_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    return -torch.log(probs.gather(-1, targets.long().unsqueeze(-1))).mean()
'''),
        "shifted_again": (["shift", "aligned", "already shifted", "position t"], '''
def causal_lm_loss(logits, targets):
    logits, targets = logits[:, :-1], targets[:, 1:]
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
        "log_softmax_wrong_dim": (["dim", "axis", "vocab", "last dimension"], '''
def causal_lm_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=1)
    return -log_probs.gather(-1, targets.long().unsqueeze(-1)).mean()
'''),
        "missing_minus": (["sign", "minus", "negative"], '''
def causal_lm_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return log_probs.gather(-1, targets.long().unsqueeze(-1)).mean()
'''),
    },
    "generate": {
        "top_k_not_renormalised": (["renormal", "sum to 1", "divide"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    probabilities = torch.softmax(logits, dim=-1)
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        probabilities = probabilities.masked_fill(logits < kth_largest, 0.0)
    return probabilities


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return token_ids
'''),
        "temperature_multiplies": (["divide", "temperature", "multipl"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) * temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return token_ids
'''),
        "top_k_smallest": (["largest", "smallest", "likeliest"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1, largest=False).values[..., -1:]
        logits = logits.masked_fill(logits > kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return token_ids
'''),
        "feeds_whole_text_with_cache": (["that token alone", "new token", "only the token", "whole text"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(token_ids, cache)
    return token_ids
'''),
        "no_cache_passed": (["cache", "returned", "without the cache"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(token_ids)
    return token_ids
'''),
        "no_context_check": (["valueerror", "context_length", "raise", "too long"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return token_ids
'''),
        "first_position_logits": (["last position", "-1", "last"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, 0]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return token_ids
'''),
        "argmax_wrong_dim": (["dim", "axis", "vocab", "each row"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=0, keepdim=True).T
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return token_ids
'''),
    },
}

VARIANTS = {
    "encode": {
        "dict_and_join": '''
def encode(text, vocabulary):
    ids = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([ids[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
''',
        "code_point_table": '''
def encode(text, vocabulary):
    table = np.full(max(map(ord, vocabulary)) + 1, -1, dtype=np.int64)
    table[[ord(c) for c in vocabulary]] = np.arange(len(vocabulary))
    codes = np.array([ord(c) for c in text], dtype=np.int64)
    return torch.from_numpy(table[codes]) if len(text) else torch.zeros(0, dtype=torch.int64)


def decode(ids, vocabulary):
    characters = np.array(list(vocabulary))
    return "".join(characters[np.asarray(ids, dtype=np.int64)].tolist())
''',
        "str_index": '''
def encode(text, vocabulary):
    return torch.tensor(list(map(vocabulary.index, text)), dtype=torch.long)


def decode(ids, vocabulary):
    out = ""
    for i in torch.as_tensor(ids).tolist():
        out += vocabulary[i]
    return out
''',
    },
    "block_helpers": {
        "mean_of_squares_tril": '''
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
        "var_unbiased_false_arange_mask": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    centred = x - x.mean(-1, keepdim=True)
    return centred * torch.rsqrt(x.var(-1, unbiased=False, keepdim=True) + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    i = torch.arange(n_q, device=queries.device)[:, None] + (n_k - n_q)  # position of each query in the text
    j = torch.arange(n_k, device=queries.device)[None, :]
    scores = torch.einsum("...qd,...kd->...qk", queries, keys) * queries.shape[-1] ** -0.5
    weights = torch.softmax(scores.masked_fill(j > i, -torch.inf), dim=-1)
    return weights @ values
''',
    },
    "block_forward": {
        "split_view_transpose": '''
class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention with a key-value cache."""

    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        batch, tokens, _ = x.shape
        return x.view(batch, tokens, self.n_heads, self.d_head).transpose(1, 2)  # (batch, heads, tokens, d_head)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape
        queries = self.split(self.w_query(inputs))
        keys = self.split(self.w_key(inputs))
        values = self.split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)  # (batch, heads, n_new, d_head)
        context = context.transpose(1, 2).reshape(batch, n_new, d_model)
        return self.w_out(context), (keys, values)


class Block(nn.Module):
    """A pre-LayerNorm transformer block: attention and an MLP, each in a residual connection."""

    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(a, cache)
        h = x + attended if self.residual else attended
        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = h + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)

    def t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), t(attention_w)):
            linear.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
''',
        "unflatten_state_dict": '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.scale = n_heads, scale
        self.w_query, self.w_key, self.w_value, self.w_out = (nn.Linear(d_model, d_model, bias=False) for _ in range(4))

    def forward(self, inputs, cache=None):
        heads = lambda x: x.unflatten(-1, (self.n_heads, -1)).transpose(-3, -2)
        q, k, v = heads(self.w_query(inputs)), heads(self.w_key(inputs)), heads(self.w_value(inputs))
        if cache is not None:
            k, v = torch.cat((cache[0], k), dim=-2), torch.cat((cache[1], v), dim=-2)
        if not self.scale:
            q = q * q.shape[-1] ** 0.5
        context = causal_attention(q, k, v).transpose(-3, -2).flatten(-2)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.use_norm = residual, norm
        self.norm_1, self.norm_2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _norm(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.use_norm else x

    def forward(self, x, cache=None):
        attended, cache = self.attention(self._norm(self.norm_1, x), cache)
        h = x + attended if self.residual else attended
        mixed = self.mlp(self._norm(self.norm_2, h))
        return (h + mixed if self.residual else mixed), cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)
    arrays = [torch.as_tensor(a, dtype=x.dtype) for a in (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms)]
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = arrays
    block = Block(x.shape[-1], n_heads).to(dtype=x.dtype)
    state = {
        "attention.w_query.weight": attention_w[0].T, "attention.w_key.weight": attention_w[1].T,
        "attention.w_value.weight": attention_w[2].T, "attention.w_out.weight": attention_w[3].T,
        "mlp.0.weight": mlp_w_in.T, "mlp.0.bias": mlp_b_in, "mlp.2.weight": mlp_w_out.T, "mlp.2.bias": mlp_b_out,
        "norm_1.weight": norms[0, 0], "norm_1.bias": norms[0, 1], "norm_2.weight": norms[1, 0], "norm_2.bias": norms[1, 1],
    }
    block.load_state_dict({name: value.contiguous() for name, value in state.items()})
    with torch.no_grad():
        return block.eval()(x)[0]
''',
    },
    "count_parameters": {
        "by_parts": '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
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
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d, v = d_model, vocab_size
    return int(2 * v * d + context_length * d + n_layers * (12 * d * d + 9 * d) + 2 * d)
''',
        "list_of_shapes": '''
class GPT(nn.Module):
    """Token and position embeddings, blocks, a final layer norm and the output head."""

    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[-1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    block = [(d, d)] * 4 + [(4 * d, d), (4 * d,), (d, 4 * d), (d,)] + [(d,)] * 4
    shapes = [(vocab_size, d), (context_length, d)] + block * n_layers + [(d,), (d,), (vocab_size, d)]
    return sum(math.prod(shape) for shape in shapes)
''',
    },
    "causal_lm_loss": {
        "cross_entropy_flattened": '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        "log_softmax_gather": '''
def causal_lm_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return -log_probs.gather(-1, targets.long().unsqueeze(-1)).squeeze(-1).mean()
''',
        "logsumexp": '''
def causal_lm_loss(logits, targets):
    picked = torch.take_along_dim(logits, targets.long()[..., None], dim=-1)[..., 0]
    return (torch.logsumexp(logits, dim=-1) - picked).mean()
''',
        "cross_entropy_transposed": '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.transpose(1, 2), targets)
''',
    },
    "generate": {
        "topk_threshold": '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(steps):
            last = logits[:, -1]  # (batch, vocab)
            if temperature == 0:
                next_ids = last.argmax(dim=-1, keepdim=True)
            else:
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_ids = torch.multinomial(probabilities, 1, generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                logits, cache = model(next_ids, cache)
    return token_ids
''',
        "scatter_keep_while": '''
def next_token_probabilities(logits, temperature, top_k=None):
    probabilities = torch.softmax(torch.as_tensor(logits) / temperature, dim=-1)
    if top_k is not None:
        keep = torch.zeros_like(probabilities, dtype=torch.bool)
        keep.scatter_(-1, probabilities.topk(top_k, dim=-1).indices, True)
        probabilities = probabilities * keep
        probabilities = probabilities / probabilities.sum(dim=-1, keepdim=True)
    return probabilities


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens are longer than the model's context")
    new_tokens = []
    with torch.no_grad():
        logits, cache = model(prompt)
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
    return torch.cat([prompt, *new_tokens], dim=1)
''',
    },
}

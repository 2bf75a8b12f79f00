"""Blind set 12, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

MISTAKES = {
    "encode": {
        "int32_ids": (["int64", "dtype", "long"], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
        "float_tensor": (["int64", "integer", "float", "torch.tensor"], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.Tensor([index[ch] for ch in text])


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
        "decode_returns_list": (["string", "join", "list"], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[i] for i in ids.tolist()]
'''),
        "sorted_vocabulary": (["place in the vocabulary", "sorted", "order", "index"], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(sorted(vocabulary))}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
        "ids_from_one": (["0", "off by one", "start", "enumerate"], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary, start=1)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i - 1] for i in ids.tolist())
'''),
        "ord_codes": (["ord", "vocabulary", "place", "unicode"], '''
def encode(text, vocabulary):
    return torch.tensor([ord(ch) for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(chr(i) for i in ids.tolist())
'''),
    },
    "block_helpers": {
        "unbiased_variance": (["d - 1", "unbiased", "torch.var", "divides by d"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "eps_outside_sqrt": (["eps", "inside", "square root", "sqrt"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / (torch.sqrt(var) + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "std_no_eps": (["eps", "constant vector", "zero", "nan"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "upper_left_mask": (["lower-right", "diagonal", "n_keys - n_queries", "corner"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "norm_over_wrong_dim": (["last axis", "dim", "features", "each token"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=0, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=0, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "no_scaling": (["sqrt", "d_k", "scale", "divide"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1)
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "mask_inverted_triu": (["triu", "future", "mask", "invert"], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
    },
    "block_forward": {
        "post_ln": (["pre-ln", "before", "post-ln", "layer norm"], '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a, cache = self.attention(x, cache)
        h = x + a if self.residual else a
        if self.norm:
            h = layer_norm(h, self.norm_1.weight, self.norm_1.bias)
        m = self.mlp(h)
        out = h + m if self.residual else m
        if self.norm:
            out = layer_norm(out, self.norm_2.weight, self.norm_2.bias)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "residual_from_normed": (["residual", "x +", "normalised", "input"], '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = a_in + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "mlp_not_transposed": (["transpose", "(out, in)", "mlp", ".t"], '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.reshape(block.mlp[0].weight.shape))
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.reshape(block.mlp[2].weight.shape))
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "heads_view_no_transpose": (["heads", "transpose", "columns", "split"], '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.reshape(b, self.n_heads, n, self.d_head)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "relu_mlp": (["gelu", "relu"], '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "gelu_tanh": (["gelu", "tanh", "approximat", "exact"], '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(approximate="tanh"), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "norms_swapped": (["norm_1", "norm_2", "norms[0]", "order"], '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[1, 0])
        block.norm_2.weight.copy_(norms[0, 1])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
    },
    "count_parameters": {
        "no_layer_norms": (["layer norm", "gamma", "beta", "norm"], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 4 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(embeddings + n_layers * per_block + d_model * vocab_size)
'''),
        "head_with_bias": (["bias", "head", "bias=false"], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 2 * (2 * d_model) + 4 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size + vocab_size)
'''),
        "tied_head": (["head", "tied", "embedding", "output head"], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 2 * (2 * d_model) + 4 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(embeddings + n_layers * per_block + 2 * d_model)
'''),
        "mlp_no_biases": (["bias", "mlp", "4 * d_model"], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 2 * (2 * d_model) + 4 * d_model * d_model + (d_model * 4 * d_model) + (4 * d_model * d_model)
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''),
        "no_final_norm": (["final", "final_norm", "layer norm"], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 2 * (2 * d_model) + 4 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(embeddings + n_layers * per_block + d_model * vocab_size)
'''),
        "attention_three_matrices": (["w_out", "four", "attention", "4 * d_model"], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 2 * (2 * d_model) + 3 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''),
    },
    "causal_lm_loss": {
        "cross_entropy_unflattened": (["reshape", "flatten", "class", "(n, vocab)"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits, targets)
'''),
        "naive_log_softmax": (["overflow", "log-softmax", "logsumexp", "max"], '''
def causal_lm_loss(logits, targets):
    log_p = torch.log(torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True))
    picked = log_p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -picked.mean()
'''),
        "sum_not_mean": (["mean", "average", "sum"], '''
def causal_lm_loss(logits, targets):
    log_p = torch.log_softmax(logits, dim=-1)
    picked = log_p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -picked.sum()
'''),
        "missing_minus": (["minus", "negative", "sign", "-log"], '''
def causal_lm_loss(logits, targets):
    log_p = torch.log_softmax(logits, dim=-1)
    picked = log_p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return picked.mean()
'''),
        "shifted_again": (["shift", "aligned", "already shifted", "off by one"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), targets[:, 1:].reshape(-1))
'''),
        "softmax_dim_tokens": (["dim", "vocab", "last axis", "softmax"], '''
def causal_lm_loss(logits, targets):
    log_p = torch.log_softmax(logits, dim=1)
    picked = log_p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -picked.mean()
'''),
    },
    "generate": {
        "temperature_multiplied": (["divide", "temperature", "multipl"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits * temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        "topk_no_renormalise": (["renormalis", "sum to 1", "top_k", "after the softmax"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth = torch.topk(probs, top_k, dim=-1).values[..., -1:]
        probs = probs.masked_fill(probs < kth, 0.0)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        "topk_off_by_one": (["top_k", "k largest", "off by one", "kth"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled <= kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        "first_position_logits": (["last position", "-1", "first", "logits[:, -1]"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        "extra_model_call": (["once more", "last token", "call", "steps - 1"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            logits, cache = model(next_token, cache)
    return tokens
'''),
        "no_length_check": (["valueerror", "context_length", "too long", "raise"], '''
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
            last = logits[:, -1, :]
            if temperature == 0:
                next_token = last.argmax(dim=-1, keepdim=True)
            else:
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
        "whole_sequence_with_cache": (["that token alone", "cache", "new token", "whole sequence"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(tokens, cache)
    return tokens
'''),
        "temperature_zero_divides": (["argmax", "temperature == 0", "greedy", "division by zero"], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            probs = next_token_probabilities(last, temperature, top_k)
            next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''),
    },
}

VARIANTS = {
    "encode": {
        "dict_join": '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
''',
        "find_and_numpy": '''
def encode(text, vocabulary):
    return torch.from_numpy(np.array([vocabulary.find(ch) for ch in text], dtype=np.int64).reshape(len(text)))


def decode(ids, vocabulary):
    chars = np.array(list(vocabulary))
    return "".join(chars[np.asarray(ids, dtype=np.int64)].tolist())
''',
    },
    "block_helpers": {
        "mean_tril_offset": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        "var_unbiased_false_positions": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    var, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return gamma * (x - mean) * torch.rsqrt(var + eps) + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    q_pos = torch.arange(n_k - n_q, n_k)[:, None]
    k_pos = torch.arange(n_k)[None, :]
    scores = torch.einsum("...qd,...kd->...qk", queries, keys) / queries.shape[-1] ** 0.5
    scores = scores.masked_fill(k_pos > q_pos, -torch.inf)
    return torch.einsum("...qk,...kv->...qv", scores.softmax(dim=-1), values)
''',
    },
    "block_forward": {
        "module_view": '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.view(b, n, self.n_heads, self.d_head).transpose(1, 2)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, n, d)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
''',
        "permute_cat": '''
class CausalSelfAttention(nn.Module):
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
        b, n, d = inputs.shape
        split = lambda y: y.reshape(b, n, self.n_heads, -1).permute(0, 2, 1, 3)
        q = split(self.w_query(inputs))
        k = split(self.w_key(inputs))
        v = split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = torch.cat(context.unbind(dim=1), dim=-1)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual = residual
        self.norm = norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for layer, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), attention_w):
            layer.weight[...] = w.transpose(0, 1)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    return block.eval()(inputs)[0]
''',
    },
    "count_parameters": {
        "by_parts": '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 2 * (2 * d_model) + 4 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
''',
        "closed_form": '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions = positions
        self.norm = norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    return int(2 * vocab_size * d + context_length * d + n_layers * (12 * d * d + 9 * d) + 2 * d)
''',
    },
    "causal_lm_loss": {
        "log_softmax_gather": '''
def causal_lm_loss(logits, targets):
    log_p = torch.log_softmax(logits, dim=-1)
    picked = log_p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -picked.mean()
''',
        "cross_entropy_flat": '''
def causal_lm_loss(logits, targets):
    vocab = logits.shape[-1]
    return nn.functional.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1))
''',
    },
    "generate": {
        "cat_loop": '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
                probs = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probs, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
''',
        "preallocated": '''
def next_token_probabilities(logits, temperature, top_k=None):
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        idx = torch.topk(logits, top_k, dim=-1).indices
        keep = torch.zeros_like(probs, dtype=torch.bool).scatter(-1, idx, True)
        probs = torch.where(keep, probs, torch.zeros_like(probs))
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    batch, n_prompt = prompt.shape
    if n_prompt + steps > model.context_length:
        raise ValueError(f"{n_prompt} + {steps} tokens exceed the context length {model.context_length}")
    out = torch.empty(batch, n_prompt + steps, dtype=torch.int64)
    out[:, :n_prompt] = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for t in range(n_prompt, n_prompt + steps):
            if temperature == 0:
                nxt = torch.argmax(logits[:, -1], dim=-1)
            else:
                nxt = torch.multinomial(next_token_probabilities(logits[:, -1], temperature, top_k), 1,
                                        generator=generator).squeeze(-1)
            out[:, t] = nxt
            if t + 1 < n_prompt + steps:
                logits, cache = model(out[:, t:t + 1], cache)
    return out
''',
    },
}

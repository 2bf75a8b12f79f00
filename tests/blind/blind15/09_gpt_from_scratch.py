"""Blind set 15, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

MISTAKES = {
    "encode": {
        "float_tensor": (['int64', 'dtype', 'torch.tensor', 'float'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.Tensor([index[ch] for ch in text])


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
        "ids_from_one": (['from 0', 'off by one', 'start'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary, start=1)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i - 1] for i in ids.tolist())
'''),
        "sorted_vocabulary": (['order', 'place', 'sorted'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(sorted(vocabulary))}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(sorted(vocabulary)[i] for i in ids.tolist())
'''),
        "decode_returns_list": (['string', 'join', 'list'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[i] for i in ids.tolist()]
'''),
        "int32_ids": (['int64', 'int32', 'dtype'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''),
    },
    "block_helpers": {
        "unbiased_variance": (['unbiased', 'd - 1', 'torch.var', 'divide by d'], '''
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
        "eps_outside_sqrt": (['eps', 'inside', 'square root'], '''
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
        "upper_left_mask": (['lower-right', 'corner', 'diagonal', 'n_keys - n_queries'], '''
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
        "no_scaling": (['sqrt', 'scale', 'd_k'], '''
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
        "mask_includes_future": (['future', 'diagonal', '+1', 'itself'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q + 1)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        "gamma_beta_swapped": (['gamma', 'beta', 'scale and shift'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * beta + gamma


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
    },
    "block_forward": {
        "weights_not_transposed": (['transpose', '(out, in)', '.t'], '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = context.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w))
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "post_ln_order": (['pre-ln', 'before', 'post-ln'], '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = context.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


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
        h = layer_norm(x + a, self.norm_1.weight, self.norm_1.bias)
        m = self.mlp(h)
        out = layer_norm(h + m, self.norm_2.weight, self.norm_2.bias)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "relu_mlp": (['gelu', 'relu'], '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = context.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "heads_merged_without_transpose": (['transpose', 'heads', 'side by side'], '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = context.reshape(b, t, d)
        return self.w_out(out), (k, v)


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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "residual_from_normed": (['residual', 'normalised', 'x +'], '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = context.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        "norms_swapped": (['norm_1', 'norm_2', 'order'], '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = context.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[1][0]))
        block.norm_1.bias.copy_(t(norms[1][1]))
        block.norm_2.weight.copy_(t(norms[0][0]))
        block.norm_2.bias.copy_(t(norms[0][1]))
    block.eval()
    out, _ = block(inputs)
    return out
'''),
    },
    "count_parameters": {
        "no_layernorm_params": (['layer norm', 'gamma', 'beta'], '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    embeddings = vocab_size * d + context_length * d
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d)
    return int(embeddings + n_layers * per_block + 2 * d + d * vocab_size)
'''),
        "head_bias_counted": (['bias', 'head', 'bias=false'], '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    embeddings = vocab_size * d + context_length * d
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * 2 * d
    return int(embeddings + n_layers * per_block + 2 * d + d * vocab_size + vocab_size)
'''),
        "weight_tying": (['tying', 'head', 'vocab_size * d_model'], '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    embeddings = vocab_size * d + context_length * d
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * 2 * d
    return int(embeddings + n_layers * per_block + 2 * d)
'''),
        "no_mlp_biases": (['bias', 'mlp', '4 * d_model'], '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    embeddings = vocab_size * d + context_length * d
    per_block = 4 * d * d + (d * 4 * d) + (4 * d * d) + 2 * 2 * d
    return int(embeddings + n_layers * per_block + 2 * d + d * vocab_size)
'''),
        "attention_biases": (['bias', 'attention', 'bias=false'], '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    embeddings = vocab_size * d + context_length * d
    per_block = 4 * (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * 2 * d
    return int(embeddings + n_layers * per_block + 2 * d + d * vocab_size)
'''),
        "no_final_norm": (['final', 'final_norm', 'layer norm'], '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    embeddings = vocab_size * d + context_length * d
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * 2 * d
    return int(embeddings + n_layers * per_block + d * vocab_size)
'''),
    },
    "causal_lm_loss": {
        "cross_entropy_wrong_shape": (['shape', 'reshape', '(n, c)', 'class'], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits, targets)
'''),
        "sum_not_mean": (['mean', 'sum', 'average'], '''
def causal_lm_loss(logits, targets):
    vocab = logits.shape[-1]
    return nn.functional.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1), reduction="sum")
'''),
        "missing_minus": (['minus', 'negative', 'sign'], '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
        "shift_targets_again": (['shift', 'already', 'next token'], '''
def causal_lm_loss(logits, targets):
    vocab = logits.shape[-1]
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, vocab), targets[:, 1:].reshape(-1))
'''),
        "nll_on_probabilities": (['log', 'log_softmax', 'probabilities'], '''
def causal_lm_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    return nn.functional.nll_loss(probs.reshape(-1, probs.shape[-1]), targets.reshape(-1))
'''),
        "log_of_softmax": (['log_softmax', 'underflow', 'log(0)', 'overflow'], '''
def causal_lm_loss(logits, targets):
    p = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)
    return -torch.log(p).gather(-1, targets.unsqueeze(-1)).mean()
'''),
    },
    "generate": {
        "temperature_multiplied": (['temperature', 'divide', 'multiply'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits * temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
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
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return tokens
'''),
        "top_k_smallest": (['largest', 'top_k', 'smallest'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1, largest=False).values[:, -1:]
        scaled = scaled.masked_fill(scaled > kth, float("-inf"))
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
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return tokens
'''),
        "no_renormalise": (['renormal', 'sum to 1', 'after zeroing'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
        return torch.softmax(scaled, dim=-1).masked_fill(scaled < kth, 0.0)
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
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return tokens
'''),
        "context_check_off_by_one": (['context_length', '>=', 'valueerror', 'fits'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps >= model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return tokens
'''),
        "no_cache_rerun_all": (['cache', 'last token', 'whole sequence'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
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
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(tokens, None)
    return tokens
'''),
        "extra_model_call": (['once more', 'last', 'calls', 'steps - 1'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
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
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            logits, cache = model(nxt, cache)
    return tokens
'''),
        "first_position_logits": (['last position', '-1', 'first'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
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
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return tokens
'''),
    },
}

VARIANTS = {
    "encode": {
        "dict": '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
''',
        "str_index": '''
def encode(text, vocabulary):
    return torch.tensor([vocabulary.index(ch) for ch in text], dtype=torch.long)


def decode(ids, vocabulary):
    chars = np.array(list(vocabulary))
    return "".join(chars[np.asarray(ids, dtype=np.int64)].tolist())
''',
    },
    "block_helpers": {
        "manual": '''
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
        "var_mean_einsum": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    rows = torch.arange(n_q)[:, None] + (n_k - n_q)
    cols = torch.arange(n_k)[None, :]
    scores = torch.einsum("...qd,...kd->...qk", queries, keys) / queries.shape[-1] ** 0.5
    scores = torch.where(cols <= rows, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    return torch.einsum("...qk,...kv->...qv", torch.softmax(scores, dim=-1), values)
''',
    },
    "block_forward": {
        "modules": '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = context.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    out, _ = block(inputs)
    return out
''',
        "unbind_cat": '''
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

    def _split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            old_k, old_v = cache
            k, v = torch.cat((old_k, k), -2), torch.cat((old_v, v), -2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        out = torch.cat(context.unbind(dim=1), dim=-1)
        return self.w_out(out), (k, v)


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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=inputs.dtype)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(t(w).T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        block.norm_1.weight.copy_(t(norms[0][0]))
        block.norm_1.bias.copy_(t(norms[0][1]))
        block.norm_2.weight.copy_(t(norms[1][0]))
        block.norm_2.bias.copy_(t(norms[1][1]))
    block.eval()
    out, _ = block(inputs)
    return out
''',
    },
    "count_parameters": {
        "by_part": '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    embeddings = vocab_size * d + context_length * d
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * 2 * d
    return int(embeddings + n_layers * per_block + 2 * d + d * vocab_size)
''',
        "closed_form": '''
class GPT(nn.Module):
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
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.use_positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.use_norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    return 2 * vocab_size * d + context_length * d + n_layers * (12 * d * d + 9 * d) + 2 * d
''',
    },
    "causal_lm_loss": {
        "cross_entropy": '''
def causal_lm_loss(logits, targets):
    vocab = logits.shape[-1]
    return nn.functional.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1))
''',
        "logsumexp_gather": '''
def causal_lm_loss(logits, targets):
    logp = logits - torch.logsumexp(logits, dim=-1, keepdim=True)
    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1).mean()
''',
    },
    "generate": {
        "masked_fill_topk": '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[:, -1:]
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
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return tokens
''',
        "scatter_topk": '''
def next_token_probabilities(logits, temperature, top_k=None):
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        keep = torch.zeros_like(probs, dtype=torch.bool)
        keep.scatter_(-1, torch.topk(logits, top_k, dim=-1).indices, True)
        probs = torch.where(keep, probs, torch.zeros_like(probs))
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the prompt and the new tokens do not fit in the context")
    tokens = prompt.clone()
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            tokens = torch.cat([tokens, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return tokens
''',
    },
}

"""Blind set 14, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

MISTAKES = {
    'encode': {
        'int32_ids': (['int64', 'dtype', 'long'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in torch.as_tensor(ids).tolist())
'''),
        'ids_from_one': (['from 0', 'place', 'index'], '''
def encode(text, vocabulary):
    index = {ch: i + 1 for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i - 1] for i in torch.as_tensor(ids).tolist())
'''),
        'decode_returns_list': (['string', 'join', 'str'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[i] for i in torch.as_tensor(ids).tolist()]
'''),
        'sorted_text_vocabulary': (['vocabulary', 'sorted', 'given'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(sorted(set(text)))}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in torch.as_tensor(ids).tolist())
'''),
        'float_tensor': (['int64', 'integer', 'float'], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.float32)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in torch.as_tensor(ids).tolist())
'''),
    },
    'block_helpers': {
        'unbiased_variance': (['d - 1', 'unbiased', 'variance'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'eps_outside_sqrt': (['eps', 'inside', 'square root'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / (torch.sqrt(var) + eps) * gamma + beta


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'std_no_eps': (['eps', 'constant', 'division by zero'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var) * gamma + beta


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'upper_left_mask': (['lower-right', 'corner', 'offset'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril()
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'no_scaling': (['sqrt', 'scale', 'd_k'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1)
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''),
        'mask_zero_not_inf': (['-inf', 'zero', 'masked_fill'], '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, 0.0)
    return torch.softmax(scores, dim=-1) @ values
'''),
    },
    'block_forward': {
        'post_ln': (['pre-ln', 'before', 'order'], '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q, k, v = self._split(self.w_query(inputs)), self._split(self.w_key(inputs)), self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        out = causal_attention(q, k, v)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
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
    inputs = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = map(
        t, (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms))
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
        'no_transpose': (['transpose', '(out, in)', '.t'], '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q, k, v = self._split(self.w_query(inputs)), self._split(self.w_key(inputs)), self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        out = causal_attention(q, k, v)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
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
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = map(
        t, (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms))
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0])
        block.attention.w_key.weight.copy_(attention_w[1])
        block.attention.w_value.weight.copy_(attention_w[2])
        block.attention.w_out.weight.copy_(attention_w[3])
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
        'relu_mlp': (['gelu', 'relu', 'activation'], '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q, k, v = self._split(self.w_query(inputs)), self._split(self.w_key(inputs)), self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        out = causal_attention(q, k, v)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
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
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = map(
        t, (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms))
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
        'norm_1_twice': (['norm_2', 'second', 'norms[1]'], '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q, k, v = self._split(self.w_query(inputs)), self._split(self.w_key(inputs)), self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        out = causal_attention(q, k, v)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
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
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = map(
        t, (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms))
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
        'biases_not_copied': (['bias', 'mlp_b_in', 'copy'], '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q, k, v = self._split(self.w_query(inputs)), self._split(self.w_key(inputs)), self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        out = causal_attention(q, k, v)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
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
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = map(
        t, (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms))
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)
        block.attention.w_key.weight.copy_(attention_w[1].T)
        block.attention.w_value.weight.copy_(attention_w[2].T)
        block.attention.w_out.weight.copy_(attention_w[3].T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
    block.eval()
    out, _ = block(inputs)
    return out
'''),
        'heads_view_no_transpose': (['transpose', 'heads', 'view'], '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, self.n_heads, t, self.d_head)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q, k, v = self._split(self.w_query(inputs)), self._split(self.w_key(inputs)), self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        out = causal_attention(q, k, v)
        out = out.reshape(b, t, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
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
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = map(
        t, (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms))
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
    },
    'count_parameters': {
        'no_layer_norms': (['layer norm', 'gamma', 'beta'], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    block = 4 * d_model * d_model + 2 * 2 * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(vocab_size * d_model + context_length * d_model + n_layers * (block - 4 * d_model) + d_model * vocab_size)
'''),
        'no_mlp_biases': (['bias', 'mlp', '4 * d_model +'], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    block = 4 * d_model * d_model + 2 * 2 * d_model + (d_model * 4 * d_model) + (4 * d_model * d_model)
    return int(vocab_size * d_model + context_length * d_model + n_layers * block + 2 * d_model + d_model * vocab_size)
'''),
        'head_not_counted': (['head', 'output layer', 'tied'], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    block = 4 * d_model * d_model + 2 * 2 * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(vocab_size * d_model + context_length * d_model + n_layers * block + 2 * d_model)
'''),
        'attention_biases': (['bias=false', 'attention', 'bias'], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    block = 4 * (d_model * d_model + d_model) + 2 * 2 * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(vocab_size * d_model + context_length * d_model + n_layers * block + 2 * d_model + d_model * vocab_size)
'''),
        'positions_not_counted': (['position', 'context_length', 'embedding'], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    block = 4 * d_model * d_model + 2 * 2 * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(vocab_size * d_model + n_layers * block + 2 * d_model + d_model * vocab_size)
'''),
        'mlp_not_4x': (['4 * d_model', 'wider', 'mlp'], '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    block = 4 * d_model * d_model + 2 * 2 * d_model + (d_model * d_model + d_model) + (d_model * d_model + d_model)
    return int(vocab_size * d_model + context_length * d_model + n_layers * block + 2 * d_model + d_model * vocab_size)
'''),
    },
    'causal_lm_loss': {
        'sum_not_mean': (['mean', 'sum', 'average'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="sum")
'''),
        'log_of_softmax': (['log_softmax', 'overflow', 'log(0)'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    p = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)
    return -torch.log(p.gather(-1, targets.long().unsqueeze(-1))).mean()
'''),
        'shifted_targets': (['shift', 'already', 'aligned'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), targets[:, 1:].reshape(-1))
'''),
        'transposed_wrong': (['class dimension', 'transpose', 'flatten'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.transpose(0, 1).reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
        'positive_sign': (['minus', 'sign', 'negative'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.long().unsqueeze(-1)).squeeze(-1).mean()
'''),
        'nll_on_logits': (['log_softmax', 'nll_loss', 'log-probabilities'], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.nll_loss(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
    },
    'generate': {
        'temperature_multiplied': (['divide', 'temperature', 'multipl'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) * temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.shape[-1]), dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
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
        'top_k_no_renormalise': (['renormalis', 'sum to 1', 'top_k'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.shape[-1]), dim=-1).values[..., -1:]
        probs = torch.softmax(logits, dim=-1)
        return probs.masked_fill(logits < kth, 0.0)
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
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
        'top_k_smallest': (['largest', 'smallest', 'topk'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.shape[-1]), dim=-1, largest=False).values[..., -1:]
        logits = logits.masked_fill(logits > kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
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
        'no_value_error': (['valueerror', 'context_length', 'raise'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.shape[-1]), dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
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
        'first_position_logits': (['last position', '-1', 'last'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.shape[-1]), dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
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
        'only_new_tokens': (['prompt', 'followed by', 'concatenat'], '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.shape[-1]), dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
    tokens = prompt[:, :0]
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
    },
}

VARIANTS = {
    'encode': {
        'dict_join': '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in torch.as_tensor(ids).tolist())
''',
        'index_numpy': '''
def encode(text, vocabulary):
    return torch.as_tensor([vocabulary.index(c) for c in text], dtype=torch.long).reshape(len(text))


def decode(ids, vocabulary):
    chars = np.array(list(vocabulary))
    return "".join(chars[np.asarray(ids, dtype=np.int64)].tolist())
''',
    },
    'block_helpers': {
        'mean_var': '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    queries, keys, values = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
        'var_mean_einsum': '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    var, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    q, k, v = torch.as_tensor(queries), torch.as_tensor(keys), torch.as_tensor(values)
    n_q, n_k = q.shape[-2], k.shape[-2]
    scores = torch.einsum("...qd,...kd->...qk", q, k) * q.shape[-1] ** -0.5
    future = torch.arange(n_k)[None, :] > torch.arange(n_k - n_q, n_k)[:, None]
    return scores.masked_fill(future, -torch.inf).softmax(dim=-1) @ v
''',
    },
    'block_forward': {
        'pre_ln': '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q, k, v = self._split(self.w_query(inputs)), self._split(self.w_key(inputs)), self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        out = causal_attention(q, k, v)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.w_out(out), (k, v)


class Block(nn.Module):
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
    t = lambda a: torch.as_tensor(a).to(inputs.dtype)
    attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms = map(
        t, (attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms))
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
    },
    'count_parameters': {
        'explicit_sum': '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    block = 4 * d_model * d_model + 2 * 2 * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return int(vocab_size * d_model + context_length * d_model + n_layers * block + 2 * d_model + d_model * vocab_size)
''',
        'closed_form': '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length, self.use_positions, self.use_norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_new = token_ids.shape[-1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
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
    per_block = 12 * d ** 2 + 9 * d
    return (2 * vocab_size + context_length + 2) * d + n_layers * per_block
''',
    },
    'causal_lm_loss': {
        'cross_entropy_flat': '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        'log_softmax_gather': '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.long().unsqueeze(-1)).squeeze(-1).mean()
''',
    },
    'generate': {
        'topk_mask': '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, min(top_k, logits.shape[-1]), dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
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
        'scatter_renormalise': '''
def next_token_probabilities(logits, temperature, top_k=None):
    probs = torch.softmax(torch.as_tensor(logits) / temperature, dim=-1)
    if top_k is not None:
        keep = torch.zeros_like(probs, dtype=torch.bool)
        keep.scatter_(-1, torch.topk(probs, min(top_k, probs.shape[-1]), dim=-1).indices, True)
        probs = torch.where(keep, probs, torch.zeros_like(probs))
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
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
    },
}

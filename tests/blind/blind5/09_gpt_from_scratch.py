"""Blind set 5, notebook 09: A GPT of your own. Written from notebooks/09_gpt_from_scratch.ipynb only."""

_ENC = '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''

_HELP = '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=scores.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''

_BLOCK = '''
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
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def _ln(self, norm, x):
        return layer_norm(x, norm.weight, norm.bias) if self.norm else x

    def forward(self, x, cache=None):
        a, cache = self.attention(self._ln(self.norm_1, x), cache)
        h = x + a if self.residual else a
        m = self.mlp(self._ln(self.norm_2, h))
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    x = torch.as_tensor(inputs)
    t = lambda a: torch.as_tensor(a, dtype=x.dtype)
    block = Block(x.shape[-1], n_heads).to(x.dtype)
    with torch.no_grad():
        att = block.attention
        for lin, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), t(attention_w)):
            lin.weight.copy_(w.T)
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
        return block(x)[0]
'''

_GPT = '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.positions, self.norm = context_length, positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers))
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        x = self.token_embedding(token_ids)
        if self.positions:
            pos = torch.arange(n_cached, n_cached + token_ids.shape[1], device=token_ids.device)
            x = x + self.position_embedding(pos)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache
'''

_COUNT = _GPT + '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    per_block = 4 * d_model * d_model + 2 * 2 * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)
    return vocab_size * d_model + context_length * d_model + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''

_NTP = '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits) / temperature
    if top_k is not None:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(logits, dim=-1)
'''

_GEN = '''

def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    prompt = torch.as_tensor(prompt)
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("prompt and new tokens do not fit in the context")
    out = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, LASTPOS, :]
            if temperature == 0:
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            out = torch.cat([out, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(FEED, cache)
    return out
'''


def _gen(ntp=_NTP, lastpos="-1", feed="nxt"):
    return ntp + _GEN.replace("LASTPOS", lastpos).replace("FEED", feed)


MISTAKES = {
    "encode": {
        "int32_ids": (["int64", "dtype", "long"], _ENC.replace("torch.int64", "torch.int32")),
        "ids_from_one": (["place", "from 0", "index"], '''
def encode(text, vocabulary):
    index = {ch: i + 1 for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i) - 1] for i in ids)
'''),
        "decode_returns_list": (["string", "join", "list"], '''
def encode(text, vocabulary):
    return torch.tensor([vocabulary.index(ch) for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[int(i)] for i in ids]
'''),
        "sorted_vocabulary": (["order", "sorted", "place in the vocabulary"], '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(sorted(set(vocabulary + text)))}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
    },
    "block_helpers": {
        "unbiased_variance": (["d - 1", "unbiased", "variance"], _HELP.replace(
            "var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)", "var = x.var(dim=-1, keepdim=True)")),
        "eps_outside_sqrt": (["eps", "inside the square root", "epsilon"], _HELP.replace(
            "torch.sqrt(var + eps)", "(torch.sqrt(var) + eps)")),
        "upper_left_mask": (["lower-right", "n_keys - n_queries", "corner"], _HELP.replace(
            ".tril(diagonal=n_k - n_q)", ".tril()")),
        "softmax_over_queries": (["dim", "keys", "softmax over"], _HELP.replace(
            "torch.softmax(scores, dim=-1)", "torch.softmax(scores, dim=-2).nan_to_num(0.0)")),
        "scale_by_dk_not_sqrt": (["sqrt", "square root", "d_k"], _HELP.replace(
            "math.sqrt(queries.shape[-1])", "queries.shape[-1]")),
    },
    "block_forward": {
        "post_ln": (["pre-ln", "before", "layer norm"], _BLOCK.replace(
            "        a, cache = self.attention(self._ln(self.norm_1, x), cache)\n"
            "        h = x + a if self.residual else a\n"
            "        m = self.mlp(self._ln(self.norm_2, h))\n"
            "        out = h + m if self.residual else m\n",
            "        a, cache = self.attention(x, cache)\n"
            "        h = self._ln(self.norm_1, x + a)\n"
            "        out = self._ln(self.norm_2, h + self.mlp(h))\n")),
        "weights_not_transposed": (["transpose", "(out, in)", ".t"], _BLOCK.replace("lin.weight.copy_(w.T)", "lin.weight.copy_(w)")),
        "relu_mlp": (["gelu", "relu", "activation"], _BLOCK.replace("nn.GELU()", "nn.ReLU()")),
        "no_residual_mlp": (["residual", "h +", "addition"], _BLOCK.replace(
            "out = h + m if self.residual else m", "out = m")),
        "norm_2_on_x": (["norm_2", "h", "second layer norm"], _BLOCK.replace(
            "m = self.mlp(self._ln(self.norm_2, h))", "m = self.mlp(self._ln(self.norm_2, x))")),
    },
    "count_parameters": {
        "no_mlp_biases": (["bias", "mlp", "4 * d_model"], _GPT + '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    per_block = 4 * d_model * d_model + 4 * d_model + 8 * d_model * d_model
    return vocab_size * d_model + context_length * d_model + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''),
        "no_layer_norms": (["layer norm", "gamma", "beta"], _GPT + '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    per_block = 4 * d_model * d_model + 8 * d_model * d_model + 5 * d_model
    return vocab_size * d_model + context_length * d_model + n_layers * per_block + d_model * vocab_size
'''),
        "tied_head": (["head", "output layer", "vocab_size"], _GPT + '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    per_block = 12 * d_model * d_model + 9 * d_model
    return vocab_size * d_model + context_length * d_model + n_layers * per_block + 2 * d_model
'''),
        "no_position_embedding": (["position", "context_length", "embedding"], _GPT + '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    per_block = 12 * d_model * d_model + 9 * d_model
    return 2 * vocab_size * d_model + n_layers * per_block + 2 * d_model
'''),
    },
    "causal_lm_loss": {
        "sum_not_mean": (["mean", "sum", "average"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets[..., None]).sum()
'''),
        "naive_log_softmax": (["overflow", "log_softmax", "maximum"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    p = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)
    return -torch.log(p.gather(-1, targets[..., None])).mean()
'''),
        "shift_again": (["shift", "already", "targets"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    lg = logits[:, :-1]
    tg = targets[:, 1:]
    return nn.functional.cross_entropy(lg.reshape(-1, lg.shape[-1]), tg.reshape(-1))
'''),
        "no_minus_sign": (["sign", "negative", "minus"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets[..., None]).mean()
'''),
    },
    "generate": {
        "temperature_multiplies": (["temperature", "divide", "multipl"], _gen(ntp=_NTP.replace(
            "torch.as_tensor(logits) / temperature", "torch.as_tensor(logits) * temperature"))),
        "topk_no_renormalise": (["renormal", "sum to 1", "top_k"], _gen(ntp='''
def next_token_probabilities(logits, temperature, top_k=None):
    p = torch.softmax(torch.as_tensor(logits) / temperature, dim=-1)
    if top_k is not None:
        kth = torch.topk(p, top_k, dim=-1).values[..., -1:]
        p = torch.where(p < kth, torch.zeros_like(p), p)
    return p
''')),
        "topk_smallest": (["largest", "top_k", "smallest"], _gen(ntp=_NTP.replace(
            "torch.topk(logits, top_k, dim=-1).values[..., -1:]",
            "torch.topk(logits, top_k, dim=-1, largest=False).values[..., -1:]").replace("logits < kth", "logits > kth"))),
        "first_position_logits": (["last position", "-1", "last"], _gen(lastpos="0")),
        "feeds_whole_sequence_with_cache": (["that token alone", "cache", "new token"], _gen(feed="out")),
    },
}

VARIANTS = {
    "encode": {
        "dict": _ENC,
        "find_tensor": '''
def encode(text, vocabulary):
    return torch.as_tensor([vocabulary.find(c) for c in text]).long()


def decode(ids, vocabulary):
    return "".join(map(vocabulary.__getitem__, torch.as_tensor(ids).tolist()))
''',
    },
    "block_helpers": {
        "plain": _HELP,
        "var_unbiased_false_where": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    x = torch.as_tensor(x)
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, unbiased=False, keepdim=True)
    return (x - mu) * torch.rsqrt(var + eps) * torch.as_tensor(gamma, dtype=x.dtype) + torch.as_tensor(beta, dtype=x.dtype)


def causal_attention(queries, keys, values):
    queries, keys, values = (torch.as_tensor(a) for a in (queries, keys, values))
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    i = torch.arange(n_q)[:, None] + (n_k - n_q)
    j = torch.arange(n_k)[None, :]
    s = torch.einsum("...qd,...kd->...qk", queries, keys) / queries.shape[-1] ** 0.5
    s = torch.where(j <= i, s, torch.tensor(float("-inf"), dtype=s.dtype))
    return torch.einsum("...qk,...kv->...qv", torch.softmax(s, dim=-1), values)
''',
    },
    "block_forward": {
        "modules": _BLOCK,
        "state_dict_load": _BLOCK.replace('''    with torch.no_grad():
        att = block.attention
        for lin, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), t(attention_w)):
            lin.weight.copy_(w.T)
        block.mlp[0].weight.copy_(t(mlp_w_in).T)
        block.mlp[0].bias.copy_(t(mlp_b_in))
        block.mlp[2].weight.copy_(t(mlp_w_out).T)
        block.mlp[2].bias.copy_(t(mlp_b_out))
        norms = t(norms)
        block.norm_1.weight.copy_(norms[0, 0])
        block.norm_1.bias.copy_(norms[0, 1])
        block.norm_2.weight.copy_(norms[1, 0])
        block.norm_2.bias.copy_(norms[1, 1])
''', '''    aw, n = t(attention_w), t(norms)
    state = {
        "attention.w_query.weight": aw[0].T, "attention.w_key.weight": aw[1].T,
        "attention.w_value.weight": aw[2].T, "attention.w_out.weight": aw[3].T,
        "mlp.0.weight": t(mlp_w_in).T, "mlp.0.bias": t(mlp_b_in),
        "mlp.2.weight": t(mlp_w_out).T, "mlp.2.bias": t(mlp_b_out),
        "norm_1.weight": n[0, 0], "norm_1.bias": n[0, 1], "norm_2.weight": n[1, 0], "norm_2.bias": n[1, 1],
    }
    with torch.no_grad():
        block.load_state_dict({k: v.contiguous() for k, v in state.items()})
'''),
    },
    "count_parameters": {
        "closed_form": _COUNT,
        "expanded": _GPT + '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    return int(2 * vocab_size * d + context_length * d + n_layers * (12 * d * d + 9 * d) + 2 * d)
''',
    },
    "causal_lm_loss": {
        "cross_entropy_reshape": '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        "logsumexp_gather": '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    picked = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (torch.logsumexp(logits, dim=-1) - picked).mean()
''',
        "ce_transpose": '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.transpose(1, 2), targets)
''',
    },
    "generate": {
        "cache_loop": _gen(),
        "sort_based_topk": '''
def next_token_probabilities(logits, temperature, top_k=None):
    logits = torch.as_tensor(logits)
    p = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        idx = torch.argsort(logits, dim=-1, descending=True)[..., :top_k]
        keep = torch.zeros_like(p, dtype=torch.bool).scatter(-1, idx, True)
        p = torch.where(keep, p, torch.zeros_like(p))
        p = p / p.sum(dim=-1, keepdim=True)
    return p
''' + _GEN.replace("LASTPOS", "-1").replace("FEED", "nxt"),
    },
}

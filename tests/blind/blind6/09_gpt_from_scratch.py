"""Blind set 6, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

_ENC = '''
def encode(text, vocabulary):
    index = {ch: i for i, ch in enumerate(vocabulary)}
    return torch.tensor([index[ch] for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''

_HELP = '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-1, -2) / math.sqrt(keys.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''

_BLOCK = '''
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
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        b, h, t, dh = context.shape
        context = context.transpose(1, 2).reshape(b, t, h * dh)
        return self.w_out(context), (k, v)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
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
    att = block.attention
    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(w.T)
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(mlp_b_in)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(mlp_b_out)
        block.norm_1.weight.copy_(norms[0][0])
        block.norm_1.bias.copy_(norms[0][1])
        block.norm_2.weight.copy_(norms[1][0])
        block.norm_2.bias.copy_(norms[1][1])
    block.eval()
    out, _ = block(inputs)
    return out
'''

_GPT = '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length = context_length
        self.positions, self.norm = positions, norm
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.positions:
            pos = torch.arange(n_cached, n_cached + n_new, device=token_ids.device)
            x = x + self.position_embedding(pos)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache
'''

_COUNT = '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    return int(embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''

_GEN = '''
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("prompt and steps exceed the context length")
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
'''


def _edit(src, *pairs):
    for old, new in pairs:
        assert old in src, old
        src = src.replace(old, new)
    return src


MISTAKES = {
    "encode": {
        "int32": (["int64", "dtype", "int32", "long"], _edit(_ENC, ("dtype=torch.int64", "dtype=torch.int32"))),
        "decode_list": (["str", "join", "list", "string"], _edit(_ENC,
            ('return "".join(vocabulary[i] for i in ids.tolist())', "return [vocabulary[i] for i in ids.tolist()]"))),
        "ids_from_one": (["from 0", "off-by-one", "start", "place"], _edit(_ENC,
            ("enumerate(vocabulary)}", "enumerate(vocabulary, start=1)}"),
            ("vocabulary[i] for i in", "vocabulary[i - 1] for i in"))),
        "code_points": (["ord", "code point", "vocabulary", "place"], '''
def encode(text, vocabulary):
    return torch.tensor([ord(ch) for ch in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(chr(i) for i in ids.tolist())
'''),
        "float_ids": (["int64", "dtype", "float", "integer"], _edit(_ENC, ("dtype=torch.int64", "dtype=torch.float32"))),
    },
    "block_helpers": {
        "unbiased_variance": (["unbiased", "n - 1", "variance", "correction"], _edit(_HELP,
            ("var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)", "var = x.var(dim=-1, keepdim=True)"))),
        "eps_outside_sqrt": (["eps", "inside the square root", "sqrt", "epsilon"], _edit(_HELP,
            ("torch.sqrt(var + eps)", "(torch.sqrt(var) + eps)"))),
        "upper_left_mask": (["lower-right", "upper-left", "corner", "last n_queries"], _edit(_HELP,
            (".tril(diagonal=n_k - n_q)", ".tril()"))),
        "no_scaling": (["sqrt", "scale", "d_k"], _edit(_HELP,
            (" / math.sqrt(keys.shape[-1])", ""))),
        "std_not_var": (["variance", "std", "square root", "twice"], _edit(_HELP,
            ("torch.sqrt(var + eps)", "(torch.sqrt(torch.sqrt(var)) + eps)"))),
    },
    "block_forward": {
        "post_ln": (["pre-layernorm", "post", "before", "ln_1(x)", "pre-ln"], _edit(_BLOCK,
            ('''        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
''', '''        a, cache = self.attention(x, cache)
        h = x + a if self.residual else a
        h = layer_norm(h, self.norm_1.weight, self.norm_1.bias) if self.norm else h
        m = self.mlp(h)
        out = h + m if self.residual else m
        out = layer_norm(out, self.norm_2.weight, self.norm_2.bias) if self.norm else out
'''))),
        "residual_of_normalised": (["residual", "x +", "normalised", "un-normalised"], _edit(_BLOCK,
            ("h = x + a if self.residual else a", "h = a_in + a if self.residual else a"),
            ("out = h + m if self.residual else m", "out = m_in + m if self.residual else m"))),
        "weights_not_transposed": (["transpose", ".t", "(out, in)", "out_features"], _edit(_BLOCK,
            ("layer.weight.copy_(w.T)", "layer.weight.copy_(w)"))),
        "tanh_gelu": (["gelu", "tanh", "approximat"], _edit(_BLOCK,
            ("nn.GELU()", 'nn.GELU(approximate="tanh")'))),
        "norms_swapped": (["norm_1", "norm_2", "norms[0]", "order"], _edit(_BLOCK,
            ("norm_1.weight.copy_(norms[0][0])", "norm_1.weight.copy_(norms[1][0])"),
            ("norm_1.bias.copy_(norms[0][1])", "norm_1.bias.copy_(norms[1][1])"),
            ("norm_2.weight.copy_(norms[1][0])", "norm_2.weight.copy_(norms[0][0])"),
            ("norm_2.bias.copy_(norms[1][1])", "norm_2.bias.copy_(norms[0][1])"))),
        "heads_without_transpose": (["transpose", "heads", "view", "reshape"], _edit(_BLOCK,
            ("return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
             "return x.reshape(b, self.n_heads, t, self.d_head)"),
            ("context = context.transpose(1, 2).reshape(b, t, h * dh)", "context = context.reshape(b, t, h * dh)"))),
    },
    "count_parameters": {
        "no_head": (["head", "output", "vocab_size", "tied"], _GPT + _edit(_COUNT,
            (" + d_model * vocab_size)", ")"))),
        "no_mlp_biases": (["bias", "mlp", "4 * d_model"], _GPT + _edit(_COUNT,
            ("mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model",
             "mlp = d_model * 4 * d_model + 4 * d_model * d_model"))),
        "no_block_norms": (["layer norm", "gamma", "beta", "norm_1"], _GPT + _edit(_COUNT,
            ("norms = 2 * 2 * d_model", "norms = 0"))),
        "no_positions": (["position", "context_length"], _GPT + _edit(_COUNT,
            ("embeddings = vocab_size * d_model + context_length * d_model", "embeddings = vocab_size * d_model"))),
        "mlp_not_wider": (["4 * d_model", "four times", "mlp", "wider"], _GPT + _edit(_COUNT,
            ("mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model",
             "mlp = d_model * d_model + d_model + d_model * d_model + d_model"))),
        "no_final_norm": (["final", "final_norm", "layer norm"], _GPT + _edit(_COUNT,
            ("n_layers * per_block + 2 * d_model +", "n_layers * per_block +"))),
    },
    "causal_lm_loss": {
        "sum_not_mean": (["mean", "sum", "average"], '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).sum()
'''),
        "no_reshape": (["reshape", "flatten", "class dimension", "dim 1", "view"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits, targets)
'''),
        "no_minus": (["minus", "negative", "sign"], '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
        "log_of_softmax": (["log_softmax", "log(0)", "underflow", "inf"], '''
def causal_lm_loss(logits, targets):
    p = torch.softmax(logits, dim=-1)
    return -torch.log(p.gather(-1, targets.unsqueeze(-1))).mean()
'''),
        "shifted_again": (["shift", "already", "next token", "targets"], '''
def causal_lm_loss(logits, targets):
    logits, targets = logits[:, :-1], targets[:, 1:]
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
        "mean_over_batch": (["mean over all", "batch * tokens", "average", "tokens"], '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1).sum(dim=1).mean()
'''),
    },
    "generate": {
        "temperature_multiplied": (["divide", "temperature", "multipl"], _edit(_GEN,
            ("scaled = logits / temperature", "scaled = logits * temperature"))),
        "top_k_not_renormalised": (["renormal", "sum to 1", "normalis"], _edit(_GEN,
            ('''    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)
''', '''    scaled = logits / temperature
    probs = torch.softmax(scaled, dim=-1)
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        probs = probs.masked_fill(scaled < kth, 0.0)
    return probs
'''))),
        "top_k_off_by_one": (["top_k", "k largest", "off-by-one", "<="], _edit(_GEN,
            ("scaled.masked_fill(scaled < kth,", "scaled.masked_fill(scaled <= kth,"))),
        "no_value_error": (["valueerror", "context_length", "too long", "raise"], _edit(_GEN,
            ('''    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("prompt and steps exceed the context length")
''', ""))),
        "whole_sequence_each_step": (["alone", "cache", "only the new token", "last token"], _edit(_GEN,
            ("logits, cache = model(nxt, cache)", "logits, cache = model(tokens, cache)"))),
        "first_position": (["last position", "-1", "last"], _edit(_GEN,
            ("last = logits[:, -1, :]", "last = logits[:, 0, :]"))),
        "extra_call": (["stop", "steps", "once more", "extra"], _edit(_GEN,
            ("            if step < steps - 1:\n                logits, cache = model(nxt, cache)",
             "            logits, cache = model(nxt, cache)"))),
        "only_new_tokens": (["prompt", "followed by", "new tokens"], _edit(_GEN,
            ("    return tokens\n", "    return tokens[:, prompt.shape[1]:]\n"))),
    },
}

VARIANTS = {
    "encode": {
        "dict": _ENC,
        "str_index": '''
def encode(text, vocabulary):
    return torch.as_tensor([vocabulary.index(c) for c in text], dtype=torch.long)


def decode(ids, vocabulary):
    chars = []
    for i in ids:
        chars.append(vocabulary[int(i)])
    return "".join(chars)
''',
    },
    "block_helpers": {
        "by_hand": _HELP,
        "var_unbiased_false": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return gamma * (x - mu) * torch.rsqrt(var + eps) + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    i = torch.arange(n_q)[:, None] + (n_k - n_q)
    j = torch.arange(n_k)[None, :]
    scores = torch.matmul(queries, keys.transpose(-2, -1)) / keys.shape[-1] ** 0.5
    scores = scores.masked_fill(j > i, -torch.inf)
    return torch.matmul(scores.softmax(dim=-1), values)
''',
    },
    "block_forward": {
        "modules": _BLOCK,
        "copy_by_assignment": _edit(_BLOCK,
            ('''    with torch.no_grad():
        for layer, w in zip((att.w_query, att.w_key, att.w_value, att.w_out), attention_w):
            layer.weight.copy_(w.T)
''', '''    with torch.no_grad():
        att.w_query.weight[:] = attention_w[0].T
        att.w_key.weight[:] = attention_w[1].T
        att.w_value.weight[:] = attention_w[2].T
        att.w_out.weight[:] = attention_w[3].T
''')),
    },
    "count_parameters": {
        "by_parts": _GPT + _COUNT,
        "closed_form": _GPT + '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    return int(2 * vocab_size * d + context_length * d + n_layers * (12 * d * d + 9 * d) + 2 * d)
''',
    },
    "causal_lm_loss": {
        "cross_entropy": '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        "logsumexp": '''
def causal_lm_loss(logits, targets):
    picked = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (torch.logsumexp(logits, dim=-1) - picked).mean()
''',
    },
    "generate": {
        "loop_with_cache": _GEN,
        "sorted_top_k": '''
def next_token_probabilities(logits, temperature, top_k=None):
    probs = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        top = torch.topk(logits, top_k, dim=-1).indices
        keep = torch.zeros_like(probs, dtype=torch.bool).scatter(-1, top, True)
        probs = probs * keep
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError(f"{prompt.shape[-1]} + {steps} tokens do not fit in {model.context_length}")
    out = [prompt]
    with torch.no_grad():
        logits, cache = model(prompt)
        for i in range(steps):
            row = logits[:, -1]
            if temperature == 0:
                token = row.argmax(dim=-1).unsqueeze(-1)
            else:
                token = torch.multinomial(next_token_probabilities(row, temperature, top_k), 1,
                                          generator=generator)
            out.append(token)
            if i + 1 < steps:
                logits, cache = model(token, cache)
    return torch.cat(out, dim=-1)
''',
    },
}

"""Blind set 3, notebook 09: a GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only.

Cells with several functions or classes are one learner's whole cell with one line changed (built by _edit)."""

_CODEC = '''
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return torch.tensor([index[character] for character in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
'''

_HELPERS = '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    scores = queries @ keys.transpose(-1, -2) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_queries, n_keys, dtype=torch.bool).tril(diagonal=n_keys - n_queries)
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
        out = self.w_out(context.transpose(1, 2).reshape(b, t, d))
        return out, (k, v)


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
        attended, cache = self.attention(a_in, cache)
        h = x + attended if self.residual else attended
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = h + self.mlp(m_in) if self.residual else self.mlp(m_in)
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    inputs = torch.as_tensor(inputs)
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)

    def as_t(a):
        return torch.as_tensor(a, dtype=inputs.dtype)

    with torch.no_grad():
        block.attention.w_query.weight.copy_(as_t(attention_w[0]).T)
        block.attention.w_key.weight.copy_(as_t(attention_w[1]).T)
        block.attention.w_value.weight.copy_(as_t(attention_w[2]).T)
        block.attention.w_out.weight.copy_(as_t(attention_w[3]).T)
        block.mlp[0].weight.copy_(as_t(mlp_w_in).T)
        block.mlp[0].bias.copy_(as_t(mlp_b_in))
        block.mlp[2].weight.copy_(as_t(mlp_w_out).T)
        block.mlp[2].bias.copy_(as_t(mlp_b_out))
        block.norm_1.weight.copy_(as_t(norms[0][0]))
        block.norm_1.bias.copy_(as_t(norms[0][1]))
        block.norm_2.weight.copy_(as_t(norms[1][0]))
        block.norm_2.bias.copy_(as_t(norms[1][1]))
    block.eval()
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''

_GPT = '''
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
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
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + token_ids.shape[1]))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, block_cache = block(x, None if cache is None else cache[i])
            new_cache.append(block_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    per_block = attention + mlp + norms
    embeddings = vocab_size * d_model + context_length * d_model
    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size
'''

_GENERATE = '''
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
                probabilities = next_token_probabilities(last, temperature, top_k)
                next_token = torch.multinomial(probabilities, 1, generator=generator)
            tokens = torch.cat([tokens, next_token], dim=1)
            if step < steps - 1:
                logits, cache = model(next_token, cache)
    return tokens
'''


def _edit(base, *pairs):
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert old in base, old
        base = base.replace(old, new)
    return base


MISTAKES = {
    "encode": {
        "int32": (["int64", "dtype", "long"], _edit(_CODEC, "dtype=torch.int64", "dtype=torch.int32")),
        "decode_list": (["string", "join", "str"], _edit(_CODEC,
            'return "".join(vocabulary[i] for i in ids.tolist())', "return [vocabulary[i] for i in ids.tolist()]")),
        "ids_from_1": (["place", "from 0", "off-by-one", "start"], _edit(_CODEC,
            "enumerate(vocabulary)}", "enumerate(vocabulary, start=1)}",
            "vocabulary[i] for i in ids.tolist()", "vocabulary[i - 1] for i in ids.tolist()")),
        "encode_list": (["tensor", "list", "torch.tensor"], _edit(_CODEC,
            "return torch.tensor([index[character] for character in text], dtype=torch.int64)",
            "return [index[character] for character in text]",
            "ids.tolist()", "list(ids)")),
        "decode_space_join": (["join", "separator", "space"], _edit(_CODEC, 'return "".join(', 'return " ".join(')),
    },
    "block_helpers": {
        "unbiased_variance": (["unbiased", "n - 1", "biased", "divided by n"], _edit(_HELPERS,
            "variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)", "variance = x.var(dim=-1, keepdim=True)")),
        "eps_outside_sqrt": (["eps", "inside", "square root", "variance + eps"], _edit(_HELPERS,
            "torch.sqrt(variance + eps)", "(torch.sqrt(variance) + eps)")),
        "upper_left_mask": (["lower-right", "corner", "diagonal", "last n_queries"], _edit(_HELPERS,
            ".tril(diagonal=n_keys - n_queries)", ".tril()")),
        "no_scale": (["sqrt", "scale", "d_k"], _edit(_HELPERS,
            "scores = queries @ keys.transpose(-1, -2) / math.sqrt(queries.shape[-1])",
            "scores = queries @ keys.transpose(-1, -2)")),
        "mask_inverted": (["future", "mask", "inverted", "blocked"], _edit(_HELPERS,
            "masked_fill(~allowed,", "masked_fill(allowed,")),
        "norm_over_batch": (["last axis", "dim", "each vector", "axis"], _edit(_HELPERS,
            "mean = x.mean(dim=-1, keepdim=True)\n    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)",
            "mean = x.mean(dim=0, keepdim=True)\n    variance = ((x - mean) ** 2).mean(dim=0, keepdim=True)")),
    },
    "block_forward": {
        "post_ln": (["pre-ln", "before", "post", "order"], _edit(_BLOCK,
            "        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x\n"
            "        attended, cache = self.attention(a_in, cache)\n"
            "        h = x + attended if self.residual else attended\n"
            "        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h\n"
            "        out = h + self.mlp(m_in) if self.residual else self.mlp(m_in)\n",
            "        attended, cache = self.attention(x, cache)\n"
            "        h = layer_norm(x + attended, self.norm_1.weight, self.norm_1.bias)\n"
            "        out = layer_norm(h + self.mlp(h), self.norm_2.weight, self.norm_2.bias)\n")),
        "relu": (["gelu", "relu"], _edit(_BLOCK, "nn.GELU()", "nn.ReLU()")),
        "second_residual_from_x": (["residual", "h", "x", "attention output"], _edit(_BLOCK,
            "out = h + self.mlp(m_in) if self.residual", "out = x + self.mlp(m_in) if self.residual")),
        "norms_swapped": (["norm_1", "norm_2", "norms[0]", "order"], _edit(_BLOCK,
            "block.norm_1.weight.copy_(as_t(norms[0][0]))\n        block.norm_1.bias.copy_(as_t(norms[0][1]))",
            "block.norm_1.weight.copy_(as_t(norms[1][0]))\n        block.norm_1.bias.copy_(as_t(norms[1][1]))",
            "block.norm_2.weight.copy_(as_t(norms[1][0]))\n        block.norm_2.bias.copy_(as_t(norms[1][1]))",
            "block.norm_2.weight.copy_(as_t(norms[0][0]))\n        block.norm_2.bias.copy_(as_t(norms[0][1]))")),
        "heads_view_no_transpose": (["heads", "split", "transpose", "columns"], _edit(_BLOCK,
            "return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
            "return x.view(b, self.n_heads, t, self.d_head)",
            "context.transpose(1, 2).reshape(b, t, d)", "context.reshape(b, t, d)")),
        "attention_weights_not_transposed": (["transpose", "(out, in)", ".t", "nn.linear"], _edit(_BLOCK,
            "block.attention.w_query.weight.copy_(as_t(attention_w[0]).T)", "block.attention.w_query.weight.copy_(as_t(attention_w[0]))",
            "block.attention.w_key.weight.copy_(as_t(attention_w[1]).T)", "block.attention.w_key.weight.copy_(as_t(attention_w[1]))",
            "block.attention.w_value.weight.copy_(as_t(attention_w[2]).T)", "block.attention.w_value.weight.copy_(as_t(attention_w[2]))",
            "block.attention.w_out.weight.copy_(as_t(attention_w[3]).T)", "block.attention.w_out.weight.copy_(as_t(attention_w[3]))")),
    },
    "count_parameters": {
        "head_bias": (["bias", "head", "bias=false"], _edit(_GPT,
            "2 * d_model + d_model * vocab_size\n", "2 * d_model + d_model * vocab_size + vocab_size\n")),
        "mlp_no_biases": (["bias", "mlp", "4 * d_model"], _edit(_GPT,
            "mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model",
            "mlp = d_model * 4 * d_model + 4 * d_model * d_model")),
        "block_norms_missing": (["layer norm", "norm_1", "norm_2", "gamma", "beta"], _edit(_GPT,
            "per_block = attention + mlp + norms", "per_block = attention + mlp")),
        "attention_biases": (["bias", "attention", "bias=false"], _edit(_GPT,
            "attention = 4 * d_model * d_model", "attention = 4 * (d_model * d_model + d_model)")),
        "mlp_not_wider": (["4 *", "wider", "mlp", "4 d_model"], _edit(_GPT,
            "mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model",
            "mlp = 2 * (d_model * d_model + d_model)")),
        "final_norm_missing": (["final", "final_norm", "layer norm"], _edit(_GPT,
            "n_layers * per_block + 2 * d_model + d_model * vocab_size", "n_layers * per_block + d_model * vocab_size")),
    },
    "causal_lm_loss": {
        "sum_not_mean": (["mean", "average", "sum"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_p = torch.log_softmax(logits, dim=-1)
    return -log_p.gather(-1, targets.unsqueeze(-1)).sum()
'''),
        "log_of_softmax": (["log_softmax", "overflow", "log(0)", "logsumexp", "large logits"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    p = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)
    return -torch.log(p.gather(-1, targets.unsqueeze(-1))).mean()
'''),
        "shift_again": (["shift", "aligned", "already shifted"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_p = torch.log_softmax(logits[:, :-1], dim=-1)
    return -log_p.gather(-1, targets[:, 1:].unsqueeze(-1)).mean()
'''),
        "no_minus": (["sign", "minus", "negative"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_p = torch.log_softmax(logits, dim=-1)
    return log_p.gather(-1, targets.unsqueeze(-1)).mean()
'''),
        "cross_entropy_no_reshape": (["reshape", "class", "dimension", "(n, c)", "shape it wants"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits, targets)
'''),
        "softmax_wrong_dim": (["dim", "vocab", "last axis", "tokens"], '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_p = torch.log_softmax(logits, dim=1)
    return -log_p.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    },
    "generate": {
        "temperature_multiplies": (["divide", "temperature", "multipl"], _edit(_GENERATE,
            "scaled = logits / temperature", "scaled = logits * temperature")),
        "top_k_not_renormalised": (["renormal", "sum to 1", "after the softmax"], _edit(_GENERATE,
            "    scaled = logits / temperature\n    if top_k is not None:\n"
            "        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]\n"
            "        scaled = scaled.masked_fill(scaled < kth, float(\"-inf\"))\n"
            "    return torch.softmax(scaled, dim=-1)\n",
            "    probabilities = torch.softmax(logits / temperature, dim=-1)\n    if top_k is not None:\n"
            "        kth = torch.topk(probabilities, top_k, dim=-1).values[..., -1:]\n"
            "        probabilities = probabilities.masked_fill(probabilities < kth, 0.0)\n"
            "    return probabilities\n")),
        "top_k_off_by_one": (["top_k", "off-by-one", "largest", "k + 1"], _edit(_GENERATE,
            "kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]",
            "kth = torch.topk(scaled, min(top_k + 1, scaled.shape[-1]), dim=-1).values[..., -1:]")),
        "first_position": (["last position", "-1", "last"], _edit(_GENERATE,
            "last = logits[:, -1, :]", "last = logits[:, 0, :]")),
        "no_length_check": (["valueerror", "context_length", "raise", "too long"], _edit(_GENERATE,
            "    if prompt.shape[1] + steps > model.context_length:\n"
            "        raise ValueError(\"the prompt and the new tokens do not fit in the context\")\n", "")),
        "rerun_all_tokens_with_cache": (["that token alone", "cache", "new token", "only the new"], _edit(_GENERATE,
            "logits, cache = model(next_token, cache)", "logits, cache = model(tokens, cache)")),
    },
}

VARIANTS = {
    "encode": {
        "dict": _CODEC,
        "str_find": '''
def encode(text, vocabulary):
    return torch.tensor([vocabulary.find(c) for c in text], dtype=torch.long)


def decode(ids, vocabulary):
    chars = [vocabulary[int(i)] for i in ids]
    return "".join(chars)
''',
    },
    "block_helpers": {
        "manual": _HELPERS,
        "var_unbiased_false": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    variance, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return (x - mean) * torch.rsqrt(variance + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    rows = torch.arange(n_q)[:, None] + (n_k - n_q)
    future = torch.arange(n_k)[None, :] > rows
    scores = torch.matmul(queries / math.sqrt(queries.shape[-1]), keys.transpose(-2, -1))
    weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    return torch.matmul(weights, values)
''',
    },
    "block_forward": {
        "modules": _BLOCK,
        "load_state_dict": _edit(_BLOCK,
            _BLOCK[_BLOCK.index("    with torch.no_grad():\n        block.attention"):_BLOCK.index("    block.eval()")],
            "    names = ['w_query', 'w_key', 'w_value', 'w_out']\n"
            "    state = {f'attention.{n}.weight': as_t(attention_w[i]).T.contiguous() for i, n in enumerate(names)}\n"
            "    state.update({'mlp.0.weight': as_t(mlp_w_in).T.contiguous(), 'mlp.0.bias': as_t(mlp_b_in),\n"
            "                  'mlp.2.weight': as_t(mlp_w_out).T.contiguous(), 'mlp.2.bias': as_t(mlp_b_out),\n"
            "                  'norm_1.weight': as_t(norms[0][0]), 'norm_1.bias': as_t(norms[0][1]),\n"
            "                  'norm_2.weight': as_t(norms[1][0]), 'norm_2.bias': as_t(norms[1][1])})\n"
            "    block.load_state_dict(state)\n"),
    },
    "count_parameters": {
        "by_parts": _GPT,
        "closed_form": _edit(_GPT,
            "    attention = 4 * d_model * d_model\n"
            "    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model\n"
            "    norms = 2 * 2 * d_model\n"
            "    per_block = attention + mlp + norms\n"
            "    embeddings = vocab_size * d_model + context_length * d_model\n"
            "    return embeddings + n_layers * per_block + 2 * d_model + d_model * vocab_size\n",
            "    return int(d_model * (2 * vocab_size + context_length + 2) + n_layers * (12 * d_model ** 2 + 9 * d_model))\n"),
    },
    "causal_lm_loss": {
        "gather": '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    log_p = torch.log_softmax(logits, dim=-1)
    return -log_p.gather(-1, targets.unsqueeze(-1)).squeeze(-1).mean()
''',
        "cross_entropy_flat": '''
def causal_lm_loss(logits, targets):
    logits, targets = torch.as_tensor(logits), torch.as_tensor(targets)
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
    },
    "generate": {
        "topk_mask": _GENERATE,
        "scatter_topk": _edit(_GENERATE,
            "    scaled = logits / temperature\n    if top_k is not None:\n"
            "        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]\n"
            "        scaled = scaled.masked_fill(scaled < kth, float(\"-inf\"))\n"
            "    return torch.softmax(scaled, dim=-1)\n",
            "    probabilities = torch.softmax(logits / temperature, dim=-1)\n    if top_k is not None:\n"
            "        top = torch.topk(probabilities, top_k, dim=-1)\n"
            "        kept = torch.zeros_like(probabilities).scatter(-1, top.indices, top.values)\n"
            "        probabilities = kept / kept.sum(dim=-1, keepdim=True)\n"
            "    return probabilities\n"),
    },
}

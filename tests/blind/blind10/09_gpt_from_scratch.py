"""Blind set 10, notebook 09: a GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

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
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1])
    allowed = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(diagonal=n_k - n_q)
    scores = scores.masked_fill(~allowed, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
'''

_BLOCK = '''
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads = n_heads
        self.scale = scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        b, t, d = x.shape
        return x.view(b, t, self.n_heads, d // self.n_heads).transpose(1, 2)

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self._split(self.w_query(inputs))
        k = self._split(self.w_key(inputs))
        v = self._split(self.w_value(inputs))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(d // self.n_heads)
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
        a, cache = self.attention(a_in, cache)
        h = x + a if self.residual else a
        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        m = self.mlp(m_in)
        out = h + m if self.residual else m
        return out, cache


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    d_model = inputs.shape[-1]
    block = Block(d_model, n_heads).to(inputs.dtype)
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
        n_new = token_ids.shape[1]
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        x = self.token_embedding(token_ids)
        if self.positions:
            pos = torch.arange(n_cached, n_cached + n_new, device=token_ids.device)
            x = x + self.position_embedding(pos)
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.norm:
            x = self.final_norm(x)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    per_block = 4 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model) + 4 * d_model
    return int(vocab_size * d_model + context_length * d_model + n_layers * per_block + 2 * d_model + d_model * vocab_size)
'''

_LOSS = '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
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
'''


def _sub(src, old, new):
    assert old in src, old
    return src.replace(old, new)


MISTAKES = {
    "encode": {
        "int32_dtype": (["int64", "dtype", "long"], _sub(_ENC, "dtype=torch.int64", "dtype=torch.int32")),
        "ord_not_vocabulary": (["vocabulary", "ord", "place", "index"], _sub(_ENC, "index[ch] for ch in text", "ord(ch) for ch in text").replace(
            'vocabulary[i] for i in ids.tolist()', 'chr(i) for i in ids.tolist()')),
        "decode_returns_list": (["string", "join", "list"], _sub(_ENC, '    return "".join(vocabulary[i] for i in ids.tolist())', '    return [vocabulary[i] for i in ids.tolist()]')),
        "one_based": (["0", "off by one", "start", "enumerate"], _sub(_ENC, "enumerate(vocabulary)}", "enumerate(vocabulary, start=1)}").replace(
            "vocabulary[i] for i", "vocabulary[i - 1] for i")),
        "decode_str_of_tensor": (["tolist", "item", "tensor", "int"], _sub(_ENC, '"".join(vocabulary[i] for i in ids.tolist())', '"".join(str(i) for i in ids)')),
    },
    "block_helpers": {
        "unbiased_variance": (["n - 1", "unbiased", "var", "divide by d"], _sub(_HELP,
            "    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)\n", "    var = x.var(dim=-1, keepdim=True)\n")),
        "std_plus_eps": (["eps", "inside", "square root", "sqrt"], _sub(_HELP,
            "torch.sqrt(var + eps)", "(torch.sqrt(var) + eps)")),
        "upper_left_mask": (["lower-right", "corner", "last n_queries", "offset"], _sub(_HELP,
            ".tril(diagonal=n_k - n_q)", ".tril()")),
        "normalise_wrong_axis": (["last axis", "dim", "features"], _sub(_HELP,
            "    mean = x.mean(dim=-1, keepdim=True)\n    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)\n",
            "    mean = x.mean(dim=0, keepdim=True)\n    var = ((x - mean) ** 2).mean(dim=0, keepdim=True)\n")),
        "no_scale": (["sqrt", "scale", "d_k"], _sub(_HELP, " / math.sqrt(queries.shape[-1])", "")),
        "mask_zero": (["-inf", "zero", "infinity"], _sub(_HELP, 'masked_fill(~allowed, float("-inf"))', 'masked_fill(~allowed, 0.0)')),
    },
    "block_forward": {
        "post_ln": (["pre-ln", "before", "norm", "order"], _sub(_BLOCK,
            "        a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x\n"
            "        a, cache = self.attention(a_in, cache)\n"
            "        h = x + a if self.residual else a\n"
            "        m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h\n"
            "        m = self.mlp(m_in)\n"
            "        out = h + m if self.residual else m\n",
            "        a, cache = self.attention(x, cache)\n"
            "        h = layer_norm(x + a, self.norm_1.weight, self.norm_1.bias)\n"
            "        out = layer_norm(h + self.mlp(h), self.norm_2.weight, self.norm_2.bias)\n")),
        "mlp_not_transposed": (["transpose", "(out, in)", "mlp", ".t"], _sub(_BLOCK,
            "        block.mlp[0].weight.copy_(mlp_w_in.T)\n", "        block.mlp[0].weight.copy_(mlp_w_in.reshape(mlp_w_in.shape[1], mlp_w_in.shape[0]))\n")),
        "residual_from_normed": (["residual", "input", "x +", "normalised"], _sub(_BLOCK,
            "        h = x + a if self.residual else a\n", "        h = a_in + a if self.residual else a\n")),
        "split_without_transpose": (["transpose", "heads", "tokens", "view"], _sub(_BLOCK,
            "        return x.view(b, t, self.n_heads, d // self.n_heads).transpose(1, 2)\n",
            "        return x.view(b, self.n_heads, t, d // self.n_heads)\n").replace(
            "context.transpose(1, 2).reshape(b, t, d)", "context.reshape(b, t, d)")),
        "norms_swapped": (["norm_1", "norm_2", "gamma", "beta"], _sub(_BLOCK,
            "        block.norm_1.weight.copy_(norms[0, 0])\n        block.norm_1.bias.copy_(norms[0, 1])\n",
            "        block.norm_1.weight.copy_(norms[0, 0])\n        block.norm_1.bias.copy_(norms[1, 0])\n")),
    },
    "count_parameters": {
        "forgot_mlp_biases": (["bias", "mlp", "4 * d_model + d_model"], _sub(_GPT,
            "(d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model)",
            "(d_model * 4 * d_model) + (4 * d_model * d_model)")),
        "forgot_final_norm": (["final", "layer norm", "final_norm"], _sub(_GPT,
            " + 2 * d_model + d_model * vocab_size)", " + d_model * vocab_size)")),
        "head_with_bias": (["bias=false", "head", "bias"], _sub(_GPT,
            " + d_model * vocab_size)", " + d_model * vocab_size + vocab_size)")),
        "forgot_position_embedding": (["position", "context_length", "embedding"], _sub(_GPT,
            "vocab_size * d_model + context_length * d_model + ", "vocab_size * d_model + ")),
        "norm_gamma_only": (["beta", "bias", "gamma", "layer norm"], _sub(_GPT,
            " + 4 * d_model\n", " + 2 * d_model\n")),
    },
    "causal_lm_loss": {
        "sum_not_mean": (["mean", "average", "sum"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="sum")
'''),
        "shifted_targets_again": (["aligned", "shift", "position t", "roll"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.roll(1, dims=1).reshape(-1))
'''),
        "softmax_no_log": (["log", "log_softmax", "-log"], '''
def causal_lm_loss(logits, targets):
    p = torch.softmax(logits, dim=-1)
    return -p.gather(-1, targets[..., None]).mean()
'''),
        "naive_log_softmax": (["overflow", "log_softmax", "logsumexp", "max"], '''
def causal_lm_loss(logits, targets):
    logp = torch.log(torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True))
    return -logp.gather(-1, targets[..., None]).mean()
'''),
        "mean_over_vocab": (["gather", "target", "pick", "all characters"], '''
def causal_lm_loss(logits, targets):
    return -torch.log_softmax(logits, dim=-1).mean()
'''),
    },
    "generate": {
        "temperature_multiplies": (["divide", "temperature", "multiply"], _sub(_GEN,
            "    scaled = logits / temperature\n", "    scaled = logits * temperature\n")),
        "topk_no_renormalise": (["renormal", "sum to 1", "after"], _sub(_GEN,
            '        scaled = scaled.masked_fill(scaled < kth, float("-inf"))\n    return torch.softmax(scaled, dim=-1)\n',
            '        p = torch.softmax(scaled, dim=-1)\n        return p.masked_fill(scaled < kth, 0.0)\n    return torch.softmax(scaled, dim=-1)\n')),
        "topk_smallest": (["largest", "top_k", "smallest"], _sub(_GEN,
            "torch.topk(scaled, top_k, dim=-1).values[..., -1:]", "torch.topk(scaled, top_k, dim=-1, largest=False).values[..., -1:]")),
        "no_context_check": (["valueerror", "context_length", "raise"], _sub(_GEN,
            '    if prompt.shape[1] + steps > model.context_length:\n        raise ValueError("the prompt and the new tokens do not fit in the context")\n', "")),
        "first_logits_position": (["last position", "-1", "logits[:, -1"], _sub(_GEN,
            "            last = logits[:, -1, :]\n", "            last = logits[:, 0, :]\n")),
        "no_cache_reused": (["cache", "whole", "alone", "that token"], _sub(_GEN,
            "                logits, cache = model(nxt, cache)\n", "                logits, cache = model(nxt, None)\n")),
    },
}

VARIANTS = {
    "encode": {
        "dict": _ENC,
        "str_index": '''
def encode(text, vocabulary):
    return torch.tensor([vocabulary.index(ch) for ch in text], dtype=torch.long)


def decode(ids, vocabulary):
    return "".join([vocabulary[int(i)] for i in ids])
''',
    },
    "block_helpers": {
        "manual": _HELP,
        "rsqrt_where": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    centred = x - x.mean(-1, keepdim=True)
    var = torch.var(x, dim=-1, keepdim=True, unbiased=False)
    return centred * torch.rsqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    i = torch.arange(n_q, device=queries.device)[:, None] + (n_k - n_q)
    j = torch.arange(n_k, device=queries.device)[None, :]
    scores = torch.einsum("...qd,...kd->...qk", queries, keys) / queries.shape[-1] ** 0.5
    scores = torch.where(j <= i, scores, torch.full_like(scores, float("-inf")))
    return torch.einsum("...qk,...kv->...qv", torch.softmax(scores, dim=-1), values)
''',
    },
    "block_forward": {
        "modules": _BLOCK,
    },
    "count_parameters": {
        "modules": _GPT,
        "grouped_formula": _sub(_GPT,
            "    per_block = 4 * d_model * d_model + (d_model * 4 * d_model + 4 * d_model) + (4 * d_model * d_model + d_model) + 4 * d_model\n"
            "    return int(vocab_size * d_model + context_length * d_model + n_layers * per_block + 2 * d_model + d_model * vocab_size)\n",
            "    d = d_model\n    return (2 * vocab_size + context_length) * d + n_layers * (12 * d * d + 9 * d) + 2 * d\n"),
    },
    "causal_lm_loss": {
        "cross_entropy": _LOSS,
        "log_softmax_gather": '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1).mean()
''',
    },
    "generate": {
        "cached": _GEN,
        "sort_mask": _sub(_GEN,
            "        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]\n",
            "        kth = torch.sort(scaled, dim=-1, descending=True).values[..., top_k - 1:top_k]\n"),
    },
}

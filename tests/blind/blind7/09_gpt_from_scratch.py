"""Blind set 7, notebook 09: A GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only.

The cells that define several functions or classes are built from one correct cell by replacing one piece
(one mistake per case)."""

_ENC = '''
def encode(text, vocabulary):
    index = {c: i for i, c in enumerate(vocabulary)}
    return torch.tensor([index[c] for c in text], dtype=torch.int64)


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
    scores = queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])
    mask = torch.tril(torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device), diagonal=n_k - n_q)
    scores = scores.masked_fill(~mask, float("-inf"))
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

    def forward(self, inputs, cache=None):
        b, t, d = inputs.shape
        q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=-2)
            v = torch.cat([cache[1], v], dim=-2)
        if not self.scale:
            q = q * math.sqrt(self.d_head)
        context = causal_attention(q, k, v)
        context = context.transpose(1, 2).reshape(b, t, d)
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
    d_model = inputs.shape[-1]
    block = Block(d_model, n_heads).to(device=inputs.device, dtype=inputs.dtype)
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
    with torch.no_grad():
        out, _ = block(inputs)
    return out
'''

_GPT = '''
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
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        n_new = token_ids.shape[1]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + n_new, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.norm:
            x = self.final_norm(x)
        return self.head(x), new_cache
'''

_COUNT = '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    embeddings = vocab_size * d_model + context_length * d_model
    attention = 4 * d_model * d_model
    mlp = d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model
    norms = 2 * 2 * d_model
    block = attention + mlp + norms
    return embeddings + n_layers * block + 2 * d_model + d_model * vocab_size
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


def _r(base, old, new):
    assert old in base, old
    return base.replace(old, new)


MISTAKES = {
    "encode": {
        "float_tensor": (["int64", "dtype", "float", "torch.tensor"],
                         _r(_ENC, "return torch.tensor([index[c] for c in text], dtype=torch.int64)",
                            "return torch.Tensor([index[c] for c in text])")),
        "int32": (["int64", "dtype", "int32"],
                  _r(_ENC, "dtype=torch.int64)", "dtype=torch.int32)")),
        "ids_from_one": (["off by one", "from 0", "place", "index"],
                         _r(_ENC, "index = {c: i for i, c in enumerate(vocabulary)}",
                            "index = {c: i + 1 for i, c in enumerate(vocabulary)}").replace(
                             "vocabulary[i] for i in ids.tolist()", "vocabulary[i - 1] for i in ids.tolist()")),
        "decode_list": (["string", "join", "list"],
                        _r(_ENC, 'return "".join(vocabulary[i] for i in ids.tolist())',
                           "return [vocabulary[i] for i in ids.tolist()]")),
        "decode_space_join": (["join", "separator", "space", "empty string"],
                              _r(_ENC, 'return "".join(', 'return " ".join(')),
        "encode_list": (["tensor", "list", "int64"],
                        _r(_ENC, "return torch.tensor([index[c] for c in text], dtype=torch.int64)",
                           "return [index[c] for c in text]")),
    },
    "block_helpers": {
        "unbiased_variance": (["d - 1", "unbiased", "torch.var", "divide by d"],
                              _r(_HELP, "var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)",
                                 "var = x.var(dim=-1, keepdim=True)")),
        "eps_outside_sqrt": (["eps", "inside", "square root", "sqrt"],
                             _r(_HELP, "torch.sqrt(var + eps)", "(torch.sqrt(var) + eps)")),
        "gamma_beta_swapped": (["gamma", "beta", "swap", "scale and shift"],
                               _r(_HELP, "* gamma + beta", "* beta + gamma")),
        "upper_left_mask": (["lower-right", "diagonal", "corner", "n_keys - n_queries"],
                            _r(_HELP, "diagonal=n_k - n_q)", "diagonal=0)")),
        "no_scaling": (["sqrt", "scale", "d_k"],
                       _r(_HELP, " / math.sqrt(keys.shape[-1])", "")),
        "mask_zero_not_inf": (["-inf", "0", "before the softmax"],
                              _r(_HELP, 'masked_fill(~mask, float("-inf"))', "masked_fill(~mask, 0.0)")),
        "norm_over_batch_axis": (["last axis", "dim", "axis", "features"],
                                 _r(_HELP, "mean = x.mean(dim=-1, keepdim=True)\n    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)",
                                    "mean = x.mean(dim=0, keepdim=True)\n    var = ((x - mean) ** 2).mean(dim=0, keepdim=True)")),
    },
    "block_forward": {
        "post_ln": (["pre-ln", "post-ln", "before", "order"],
                    _r(_BLOCK, "a_in = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x",
                       "a_in = x").replace(
                        "h = x + a if self.residual else a",
                        "h = layer_norm(x + a, self.norm_1.weight, self.norm_1.bias)").replace(
                        "m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h", "m_in = h").replace(
                        "out = h + m if self.residual else m", "out = layer_norm(h + m, self.norm_2.weight, self.norm_2.bias)")),
        "attention_not_transposed": (["transpose", "(out, in)", ".t", "attention_w"],
                                     _r(_BLOCK, "copy_(attention_w[0].T)", "copy_(attention_w[0])")
                                     .replace("copy_(attention_w[1].T)", "copy_(attention_w[1])")
                                     .replace("copy_(attention_w[2].T)", "copy_(attention_w[2])")
                                     .replace("copy_(attention_w[3].T)", "copy_(attention_w[3])")),
        "relu_mlp": (["gelu", "relu"], _r(_BLOCK, "nn.GELU()", "nn.ReLU()")),
        "no_mlp_residual": (["residual", "h +", "add"], _r(_BLOCK, "out = h + m if self.residual else m", "out = m")),
        "heads_view_no_transpose": (["transpose", "heads", "tokens", "columns"],
                                    _r(_BLOCK, "q = self.w_query(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
                                       "q = self.w_query(inputs).view(b, self.n_heads, t, self.d_head)")
                                    .replace("k = self.w_key(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
                                             "k = self.w_key(inputs).view(b, self.n_heads, t, self.d_head)")
                                    .replace("v = self.w_value(inputs).view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
                                             "v = self.w_value(inputs).view(b, self.n_heads, t, self.d_head)")
                                    .replace("context.transpose(1, 2).reshape(b, t, d)", "context.reshape(b, t, d)")),
        "norms_gamma_beta_swapped": (["gamma", "beta", "norms", "swap"],
                                     _r(_BLOCK, "block.norm_1.weight.copy_(norms[0, 0])\n        block.norm_1.bias.copy_(norms[0, 1])",
                                        "block.norm_1.weight.copy_(norms[0, 1])\n        block.norm_1.bias.copy_(norms[0, 0])")
                                     .replace("block.norm_2.weight.copy_(norms[1, 0])\n        block.norm_2.bias.copy_(norms[1, 1])",
                                              "block.norm_2.weight.copy_(norms[1, 1])\n        block.norm_2.bias.copy_(norms[1, 0])")),
        "same_norm_twice": (["norm_2", "second", "norm_1"],
                            _r(_BLOCK, "m_in = layer_norm(h, self.norm_2.weight, self.norm_2.bias)",
                               "m_in = layer_norm(h, self.norm_1.weight, self.norm_1.bias)")),
    },
    "count_parameters": {
        "head_forgotten": (["head", "output", "vocab_size", "tied"],
                           _GPT + _r(_COUNT, " + d_model * vocab_size", "")),
        "mlp_biases_forgotten": (["bias", "biases", "mlp"],
                                 _GPT + _r(_COUNT, " + 4 * d_model + 4 * d_model * d_model + d_model", " + 4 * d_model * d_model")),
        "norms_forgotten": (["layer norm", "gamma", "beta", "norm"],
                            _GPT + _r(_COUNT, "norms = 2 * 2 * d_model", "norms = 0").replace(" + 2 * d_model + d_model", " + d_model")),
        "final_norm_forgotten": (["final", "final_norm", "layer norm"],
                                 _GPT + _r(_COUNT, " + 2 * d_model + d_model * vocab_size", " + d_model * vocab_size")),
        "attention_three_matrices": (["w_out", "four", "4 *", "output projection"],
                                     _GPT + _r(_COUNT, "attention = 4 * d_model * d_model", "attention = 3 * d_model * d_model")),
        "no_position_embedding": (["position", "context_length", "embedding"],
                                  _GPT + _r(_COUNT, "embeddings = vocab_size * d_model + context_length * d_model",
                                            "embeddings = vocab_size * d_model")),
    },
    "causal_lm_loss": {
        "sum_not_mean": (["mean", "sum", "average"], '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="sum")
'''),
        "shift_again": (["shift", "aligned", "already"], '''
def causal_lm_loss(logits, targets):
    lg = logits[:, :-1]
    tg = targets[:, 1:]
    return nn.functional.cross_entropy(lg.reshape(-1, lg.shape[-1]), tg.reshape(-1))
'''),
        "naive_log_softmax": (["overflow", "log-softmax", "log_softmax", "max"], '''
def causal_lm_loss(logits, targets):
    e = torch.exp(logits)
    p = e / e.sum(dim=-1, keepdim=True)
    return -torch.log(p.gather(-1, targets.unsqueeze(-1))).mean()
'''),
        "no_minus": (["sign", "minus", "negative"], '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
        "per_position": (["mean", "reduction", "shape ()", "scalar"], '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
'''),
        "log_softmax_wrong_dim": (["dim", "vocab", "last axis", "axis"], '''
def causal_lm_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=1)
    return -logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    },
    "generate": {
        "temperature_multiplied": (["divide", "temperature", "multiply"],
                                   _r(_GEN, "scaled = logits / temperature", "scaled = logits * temperature")),
        "top_k_not_renormalised": (["renormal", "sum to 1", "after the softmax"],
                                   _r(_GEN, '''    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)''', '''    scaled = logits / temperature
    probs = torch.softmax(scaled, dim=-1)
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        probs = probs.masked_fill(scaled < kth, 0.0)
    return probs''')),
        "top_k_off_by_one": (["top_k", "off by one", "k largest", "index"],
                             _r(_GEN, ".values[..., -1:]", ".values[..., -2:-1] if top_k > 1 else torch.topk(scaled, top_k, dim=-1).values[..., -1:]")),
        "softmax_dim0": (["dim", "row", "vocab", "axis"], _r(_GEN, "return torch.softmax(scaled, dim=-1)", "return torch.softmax(scaled, dim=0)")),
        "no_length_check": (["valueerror", "context_length", "too long", "raise"],
                            _r(_GEN, "if prompt.shape[1] + steps > model.context_length:", "if prompt.shape[1] > model.context_length:")),
        "first_position_logits": (["last", "position", "-1"], _r(_GEN, "last = logits[:, -1, :]", "last = logits[:, 0, :]")),
        "only_new_tokens": (["prompt", "followed", "n_prompt + steps"],
                            _r(_GEN, "    return tokens\n", "    return tokens[:, prompt.shape[1]:]\n")),
    },
}

VARIANTS = {
    "encode": {
        "dict_comprehension": _ENC,
        "str_find": '''
def encode(text, vocabulary):
    return torch.tensor([vocabulary.index(c) for c in text], dtype=torch.long).reshape(len(text))


def decode(ids, vocabulary):
    out = ""
    for i in ids:
        out += vocabulary[int(i)]
    return out
''',
    },
    "block_helpers": {
        "tril_offset": _HELP,
        "var_unbiased_false": '''
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    var = x.var(-1, unbiased=False, keepdim=True)
    return gamma * (x - mean) * torch.rsqrt(var + eps) + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    scores = torch.einsum("...qd,...kd->...qk", queries, keys) / keys.shape[-1] ** 0.5
    i = torch.arange(n_q, device=queries.device)[:, None] + (n_k - n_q)
    j = torch.arange(n_k, device=queries.device)[None, :]
    scores = scores.masked_fill(j > i, float("-inf"))
    return torch.softmax(scores, dim=-1) @ values
''',
    },
    "block_forward": {
        "modules": _BLOCK,
        "state_dict_load": _r(_BLOCK, '''    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)''', '''    state = {
        "attention.w_query.weight": attention_w[0].T, "attention.w_key.weight": attention_w[1].T,
        "attention.w_value.weight": attention_w[2].T, "attention.w_out.weight": attention_w[3].T,
        "mlp.0.weight": mlp_w_in.T, "mlp.0.bias": mlp_b_in, "mlp.2.weight": mlp_w_out.T, "mlp.2.bias": mlp_b_out,
        "norm_1.weight": norms[0, 0], "norm_1.bias": norms[0, 1], "norm_2.weight": norms[1, 0], "norm_2.bias": norms[1, 1],
    }
    block.load_state_dict({k: torch.as_tensor(v).to(dtype=inputs.dtype).contiguous() for k, v in state.items()})
    with torch.no_grad():
        block.attention.w_query.weight.copy_(attention_w[0].T)'''),
    },
    "count_parameters": {
        "by_parts": _GPT + _COUNT,
        "closed_form": _GPT + '''

def count_parameters(vocab_size, context_length, d_model, n_layers):
    return int(2 * vocab_size * d_model + context_length * d_model + n_layers * (12 * d_model ** 2 + 9 * d_model)
               + 2 * d_model)
''',
    },
    "causal_lm_loss": {
        "cross_entropy_flat": '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        "transpose_classes": '''
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.transpose(1, 2), targets)
''',
    },
    "generate": {
        "topk_mask": _GEN,
        "scatter_topk": _r(_GEN, '''    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)''', '''    if top_k is None:
        return torch.softmax(scaled, dim=-1)
    values, indices = torch.topk(scaled, min(top_k, scaled.shape[-1]), dim=-1)
    kept = torch.full_like(scaled, float("-inf")).scatter(-1, indices, values)
    return torch.softmax(kept, dim=-1)'''),
    },
}

"""Learner-style answers for notebook 09: one catalogued mistake each, or a correct variant.

Keys: the exercise's solution cell (grade_id), then the mistake id (from attention_course.mistakes)
or a variant's name. Values: what a learner types into that cell. Run by ``python3 tasks.py
accuracy`` and tests/test_accuracy.py.

Cells that hold several pieces (the tokenizer's two functions, the block's module and loader, the
GPT and its count, the sampler and the loop) are filled from a template with one piece replaced, so
that each case carries one mistake. Left out on purpose: a GPT whose forward is wrong (its class is
not graded; the training shows it), and a generate that samples with another random call than
``torch.multinomial`` (the checks draw with top_k=1 or greedily, where every sampler agrees).
"""

_TOKENIZER = """
def encode(text, vocabulary):
    index = {character: i for i, character in enumerate(vocabulary)}
    return <<encode>>


def decode(ids, vocabulary):
    return <<decode>>
"""

_TOKENIZER_PARTS = {
    "encode": "torch.tensor([index[c] for c in text], dtype=torch.int64)",
    "decode": '"".join(vocabulary[i] for i in ids.tolist())',
}

_HELPERS = """
def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    <<variance>>
    return <<normalise>>


def causal_attention(queries, keys, values):
    n_queries, n_keys = queries.shape[-2], keys.shape[-2]
    allowed = <<mask>>
    scores = <<scores>>
    scores = scores.masked_fill(~allowed, float("-inf"))
    return <<softmax>> @ values
"""

_HELPERS_PARTS = {
    "variance": "variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)",
    "normalise": "(x - mean) / torch.sqrt(variance + eps) * gamma + beta",
    "mask": "torch.ones(n_queries, n_keys, dtype=torch.bool).tril(diagonal=n_keys - n_queries)",
    "scores": "queries @ keys.transpose(-2, -1) / math.sqrt(keys.shape[-1])",
    "softmax": "torch.softmax(scores, dim=-1)",
}

_BLOCK = """
class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, scale=True):
        super().__init__()
        self.n_heads, self.d_head, self.scale = n_heads, d_model // n_heads, scale
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, inputs, cache=None):
        batch, n_new, d_model = inputs.shape

        def split(x):
            return <<split>>

        queries, keys, values = split(self.w_query(inputs)), split(self.w_key(inputs)), split(self.w_value(inputs))
        if cache is not None:
            keys = torch.cat([cache[0], keys], dim=-2)
            values = torch.cat([cache[1], values], dim=-2)
        if not self.scale:
            queries = queries * math.sqrt(self.d_head)
        context = causal_attention(queries, keys, values)
        context = <<combine>>
        return <<project>>, (keys, values)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, residual=True, norm=True, scale=True):
        super().__init__()
        self.residual, self.norm = residual, norm
        self.norm_1 = nn.LayerNorm(d_model)
        self.attention = CausalSelfAttention(d_model, n_heads, scale)
        self.norm_2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), <<activation>>, nn.Linear(4 * d_model, d_model))

    def forward(self, x, cache=None):
        <<forward>>


def block_forward(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads):
    block = Block(inputs.shape[-1], n_heads).to(inputs.dtype)
    attention = block.attention
    with torch.no_grad():
        for linear, w in zip((attention.w_query, attention.w_key, attention.w_value, attention.w_out), attention_w):
            <<load>>
        block.mlp[0].weight.copy_(mlp_w_in.T)
        block.mlp[0].bias.copy_(<<mlp_b_in>>)
        block.mlp[2].weight.copy_(mlp_w_out.T)
        block.mlp[2].bias.copy_(<<mlp_b_out>>)
        for norm, (gamma, beta) in zip((block.norm_1, block.norm_2), norms):
            norm.weight.copy_(gamma)
            norm.bias.copy_(beta)
        block.eval()
        return block(inputs)[0]
"""

_PRE_LN = """normed = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        attended, cache = self.attention(normed, cache)
        x = x + attended if self.residual else attended
        normed = layer_norm(x, self.norm_2.weight, self.norm_2.bias) if self.norm else x
        transformed = self.mlp(normed)
        return (x + transformed if self.residual else transformed), cache"""

_BLOCK_PARTS = {
    "split": "x.view(batch, n_new, self.n_heads, self.d_head).transpose(1, 2)",
    "combine": "context.transpose(1, 2).reshape(batch, n_new, d_model)",
    "project": "self.w_out(context)",
    "activation": "nn.GELU()",
    "forward": _PRE_LN,
    "load": "linear.weight.copy_(w.T)",
    "mlp_b_in": "mlp_b_in",
    "mlp_b_out": "mlp_b_out",
}

_GPT = """
class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True, scale=True,
                 positions=True):
        super().__init__()
        self.context_length, self.norm, self.positions = context_length, norm, positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers))
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        n_cached = 0 if cache is None else cache[0][0].shape[-2]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(n_cached, n_cached + token_ids.shape[-1]))
        new_cache = []
        for layer, block in enumerate(self.blocks):
            x, layer_cache = block(x, None if cache is None else cache[layer])
            new_cache.append(layer_cache)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache


def count_parameters(vocab_size, context_length, d_model, n_layers):
    attention = <<attention>>
    mlp = <<mlp>>
    norms = <<norms>>
    return <<total>>
"""

_GPT_PARTS = {
    "attention": "4 * d_model * d_model",
    "mlp": "d_model * 4 * d_model + 4 * d_model + 4 * d_model * d_model + d_model",
    "norms": "2 * 2 * d_model",
    "total": ("vocab_size * d_model + context_length * d_model + n_layers * (attention + mlp + norms) "
              "+ 2 * d_model + d_model * vocab_size"),
}

_SAMPLING = """
def next_token_probabilities(logits, temperature, top_k=None):
    <<probabilities>>


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[-1] + steps > model.context_length:
        raise ValueError("too long")
    token_ids = prompt
    with torch.no_grad():
        logits, cache = model(prompt)
        for step in range(<<steps>>):
            last_logits = <<last>>
            if temperature == 0:
                next_ids = last_logits.argmax(dim=-1, keepdim=True)
            else:
                next_ids = torch.multinomial(next_token_probabilities(last_logits, temperature, top_k), 1,
                                             generator=generator)
            token_ids = torch.cat([token_ids, next_ids], dim=-1)
            if step < steps - 1:
                <<feed>>
    return <<returned>>
"""

_PROBABILITIES = """logits = logits / temperature
    if top_k is not None and top_k < logits.shape[-1]:
        kth_largest = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth_largest, float("-inf"))
    return torch.softmax(logits, dim=-1)"""

_SAMPLING_PARTS = {
    "probabilities": _PROBABILITIES,
    "steps": "steps",
    "last": "logits[:, -1]",
    "feed": "logits, cache = model(next_ids, cache)",
    "returned": "token_ids",
}


def _filled(template: str, defaults: dict, **parts) -> str:
    """The correct cell with some of its parts replaced."""
    for name, default in defaults.items():
        template = template.replace(f"<<{name}>>", parts.get(name, default))
    return template


def _tokenizer(**parts):
    return _filled(_TOKENIZER, _TOKENIZER_PARTS, **parts)


def _helpers(**parts):
    return _filled(_HELPERS, _HELPERS_PARTS, **parts)


def _block(**parts):
    return _filled(_BLOCK, _BLOCK_PARTS, **parts)


def _gpt(**parts):
    return _filled(_GPT, _GPT_PARTS, **parts)


def _sampling(**parts):
    return _filled(_SAMPLING, _SAMPLING_PARTS, **parts)


MISTAKES = {
    "encode": {
        "token_ids_off_by_one": _tokenizer(encode="torch.tensor([index[c] + 1 for c in text], dtype=torch.int64)",
                                           decode='"".join(vocabulary[i - 1] for i in ids.tolist())'),
        "token_ids_are_code_points": _tokenizer(encode="torch.tensor([ord(c) for c in text], dtype=torch.int64)"),
        "decode_joined_with_spaces": _tokenizer(decode='" ".join(vocabulary[i] for i in ids.tolist())'),
    },
    "block_helpers": {
        "layer_norm_unbiased_variance": _helpers(variance="variance = x.var(dim=-1, keepdim=True)"),
        "layer_norm_eps_outside_sqrt": _helpers(normalise="(x - mean) / (torch.sqrt(variance) + eps) * gamma + beta"),
        "layer_norm_without_eps": _helpers(normalise="(x - mean) / torch.sqrt(variance) * gamma + beta"),
        "layer_norm_scale_shift_swapped": _helpers(normalise="(x - mean) / torch.sqrt(variance + eps) * beta + gamma"),
        "kv_cache_mask_not_shifted": _helpers(mask="torch.ones(n_queries, n_keys, dtype=torch.bool).tril()"),
        "no_scaling": _helpers(scores="queries @ keys.transpose(-2, -1)"),
        "softmax_wrong_axis": _helpers(softmax="torch.softmax(scores, dim=-2)"),
    },
    "block_forward": {
        "residual_missing": _block(forward="""normed = layer_norm(x, self.norm_1.weight, self.norm_1.bias)
        attended, cache = self.attention(normed, cache)
        x = attended
        return x + self.mlp(layer_norm(x, self.norm_2.weight, self.norm_2.bias)), cache"""),
        "layer_norm_after_sublayer": _block(forward="""attended, cache = self.attention(x, cache)
        x = layer_norm(x + attended, self.norm_1.weight, self.norm_1.bias)
        return layer_norm(x + self.mlp(x), self.norm_2.weight, self.norm_2.bias), cache"""),
        "residual_after_norm": _block(forward="""x = layer_norm(x, self.norm_1.weight, self.norm_1.bias)
        attended, cache = self.attention(x, cache)
        x = layer_norm(x + attended, self.norm_2.weight, self.norm_2.bias)
        return x + self.mlp(x), cache"""),
        "relu_instead_of_gelu": _block(activation="nn.ReLU()"),
        "gelu_tanh_approximation": _block(activation='nn.GELU(approximate="tanh")'),
        "heads_reshape_without_transpose": _block(split="x.reshape(batch, self.n_heads, n_new, self.d_head)",
                                                  combine="context.reshape(batch, n_new, d_model)"),
        "missing_output_projection": _block(project="context"),
        "biases_missing": _block(mlp_b_in="torch.zeros_like(mlp_b_in)", mlp_b_out="torch.zeros_like(mlp_b_out)"),
    },
    "count_parameters": {
        "parameters_layer_norm_gamma_only": _gpt(norms="2 * d_model",
                                                 total="vocab_size * d_model + context_length * d_model + "
                                                       "n_layers * (attention + mlp + norms) + d_model + d_model * vocab_size"),
        "parameters_head_bias": _gpt(total="vocab_size * d_model + context_length * d_model + n_layers * (attention + mlp + "
                                           "norms) + 2 * d_model + d_model * vocab_size + vocab_size"),
        "parameters_mlp_not_four_times_wider": _gpt(mlp="2 * d_model * d_model + 2 * d_model"),
        "parameters_attention_biases": _gpt(attention="4 * (d_model * d_model + d_model)"),
        "parameters_part_missing": _gpt(total="vocab_size * d_model + n_layers * (attention + mlp + norms) + 2 * d_model "
                                              "+ d_model * vocab_size"),
    },
    "causal_lm_loss": {
        "loss_summed": """
def causal_lm_loss(logits, targets):
    return -torch.log_softmax(logits, dim=-1).gather(-1, targets.unsqueeze(-1)).sum()
""",
        "loss_softmax_twice": """
def causal_lm_loss(logits, targets):
    probabilities = torch.softmax(logits, dim=-1)
    return nn.functional.cross_entropy(probabilities.reshape(-1, probabilities.shape[-1]), targets.reshape(-1))
""",
        "loss_targets_shifted_twice": """
def causal_lm_loss(logits, targets):
    logits, targets = logits[:, :-1], targets[:, 1:]
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
""",
        "softmax_no_max_subtraction": """
def causal_lm_loss(logits, targets):
    probabilities = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)
    return -torch.log(probabilities).gather(-1, targets.unsqueeze(-1)).mean()
""",
        "loss_mean_over_batch_only": """
def causal_lm_loss(logits, targets):
    picked = torch.log_softmax(logits, dim=-1).gather(-1, targets.unsqueeze(-1))[..., 0]
    return -picked.sum(dim=-1).mean()
""",
        "loss_sign_flipped": """
def causal_lm_loss(logits, targets):
    return torch.log_softmax(logits, dim=-1).gather(-1, targets.unsqueeze(-1)).mean()
""",
    },
    "generate": {
        "generate_first_position_logits": _sampling(last="logits[:, 0]"),
        "generate_cache_not_passed": _sampling(feed="logits, cache = model(next_ids)"),
        "generate_whole_text_with_cache": _sampling(feed="logits, cache = model(token_ids, cache)"),
        "generate_returns_new_tokens_only": _sampling(returned="token_ids[:, prompt.shape[-1]:]"),
        "temperature_multiplies": _sampling(probabilities=_PROBABILITIES.replace("logits / temperature",
                                                                                 "logits * temperature")),
        "top_k_not_renormalised": _sampling(probabilities="""probabilities = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth_largest = torch.topk(probabilities, top_k, dim=-1).values[..., -1:]
        probabilities = probabilities.masked_fill(probabilities < kth_largest, 0.0)
    return probabilities"""),
        "top_k_off_by_one": _sampling(probabilities=_PROBABILITIES.replace("logits < kth_largest", "logits <= kth_largest")),
    },
}

VARIANTS = {
    "encode": {
        "index_method": _tokenizer(encode="torch.tensor([vocabulary.index(c) for c in text])",
                                   decode='"".join([vocabulary[int(i)] for i in ids])'),
        "numpy_lookup": _tokenizer(encode="torch.from_numpy(np.array([index[c] for c in text], dtype=np.int64))",
                                   decode='"".join(map(vocabulary.__getitem__, ids.tolist()))'),
    },
    "block_helpers": {
        "var_unbiased_false": _helpers(variance="variance = x.var(dim=-1, keepdim=True, unbiased=False)",
                                       normalise="(x - mean) * torch.rsqrt(variance + eps) * gamma + beta"),
        "where_and_scaled_queries": _helpers(
            mask="torch.arange(n_keys)[None, :] <= torch.arange(n_queries)[:, None] + (n_keys - n_queries)",
            scores="(queries / math.sqrt(keys.shape[-1])) @ keys.transpose(-2, -1)"),
    },
    "block_forward": {
        "stacked_helpers": _block(forward="""h = x + self.attention(layer_norm(x, self.norm_1.weight, self.norm_1.bias), cache)[0] \\
            if self.residual else self.attention(layer_norm(x, self.norm_1.weight, self.norm_1.bias), cache)[0]
        cache = self.attention(layer_norm(x, self.norm_1.weight, self.norm_1.bias), cache)[1]
        out = self.mlp(layer_norm(h, self.norm_2.weight, self.norm_2.bias))
        return (h + out if self.residual else out), cache""",
                                  split="x.unflatten(-1, (self.n_heads, self.d_head)).transpose(1, 2)",
                                  combine="context.transpose(1, 2).flatten(-2)"),
        "parameters_assigned": _block(load="linear.weight = nn.Parameter(w.T.contiguous())"),
    },
    "count_parameters": {
        "per_part": _gpt(total="(vocab_size + context_length) * d_model + n_layers * (12 * d_model ** 2 + 9 * d_model) "
                               "+ 2 * d_model + vocab_size * d_model"),
    },
    "causal_lm_loss": {
        "library_cross_entropy": """
def causal_lm_loss(logits, targets):
    return nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
""",
        "logsumexp": """
def causal_lm_loss(logits, targets):
    picked = logits.gather(-1, targets[..., None])[..., 0]
    return (torch.logsumexp(logits, dim=-1) - picked).mean()
""",
    },
    "generate": {
        "renormalised_probabilities": _sampling(probabilities="""probabilities = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth_largest = torch.topk(probabilities, top_k, dim=-1).values[..., -1:]
        probabilities = probabilities * (probabilities >= kth_largest)
        probabilities = probabilities / probabilities.sum(dim=-1, keepdim=True)
    return probabilities"""),
        "while_loop": """
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k:
        values, _ = torch.topk(scaled, min(top_k, scaled.shape[-1]))
        scaled = torch.where(scaled < values[:, [-1]], torch.full_like(scaled, -float("inf")), scaled)
    return torch.softmax(scaled, dim=-1)


def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("the text would not fit the model's context")
    model_input, cache, out = prompt, None, prompt
    with torch.no_grad():
        while out.shape[1] < prompt.shape[1] + steps:
            logits, cache = model(model_input, cache)
            if temperature == 0:
                model_input = logits[:, -1:].argmax(-1)
            else:
                model_input = torch.multinomial(next_token_probabilities(logits[:, -1], temperature, top_k), 1,
                                                generator=generator)
            out = torch.cat([out, model_input], dim=1)
    return out
""",
    },
}

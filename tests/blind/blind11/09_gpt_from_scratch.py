"""Blind set 11, notebook 09: a GPT from scratch. Written from notebooks/09_gpt_from_scratch.ipynb only."""

_BLOCK = '''
import math
import torch
from torch import nn

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
        ctx = causal_attention(q, k, v)
        ctx = ctx.transpose(1, 2).reshape(b, t, d)
        return self.w_out(ctx), (k, v)


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
        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x
        att, cache = self.attention(a, cache)
        h = x + att if self.residual else att
        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h
        out = h + self.mlp(m) if self.residual else self.mlp(m)
        return out, cache
'''

_BF = '''

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
    with torch.no_grad():
        return block(inputs)[0]
'''

_GPT = '''
import torch
from torch import nn

class GPT(nn.Module):
    def __init__(self, vocab_size, context_length, d_model, n_heads, n_layers, residual=True, norm=True,
                 scale=True, positions=True):
        super().__init__()
        self.context_length = context_length
        self.norm = norm
        self.positions = positions
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(context_length, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, residual, norm, scale) for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, token_ids, cache=None):
        b, n = token_ids.shape
        start = 0 if cache is None else cache[0][0].shape[-2]
        x = self.token_embedding(token_ids)
        if self.positions:
            x = x + self.position_embedding(torch.arange(start, start + n, device=token_ids.device))
        new_cache = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, None if cache is None else cache[i])
            new_cache.append(c)
        if self.norm:
            x = layer_norm(x, self.final_norm.weight, self.final_norm.bias)
        return self.head(x), new_cache

'''

_COUNT_OK = '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 4 * d
    return int(vocab_size * d + context_length * d + n_layers * per_block + 2 * d + d * vocab_size)
'''

_NTP = '''
import torch
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)
'''

_GEN = '''

def generate(model, prompt, steps, temperature=1.0, top_k=None, generator=None):
    if prompt.shape[1] + steps > model.context_length:
        raise ValueError("prompt plus steps longer than the context")
    out = prompt
    with torch.no_grad():
        logits, cache = model(prompt, None)
        for step in range(steps):
            last = logits[:, -1, :]
            if temperature == 0:
                nxt = last.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(next_token_probabilities(last, temperature, top_k), 1, generator=generator)
            out = torch.cat([out, nxt], dim=1)
            if step < steps - 1:
                logits, cache = model(nxt, cache)
    return out
'''

_LN_OK = '''
import math
import torch

def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''

_CA_OK = '''

def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    s = queries @ keys.transpose(-1, -2) / math.sqrt(keys.shape[-1])
    mask = torch.ones(n_q, n_k, dtype=torch.bool, device=queries.device).tril(n_k - n_q)
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ values
'''

MISTAKES = {
    "encode": {
        "int32_dtype": (["int64", "dtype", "long"], '''
import torch
def encode(text, vocabulary):
    table = {c: i for i, c in enumerate(vocabulary)}
    return torch.tensor([table[c] for c in text], dtype=torch.int32)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
        "decode_list": (["string", "join", "list"], '''
import torch
def encode(text, vocabulary):
    table = {c: i for i, c in enumerate(vocabulary)}
    return torch.tensor([table[c] for c in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return [vocabulary[int(i)] for i in ids]
'''),
        "one_based": (["from 0", "off by one", "index", "place"], '''
import torch
def encode(text, vocabulary):
    table = {c: i + 1 for i, c in enumerate(vocabulary)}
    return torch.tensor([table[c] for c in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i) - 1] for i in ids)
'''),
        "sorted_vocab": (["sorted", "order", "vocabulary", "place"], '''
import torch
def encode(text, vocabulary):
    table = {c: i for i, c in enumerate(sorted(vocabulary))}
    return torch.tensor([table[c] for c in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(sorted(vocabulary)[int(i)] for i in ids)
'''),
        "float_ids": (["int64", "float", "dtype", "integer"], '''
import torch
def encode(text, vocabulary):
    return torch.tensor([vocabulary.index(c) for c in text], dtype=torch.float32)


def decode(ids, vocabulary):
    return "".join(vocabulary[int(i)] for i in ids)
'''),
    },
    "block_helpers": {
        "unbiased_var": (["d - 1", "unbiased", "biased", "divide by d"], '''
import math
import torch

def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
''' + _CA_OK),
        "eps_outside_sqrt": (["eps", "inside", "square root"], '''
import math
import torch

def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    std = x.std(dim=-1, keepdim=True, unbiased=False)
    return (x - mean) / (std + eps) * gamma + beta
''' + _CA_OK),
        "upper_left_mask": (["lower-right", "corner", "offset", "n_keys - n_queries"], _LN_OK + '''

def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    s = queries @ keys.transpose(-1, -2) / math.sqrt(keys.shape[-1])
    mask = torch.ones(n_q, n_k, dtype=torch.bool).tril()
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ values
'''),
        "mask_zero": (["-inf", "zero", "before the softmax"], _LN_OK + '''

def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    s = queries @ keys.transpose(-1, -2) / math.sqrt(keys.shape[-1])
    mask = torch.ones(n_q, n_k, dtype=torch.bool).tril(n_k - n_q)
    s = s.masked_fill(~mask, 0.0)
    return torch.softmax(s, dim=-1) @ values
'''),
        "norm_wrong_dim": (["last axis", "dim", "features", "each vector"], '''
import math
import torch

def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=0, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=0, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
''' + _CA_OK),
        "no_scale": (["sqrt", "scale", "d_k"], _LN_OK + '''

def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    s = queries @ keys.transpose(-1, -2)
    mask = torch.ones(n_q, n_k, dtype=torch.bool).tril(n_k - n_q)
    s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ values
'''),
    },
    "block_forward": {
        "post_ln": (["pre-ln", "post-ln", "before", "layer norm"], _BLOCK.replace(
            "        a = layer_norm(x, self.norm_1.weight, self.norm_1.bias) if self.norm else x\n"
            "        att, cache = self.attention(a, cache)\n"
            "        h = x + att if self.residual else att\n"
            "        m = layer_norm(h, self.norm_2.weight, self.norm_2.bias) if self.norm else h\n"
            "        out = h + self.mlp(m) if self.residual else self.mlp(m)\n",
            "        att, cache = self.attention(x, cache)\n"
            "        h = layer_norm(x + att, self.norm_1.weight, self.norm_1.bias)\n"
            "        out = layer_norm(h + self.mlp(h), self.norm_2.weight, self.norm_2.bias)\n") + _BF),
        "mlp_weights_not_transposed": (["transpose", "(out, in)", "mlp", ".t"], _BLOCK + _BF.replace(
            "block.mlp[0].weight.copy_(mlp_w_in.T)", "block.mlp[0].weight.copy_(mlp_w_in.reshape(4 * d_model, d_model))").replace(
            "block.mlp[2].weight.copy_(mlp_w_out.T)", "block.mlp[2].weight.copy_(mlp_w_out.reshape(d_model, 4 * d_model))")),
        "norms_swapped": (["norm_1", "norm_2", "gamma", "beta"], _BLOCK + _BF.replace(
            "block.norm_1.weight.copy_(norms[0, 0])", "block.norm_1.weight.copy_(norms[0, 1])").replace(
            "block.norm_1.bias.copy_(norms[0, 1])", "block.norm_1.bias.copy_(norms[0, 0])")),
        "mlp_uses_h_unnormed": (["norm_2", "layer norm", "mlp input"], _BLOCK.replace(
            "out = h + self.mlp(m) if self.residual else self.mlp(m)",
            "out = h + self.mlp(h) if self.residual else self.mlp(h)") + _BF),
        "heads_interleaved": (["split", "heads", "columns", "block of columns"], _BLOCK.replace(
            "return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)",
            "return x.view(b, t, self.d_head, self.n_heads).permute(0, 3, 1, 2)").replace(
            "ctx = ctx.transpose(1, 2).reshape(b, t, d)",
            "ctx = ctx.permute(0, 2, 3, 1).reshape(b, t, d)") + _BF),
    },
    "count_parameters": {
        "no_mlp_biases": (["bias", "biases", "mlp"], _BLOCK + _GPT + '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    per_block = 4 * d * d + 8 * d * d + 4 * d
    return int(vocab_size * d + context_length * d + n_layers * per_block + 2 * d + d * vocab_size)
'''),
        "no_layer_norms": (["layer norm", "gamma", "beta", "norm"], _BLOCK + _GPT + '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d)
    return int(vocab_size * d + context_length * d + n_layers * per_block + d * vocab_size)
'''),
        "tied_head": (["head", "output layer", "tied", "vocab_size * d_model"], _BLOCK + _GPT + '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 4 * d
    return int(vocab_size * d + context_length * d + n_layers * per_block + 2 * d)
'''),
        "no_position_embedding": (["position", "context_length", "embedding"], _BLOCK + _GPT + '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    per_block = 4 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 4 * d
    return int(vocab_size * d + n_layers * per_block + 2 * d + d * vocab_size)
'''),
        "three_attention_matrices": (["w_out", "four", "attention", "projection"], _BLOCK + _GPT + '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    d = d_model
    per_block = 3 * d * d + (d * 4 * d + 4 * d) + (4 * d * d + d) + 4 * d
    return int(vocab_size * d + context_length * d + n_layers * per_block + 2 * d + d * vocab_size)
'''),
    },
    "causal_lm_loss": {
        "cross_entropy_no_reshape": (["shape", "reshape", "(n, c)", "class dimension", "transpose"], '''
import torch
import torch.nn.functional as F
def causal_lm_loss(logits, targets):
    return F.cross_entropy(logits, targets)
'''),
        "sum_not_mean": (["mean", "sum", "average"], '''
import torch
def causal_lm_loss(logits, targets):
    lp = torch.log_softmax(logits, dim=-1)
    return -lp.gather(-1, targets.unsqueeze(-1)).sum()
'''),
        "no_minus": (["minus", "sign", "negative"], '''
import torch
def causal_lm_loss(logits, targets):
    lp = torch.log_softmax(logits, dim=-1)
    return lp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
        "naive_log_softmax": (["overflow", "log_softmax", "max", "inf"], '''
import torch
def causal_lm_loss(logits, targets):
    p = torch.exp(logits) / torch.exp(logits).sum(dim=-1, keepdim=True)
    return -torch.log(p.gather(-1, targets.unsqueeze(-1))).mean()
'''),
        "shifted_targets": (["shift", "already", "targets", "off by one"], '''
import torch
import torch.nn.functional as F
def causal_lm_loss(logits, targets):
    v = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, v), targets[:, 1:].reshape(-1))
'''),
    },
    "generate": {
        "temperature_multiplied": (["divide", "temperature", "multipl"], '''
import torch
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits * temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)
''' + _GEN),
        "topk_no_renorm": (["renormal", "sum to 1", "top_k"], '''
import torch
def next_token_probabilities(logits, temperature, top_k=None):
    p = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth = torch.topk(p, top_k, dim=-1).values[..., -1:]
        p = torch.where(p < kth, torch.zeros_like(p), p)
    return p
''' + _GEN),
        "no_context_check": (["valueerror", "context_length", "raise"], _NTP + _GEN.replace(
            "    if prompt.shape[1] + steps > model.context_length:\n        raise ValueError(\"prompt plus steps longer than the context\")\n", "")),
        "first_logits": (["last position", "-1", "last token"], _NTP + _GEN.replace("last = logits[:, -1, :]", "last = logits[:, 0, :]")),
        "no_cache_full_rerun": (["cache", "that token alone", "whole sequence"], _NTP + _GEN.replace(
            "logits, cache = model(nxt, cache)", "logits, cache = model(out, cache)")),
        "topk_off_by_one": (["top_k", "k largest", "off by one", "kth"], '''
import torch
def next_token_probabilities(logits, temperature, top_k=None):
    scaled = logits / temperature
    if top_k is not None:
        kth = torch.topk(scaled, top_k, dim=-1).values[..., -1:]
        scaled = scaled.masked_fill(scaled <= kth, float("-inf"))
    return torch.softmax(scaled, dim=-1)
''' + _GEN),
    },
}

VARIANTS = {
    "encode": {
        "dict": '''
import torch
def encode(text, vocabulary):
    table = {c: i for i, c in enumerate(vocabulary)}
    return torch.tensor([table[c] for c in text], dtype=torch.int64)


def decode(ids, vocabulary):
    return "".join(vocabulary[i] for i in ids.tolist())
''',
        "index": '''
import torch
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
        "manual": _LN_OK + _CA_OK,
        "var_where": '''
import math
import torch

def layer_norm(x, gamma, beta, eps=1e-5):
    var, mean = torch.var_mean(x, dim=-1, unbiased=False, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta


def causal_attention(queries, keys, values):
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    i = torch.arange(n_q, device=queries.device)[:, None] + (n_k - n_q)
    j = torch.arange(n_k, device=queries.device)[None, :]
    s = torch.einsum("...qd,...kd->...qk", queries, keys) / math.sqrt(keys.shape[-1])
    s = torch.where(j <= i, s, torch.tensor(float("-inf"), dtype=s.dtype, device=s.device))
    w = torch.softmax(s, dim=-1)
    return torch.einsum("...qk,...kv->...qv", w, values)
''',
    },
    "block_forward": {
        "module": _BLOCK + _BF,
    },
    "count_parameters": {
        "closed_form": _BLOCK + _GPT + _COUNT_OK,
        "expanded": _BLOCK + _GPT + '''
def count_parameters(vocab_size, context_length, d_model, n_layers):
    return int(2 * vocab_size * d_model + context_length * d_model
               + n_layers * (12 * d_model ** 2 + 9 * d_model) + 2 * d_model)
''',
    },
    "causal_lm_loss": {
        "cross_entropy": '''
import torch
import torch.nn.functional as F
def causal_lm_loss(logits, targets):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
''',
        "log_softmax_gather": '''
import torch
def causal_lm_loss(logits, targets):
    lp = torch.log_softmax(logits, dim=-1)
    return -lp.gather(-1, targets.unsqueeze(-1)).squeeze(-1).mean()
''',
    },
    "generate": {
        "cache_loop": _NTP + _GEN,
        "topk_scatter": '''
import torch
def next_token_probabilities(logits, temperature, top_k=None):
    p = torch.softmax(logits / temperature, dim=-1)
    if top_k is not None:
        idx = torch.topk(logits, top_k, dim=-1).indices
        keep = torch.zeros_like(p).scatter(-1, idx, 1.0)
        p = p * keep
        p = p / p.sum(dim=-1, keepdim=True)
    return p
''' + _GEN,
    },
}

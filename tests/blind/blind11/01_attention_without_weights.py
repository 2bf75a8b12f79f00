"""Blind set 11, notebook 01: attention without trainable weights. Written from notebooks/01_attention_without_weights.ipynb only."""

MISTAKES = {
    "scores_for_query": {
        "elementwise_no_sum": (["sum", "add up", "dot product"], '''
import torch
def scores_for_query(query, inputs):
    return inputs * query
'''),
        "sum_wrong_dim": (["dim", "axis", "sum over"], '''
import torch
def scores_for_query(query, inputs):
    return (inputs * query).sum(dim=0)
'''),
        "loop_off_by_one": (["loop", "range", "every token", "missing"], '''
import torch
def scores_for_query(query, inputs):
    out = torch.empty(inputs.shape[0])
    out[0] = torch.dot(inputs[0], query)
    for i in range(1, inputs.shape[0] - 1):
        out[i] = torch.dot(inputs[i], query)
    out[-1] = 0.0
    return out
'''),
        "normalised_cosine": (["cosine", "normalis", "length", "norm"], '''
import torch
def scores_for_query(query, inputs):
    return (inputs @ query) / (inputs.norm(dim=1) * query.norm())
'''),
        "python_list": (["list", "tensor"], '''
import torch
def scores_for_query(query, inputs):
    return [torch.dot(x, query).item() for x in inputs]
'''),
    },
    "softmax_stable": {
        "no_max_subtract": (["overflow", "max", "subtract", "inf"], '''
import torch
def softmax_stable(scores):
    e = torch.exp(scores)
    return e / e.sum(dim=-1, keepdim=True)
'''),
        "global_max": (["max", "row", "last dim", "keepdim"], '''
import torch
def softmax_stable(scores):
    e = torch.exp(scores - scores.max(dim=0, keepdim=True).values)
    return e / e.sum(dim=0, keepdim=True)
'''),
        "sum_no_keepdim": (["keepdim", "broadcast", "row", "dim"], '''
import torch
def softmax_stable(scores):
    e = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
    return e / e.sum()
'''),
        "in_place_subtract": (["in place", "in-place", "modif", "copy"], '''
import torch
def softmax_stable(scores):
    scores -= scores.max(dim=-1, keepdim=True).values
    scores.exp_()
    scores /= scores.sum(dim=-1, keepdim=True)
    return scores
'''),
        "subtract_min": (["max", "min", "largest"], '''
import torch
def softmax_stable(scores):
    e = torch.exp(scores - scores.min(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
'''),
    },
    "context_vector": {
        "sum_weights_times_mean": (["weighted sum", "each row", "weight"], '''
import torch
def context_vector(weights, inputs):
    return inputs.mean(dim=0) * weights.sum()
'''),
        "elementwise_scalar": (["scalar", "vector", "whole row"], '''
import torch
def context_vector(weights, inputs):
    return (weights @ inputs).sum() * torch.ones(inputs.shape[1])
'''),
        "wrong_orientation": (["transpose", "sum over", "tokens", "dim"], '''
import torch
def context_vector(weights, inputs):
    return (inputs * weights[:, None]).sum(dim=1)
'''),
        "average_not_sum": (["average", "mean", "instead of a sum"], '''
import torch
def context_vector(weights, inputs):
    return (inputs * weights[:, None]).mean(dim=0)
'''),
        "zeros_accumulate_first_skipped": (["loop", "range", "first token", "missing"], '''
import torch
def context_vector(weights, inputs):
    z = torch.zeros(inputs.shape[1])
    for i in range(1, inputs.shape[0]):
        z += weights[i] * inputs[i]
    return z
'''),
    },
    "self_attention_no_weights": {
        "softmax_dim0": (["dim", "row", "column", "axis"], '''
import torch
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T, dim=0)
    return w @ inputs
'''),
        "scaled_sqrt_d": (["sqrt", "scale", "divide"], '''
import torch
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs @ inputs.T / inputs.shape[1] ** 0.5, dim=-1)
    return w @ inputs
'''),
        "no_softmax": (["softmax", "normalis", "weights"], '''
import torch
def self_attention_no_weights(inputs):
    return (inputs @ inputs.T) @ inputs
'''),
        "returns_weights": (["context", "weights @ inputs", "multiply"], '''
import torch
def self_attention_no_weights(inputs):
    return torch.softmax(inputs @ inputs.T, dim=-1)
'''),
        "gram_wrong_side": (["transpose", "inputs.T", "order"], '''
import torch
def self_attention_no_weights(inputs):
    w = torch.softmax(inputs.T @ inputs, dim=-1)
    return inputs @ w
'''),
    },
}

VARIANTS = {
    "scores_for_query": {
        "matvec": '''
import torch
def scores_for_query(query, inputs):
    return inputs @ query
''',
        "einsum": '''
import torch
def scores_for_query(query, inputs):
    return torch.einsum("td,d->t", inputs, query)
''',
    },
    "softmax_stable": {
        "max_keepdim": '''
import torch
def softmax_stable(scores):
    shifted = scores - scores.max(dim=-1, keepdim=True).values
    e = torch.exp(shifted)
    return e / e.sum(dim=-1, keepdim=True)
''',
        "logsumexp": '''
import torch
def softmax_stable(scores):
    return torch.exp(scores - torch.logsumexp(scores, dim=-1, keepdim=True))
''',
    },
    "context_vector": {
        "vecmat": '''
import torch
def context_vector(weights, inputs):
    return weights @ inputs
''',
        "loop": '''
import torch
def context_vector(weights, inputs):
    z = torch.zeros_like(inputs[0])
    for w, x in zip(weights, inputs):
        z = z + w * x
    return z
''',
    },
    "self_attention_no_weights": {
        "matmul": '''
import torch
def self_attention_no_weights(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights @ inputs
''',
        "einsum": '''
import torch
def self_attention_no_weights(inputs):
    s = torch.einsum("id,jd->ij", inputs, inputs)
    s = s - s.max(dim=-1, keepdim=True).values
    w = s.exp() / s.exp().sum(dim=-1, keepdim=True)
    return torch.einsum("ij,jd->id", w, inputs)
''',
    },
}

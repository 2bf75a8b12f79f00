"""Reference implementations in PyTorch, built from PyTorch's own operations.

Same conventions and names as :mod:`attention_course.reference`; PyTorch is imported here, so
import this module only where PyTorch is installed.
"""

from __future__ import annotations

import math

import torch


def softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """``torch.softmax`` subtracts the maximum internally, so it never overflows."""
    return torch.softmax(scores, dim=dim)


def attention_scores(queries: torch.Tensor, keys: torch.Tensor, scale: bool = True) -> torch.Tensor:
    scores = queries @ keys.transpose(-2, -1)  # (..., n_queries, n_keys)
    return scores / math.sqrt(keys.shape[-1]) if scale else scores


def attention(queries, keys, values, mask=None, scale: bool = True) -> torch.Tensor:
    """``softmax(Q K^T / sqrt(d_k)) V`` via ``scaled_dot_product_attention``; mask True = attend."""
    if not scale:  # SDPA always scales: undo it by pre-multiplying the queries
        queries = queries * math.sqrt(queries.shape[-1])
    return torch.nn.functional.scaled_dot_product_attention(queries, keys, values, attn_mask=mask)


def self_attention(inputs, w_query, w_key, w_value, mask=None, scale: bool = True):
    return attention(inputs @ w_query, inputs @ w_key, inputs @ w_value, mask, scale)


def multi_head_attention_module(inputs, w_query, w_key, w_value, w_out, n_heads: int):
    """The same computation through ``torch.nn.MultiheadAttention`` with the given weights.

    PyTorch stores projections as (out, in) and multiplies on the left, so each of our
    (d_model, d_model) matrices goes in transposed. ``inputs`` is (batch, tokens, d_model).
    """
    d_model = inputs.shape[-1]
    module = torch.nn.MultiheadAttention(d_model, n_heads, bias=False, batch_first=True)
    module = module.to(inputs.dtype)
    with torch.no_grad():
        module.in_proj_weight.copy_(torch.cat([w_query.T, w_key.T, w_value.T], dim=0))
        module.out_proj.weight.copy_(w_out.T)
        output, _ = module(inputs, inputs, inputs, need_weights=False)
    return output

"""References for notebook 09 (a GPT the learner builds, trains and makes write), in NumPy.

Same conventions as :mod:`autograder.key.reference`: token vectors are rows, weights multiply on the
right (``inputs @ w``), float32 stays float32. Each function has keyword *knobs* that make one
catalogued mistake on purpose; ``autograder.key.exercises.n09_gpt_from_scratch`` builds the mutants
from them. With the default knobs every function is the correct answer.

The attention of the block is notebook 07's ``mhsa`` (causal), so the shared mistakes of
:mod:`autograder.key.mistakes` and 07's own knobs (weights not transposed, head layouts, no output
projection) reach the block; ``causal_attention`` is the attention of ``ref.attention`` with the
lower-right mask of 07's ``cache_allowed``.
"""

from __future__ import annotations

import numpy as np

from . import reference as ref
from . import reference_n07 as ref7
from .reference import as_float
from .reference_n08 import gelu

EPS = 1e-5  # nn.LayerNorm's default, and the notebook's

# --- the tokenizer -------------------------------------------------------------------------------


def encode(text, vocabulary, *, ids="index"):
    """The place of each character of ``text`` in ``vocabulary``: int64 (len(text),).

    Knobs: ``ids`` ``code_points`` (``ord(c)``, the characters' Unicode numbers) or ``from_one``
    (places counted from 1).
    """
    if ids == "code_points":
        return np.array([ord(c) for c in text], dtype=np.int64)
    index = {c: i for i, c in enumerate(vocabulary)}
    return np.array([index[c] + (1 if ids == "from_one" else 0) for c in text], dtype=np.int64)


def decoded_code_points(ids, vocabulary, *, joined="", offset=0):
    """The code points of the text that ``ids`` stand for (the notebook's ``decoded_code_points``).

    Knobs: ``joined`` ``" "`` (the characters joined with spaces); ``offset`` 1 or -1 (each id read
    as its neighbour's place: ids counted from 1, or the vocabulary read one place off).
    """
    ids = np.asarray(ids)
    text = joined.join(vocabulary[(int(i) - offset) % len(vocabulary)] for i in ids.reshape(-1))
    return np.array([ord(c) for c in text], dtype=np.int64)


# --- the block's helpers -------------------------------------------------------------------------


def layer_norm(x, gamma, beta, eps=EPS, *, variance="biased", eps_where="variance", axis=-1, swap=False):
    """``(x - mean) / sqrt(var + eps) * gamma + beta`` over the last axis.

    Knobs: ``variance`` ``unbiased`` (divided by d - 1, ``torch.var``'s default); ``eps_where``
    ``std`` (added to the standard deviation) or ``none`` (no eps: a constant vector gives nan);
    ``axis`` another axis to normalise over (the tokens'); ``swap`` (gamma and beta exchanged).
    """
    x = as_float(x)
    gamma, beta = (as_float(beta), as_float(gamma)) if swap else (as_float(gamma), as_float(beta))
    gamma, beta = gamma.astype(x.dtype, copy=False), beta.astype(x.dtype, copy=False)
    mean = x.mean(axis=axis, keepdims=True)
    d = x.size if axis is None else x.shape[axis]  # None: one mean and variance for the whole tensor
    squares = ((x - mean) ** 2).sum(axis=axis, keepdims=True)
    var = squares / (d - 1 if variance == "unbiased" else d)
    eps = x.dtype.type(eps)
    if eps_where == "std":
        normalised = (x - mean) / (np.sqrt(var) + eps)
    elif eps_where == "none":
        normalised = (x - mean) / np.sqrt(var)
    else:
        normalised = (x - mean) / np.sqrt(var + eps)
    return normalised * gamma + beta


def causal_attention(queries, keys, values, *, mask="lower_right", masking="-inf"):
    """The last ``n_queries`` tokens' context over ``n_keys`` keys with the lower-right causal mask.

    Knobs: ``mask`` ``upper_left`` (the mask not shifted when there are more keys than queries) or
    ``none``; ``masking`` ``after_softmax`` (weights zeroed after an unmasked softmax). The scores,
    the scale, the softmax and the weighted sum are the shared steps (``ref.attention``), and the
    mask is the corner of ``ref.causal_mask``: the shared mistakes apply.
    """
    queries, keys, values = as_float(queries), as_float(keys), as_float(values)
    allowed = ref7.cache_allowed(queries.shape[-2], keys.shape[-2], mask)  # (n_queries, n_keys)
    if masking == "after_softmax" and allowed is not None:
        return ref.weighted_values(np.where(allowed, ref.attention_weights(queries, keys), 0.0), values)
    return ref.attention(queries, keys, values, allowed)  # (..., n_queries, d_v)


# --- the block -----------------------------------------------------------------------------------


def block(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads, *,
          order="pre", residual=("attention", "mlp"), residual_from="inputs", activation=gelu,
          mlp_biases=True, norm_axis=-1, norm_order=(0, 1), second_residual_from="hidden", **attention_knobs):
    """A pre-LayerNorm GPT block: ``h = x + attn(LN1(x))``, ``out = h + mlp(LN2(h))``.

    ``attention_w``: (4, d, d) W_Q, W_K, W_V, W_O; the MLP's weights course-style; ``norms``
    (2, 2, d). Knobs: ``order`` ``post`` (BERT's post-LN: ``LN(x + sublayer(x))``) or ``none`` (no
    layer norm); ``residual`` the sub-layers that keep their residual connection; ``residual_from``
    ``normalised`` (the normalised input added back instead of the input); ``activation`` another
    function in GELU's place (:func:`..mutants.relu`, :func:`..mutants.gelu_tanh`);
    ``mlp_biases`` False; ``norm_axis`` another axis for the layer norms; ``norm_order`` which of the
    two layer norms each place uses ((1, 0) swapped, (0, 0) the first twice); ``second_residual_from``
    ``inputs`` (the MLP's residual adds the block's input x instead of h); the others go to 07's
    ``mhsa`` (``transpose_weights``, ``split``, ``combine``, ``project``, ...).
    """
    x = as_float(inputs)
    attention_w = as_float(attention_w).astype(x.dtype, copy=False)
    norms = as_float(norms).astype(x.dtype, copy=False)[list(norm_order)]

    def norm(value, which):
        if order == "none":
            return value
        return layer_norm(value, norms[which, 0], norms[which, 1], axis=norm_axis)

    def attend(value):
        return ref7.mhsa(value, *attention_w, n_heads, True, **attention_knobs)  # (batch, tokens, d)

    def mlp(value):
        inner = value @ as_float(mlp_w_in) + (as_float(mlp_b_in) if mlp_biases else 0.0)
        return activation(inner) @ as_float(mlp_w_out) + (as_float(mlp_b_out) if mlp_biases else 0.0)

    if order == "post":
        hidden = norm(x + attend(x) if "attention" in residual else attend(x), 0)
        return norm(hidden + mlp(hidden) if "mlp" in residual else mlp(hidden), 1)
    normed = norm(x, 0)
    attended = attend(normed)
    base = normed if residual_from == "normalised" else x
    hidden = base + attended if "attention" in residual else attended
    normed = norm(hidden, 1)
    base = normed if residual_from == "normalised" else x if second_residual_from == "inputs" else hidden
    return base + mlp(normed) if "mlp" in residual else mlp(normed)


# --- the model's size ----------------------------------------------------------------------------


def count_parameters(vocab_size, context_length, d_model, n_layers, *, head_bias=False,
                     attention_biases=False, norm_parameters=2, mlp_factor=4, positions=True,
                     final_norm=True, tied_head=False, mlp_biases=True, block_norms=True):
    """Parameters of the notebook's GPT, from its sizes.

    Knobs: ``head_bias`` (a bias counted in the output head); ``attention_biases`` (biases counted in
    W_Q, W_K, W_V, W_O); ``norm_parameters`` 1 (gamma only per layer norm); ``mlp_factor`` 1 (the MLP
    as wide as the model inside); ``positions`` False (no position embedding); ``final_norm`` False;
    ``tied_head`` (the head counted as the token embedding's); ``mlp_biases`` False (the MLP's two
    biases left out); ``block_norms`` False (the blocks' two layer norms left out).
    """
    v, c, d, n = (int(a) for a in (vocab_size, context_length, d_model, n_layers))
    attention = 4 * d * d + (4 * d if attention_biases else 0)
    inner = mlp_factor * d
    mlp = d * inner + inner * d + (inner + d if mlp_biases else 0)
    norms = 2 * norm_parameters * d if block_norms else 0
    total = v * d + (c * d if positions else 0) + n * (attention + mlp + norms)
    total += norm_parameters * d if final_norm else 0
    total += 0 if tied_head else d * v + (v if head_bias else 0)
    return np.int64(total)


# --- the objective -------------------------------------------------------------------------------


def causal_lm_loss(logits, targets, *, reduce="mean", shift=False, softmax_first=False, sign=-1.0,
                   stable=True, mean_over="all", axis=-1):
    """Mean over every position of ``-log softmax(logits)[target]``: a scalar.

    Knobs: ``reduce`` ``sum``; ``shift`` (logits and targets shifted once more: ``logits[:, :-1]``
    against ``targets[:, 1:]``); ``softmax_first`` (cross-entropy of the probabilities, a softmax
    taken twice); ``sign`` +1 (the minus sign lost); ``stable`` False (exp of the raw logits:
    overflows); ``mean_over`` ``batch`` (summed over the tokens, averaged over the batch); ``axis``
    -2 (the log-softmax over the tokens, dim=1, instead of the vocabulary).
    """
    logits = as_float(logits)
    targets = np.asarray(targets).astype(np.int64)
    if shift:
        logits, targets = logits[..., :-1, :], targets[..., 1:]
    if softmax_first:
        logits = ref.softmax(logits, axis=-1)
    if stable:
        top = logits.max(axis=axis, keepdims=True)
        log_norm = top + np.log(np.exp(logits - top).sum(axis=axis, keepdims=True))
    else:
        log_norm = np.log(np.exp(logits).sum(axis=axis, keepdims=True))
    log_probabilities = logits - log_norm  # (batch, tokens, vocab)
    picked = np.take_along_axis(log_probabilities, targets[..., None], axis=-1)[..., 0]  # (batch, tokens)
    if reduce == "sum":
        value = picked.sum()
    elif mean_over == "batch":
        value = picked.sum(axis=-1).mean()
    else:
        value = picked.mean()
    return np.asarray(sign * value, dtype=logits.dtype)


# --- sampling and generation ---------------------------------------------------------------------


def next_token_probabilities(logits, temperature, top_k=None, *, temperature_op="divide", top_k_extra=0,
                             renormalise=True, fill=-np.inf):
    """``softmax(logits / temperature)`` with the ``top_k`` largest logits of each row kept.

    Knobs: ``temperature_op`` ``multiply``; ``top_k_extra`` +1 or -1 (one more or one fewer kept);
    ``renormalise`` False (the rest zeroed after the softmax, not renormalised); ``fill`` 0.0 (the
    logits outside the top k set to 0 instead of -inf before the softmax).
    """
    logits = as_float(logits)
    t = logits.dtype.type(temperature)
    scaled = logits * t if temperature_op == "multiply" else logits / t
    if top_k is None or int(top_k) + top_k_extra >= scaled.shape[-1]:
        return ref.softmax(scaled, axis=-1)
    k = max(1, int(top_k) + top_k_extra)
    kth = -np.sort(-scaled, axis=-1)[..., k - 1:k]  # (batch, 1): the k-th largest
    if not renormalise:
        return np.where(scaled >= kth, ref.softmax(scaled, axis=-1), 0.0).astype(scaled.dtype)
    return ref.softmax(np.where(scaled >= kth, scaled, scaled.dtype.type(fill)), axis=-1)


# the stand-in's messages, word for word as the notebook's StandInModel raises them (each names a
# number: an error that names none is no evidence of a mistake for the verdict; and they are of two
# kinds, verdict.error_kind's "other" and "shape", so that each names its own mistake)
CACHE_NOT_PASSED = "call {calls} of the model came without the cache it returned"
TOO_LONG = "{tokens} tokens, more than the model's context size (context_length = {context_length})"


class _StandIn:
    """NumPy twin of the notebook's ``StandInModel`` (float64)."""

    def __init__(self, embedding, positions, w_out, max_calls):
        self.embedding, self.positions, self.w_out = (np.asarray(a, dtype=np.float64) for a in (embedding, positions, w_out))
        self.context_length, self.calls, self.max_calls = len(self.positions), 0, max_calls

    def __call__(self, token_ids, cache=None):
        self.calls += 1
        if self.calls > self.max_calls:
            raise RuntimeError(f"the model was called {self.calls} times where {self.max_calls} calls are enough (the "
                               "prompt once, then each drawn token but the last): does the loop call it once more, or "
                               "not stop?")
        if self.calls > 1 and cache is None:
            raise RuntimeError(CACHE_NOT_PASSED.format(calls=self.calls))
        n_cached, n_new = (0 if cache is None else cache.shape[-2]), token_ids.shape[-1]
        if n_cached + n_new > self.context_length:
            raise IndexError(TOO_LONG.format(tokens=n_cached + n_new, context_length=self.context_length))
        embedded = self.embedding[token_ids] + self.positions[n_cached:n_cached + n_new]
        history = embedded if cache is None else np.concatenate([cache, embedded], axis=-2)
        counts = np.arange(n_cached + 1, n_cached + n_new + 1, dtype=np.float64)[:, None]
        running_mean = np.cumsum(history, axis=-2)[:, n_cached:] / counts
        return np.tanh(running_mean) @ self.w_out, history


def generate(prompt, steps, temperature, top_k, embedding, positions, w_out, *, feed="new_token",
             logits_at=-1, returns="all", extra_steps=0):
    """The tokens ``generate`` writes with the stand-in model, greedily (``temperature`` 0) or with
    ``top_k`` 1 (the argmax too): (batch, n_prompt + steps) int64.

    Knobs: ``feed`` ``no_cache`` (the new token alone, the cache not passed back: the stand-in
    refuses) or ``whole_text`` (the whole text so far, with the cache); ``logits_at`` 0 (the first
    position's logits read); ``returns`` ``new`` (the new tokens only); ``extra_steps`` -1 (a loop
    one step short).
    """
    prompt = np.asarray(prompt).astype(np.int64)
    steps = int(steps)
    if temperature != 0 and top_k != 1:
        raise ValueError("the stand-in's tokens are certain only greedily or with top_k=1")
    model = _StandIn(embedding, positions, w_out, max_calls=steps)
    token_ids = prompt
    logits, cache = model(prompt)
    for step in range(steps + extra_steps):
        next_ids = logits[:, logits_at].argmax(axis=-1)[:, None]
        token_ids = np.concatenate([token_ids, next_ids], axis=-1)
        if step < steps + extra_steps - 1:
            if feed == "no_cache":
                logits, cache = model(next_ids)
            elif feed == "whole_text":
                logits, cache = model(token_ids, cache)
            else:
                logits, cache = model(next_ids, cache)
    return token_ids[:, prompt.shape[-1]:] if returns == "new" else token_ids

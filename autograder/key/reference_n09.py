"""References for notebook 09 (a GPT the learner builds, trains and makes write), in NumPy.

Same conventions as :mod:`autograder.key.reference`: token vectors are rows, weights multiply on the
right (``inputs @ w``), float32 stays float32. Each function is the right answer, composed of steps;
a step an exercise's mistakes replace is a function the reference takes as a keyword default
(``block(..., wiring=pre_ln)``), and a mutant of ``autograder.key.exercises.n09_gpt_from_scratch`` is
the reference with one of them (or, where the mistake needs it, two) replaced by a wrong one.

The attention of the block is notebook 07's ``mhsa`` (causal), so the shared mistakes of
:mod:`autograder.key.mistakes` and 07's steps (head layouts, the output projection) reach the block;
``causal_attention`` is the attention of ``ref.attention`` with the lower-right mask of 07's
``cache_allowed``.
"""

from __future__ import annotations

import numpy as np

from . import reference as ref
from . import reference_n07 as ref7
from .reference import as_float
from .reference_n08 import gelu

EPS = 1e-5  # nn.LayerNorm's default, and the notebook's

# --- the tokenizer -------------------------------------------------------------------------------


def place_in(character, index):
    """A character's token id: its place in the vocabulary (``index``: character -> place)."""
    return index[character]


def encode(text, vocabulary, *, token_id=place_in):
    """The place of each character of ``text`` in ``vocabulary``: int64 (len(text),).

    The step: ``token_id`` a character's id.
    """
    index = {c: i for i, c in enumerate(vocabulary)}
    return np.array([token_id(c, index) for c in text], dtype=np.int64)


def character_of(token_id, vocabulary):
    """The character a token id stands for: its place in the vocabulary."""
    return vocabulary[int(token_id) % len(vocabulary)]


def decoded_code_points(ids, vocabulary, *, character=character_of, joined="".join):
    """The code points of the text that ``ids`` stand for (the notebook's ``decoded_code_points``).

    The steps: ``character`` an id's character, ``joined`` the characters made one text.
    """
    ids = np.asarray(ids)
    text = joined(character(i, vocabulary) for i in ids.reshape(-1))
    return np.array([ord(c) for c in text], dtype=np.int64)


# --- the block's helpers -------------------------------------------------------------------------


def feature_moments(x):
    """The mean and the (biased) variance of the features: over the last axis, kept."""
    mean = x.mean(axis=-1, keepdims=True)
    squares = ((x - mean) ** 2).sum(axis=-1, keepdims=True)
    return mean, squares / x.shape[-1]


def divided_by_std(centred, var, eps):
    """The centred input divided by sqrt(variance + eps)."""
    return centred / np.sqrt(var + eps)


def layer_norm(x, gamma, beta, eps=EPS, *, moments=feature_moments, normalise=divided_by_std):
    """``(x - mean) / sqrt(var + eps) * gamma + beta`` over the last axis.

    The steps: ``moments`` the mean and variance, ``normalise`` the centred input made unit variance.
    """
    x = as_float(x)
    gamma, beta = as_float(gamma).astype(x.dtype, copy=False), as_float(beta).astype(x.dtype, copy=False)
    mean, var = moments(x)
    normalised = normalise(x - mean, var, x.dtype.type(eps))
    return normalised * gamma + beta


def causal_attention(queries, keys, values, *, allowed=ref7.cache_allowed, attention=ref7.masked_attention):
    """The last ``n_queries`` tokens' context over ``n_keys`` keys with the lower-right causal mask.

    The steps: ``allowed`` the mask, ``attention`` the masked attention. The scores, the scale, the
    softmax and the weighted sum are the shared steps (``ref.attention``), and the mask is the
    corner of ``ref.causal_mask``: the shared mistakes apply.
    """
    queries, keys, values = as_float(queries), as_float(keys), as_float(values)
    return attention(queries, keys, values, allowed(queries.shape[-2], keys.shape[-2]))  # (..., n_queries, d_v)


# --- the block -----------------------------------------------------------------------------------


def pre_ln(x, attend, mlp, norm):
    """The pre-LayerNorm wiring of the block's two sub-layers: ``h = x + attn(LN1(x))``,
    ``out = h + mlp(LN2(h))`` (``norm(value, 0)`` is LN1, ``norm(value, 1)`` LN2)."""
    normed = norm(x, 0)
    hidden = x + attend(normed)
    normed = norm(hidden, 1)
    return hidden + mlp(normed)


def block(inputs, attention_w, mlp_w_in, mlp_b_in, mlp_w_out, mlp_b_out, norms, n_heads, *,
          attention=ref7.mhsa, activation=gelu, normalise=layer_norm, wiring=pre_ln):
    """A pre-LayerNorm GPT block: ``h = x + attn(LN1(x))``, ``out = h + mlp(LN2(h))``.

    ``attention_w``: (4, d, d) W_Q, W_K, W_V, W_O; the MLP's weights course-style; ``norms``
    (2, 2, d). The steps: ``attention`` 07's causal ``mhsa``, ``activation`` the MLP's GELU,
    ``normalise`` the layer norm, ``wiring`` how the sub-layers, their layer norms and the
    residuals are put together.
    """
    x = as_float(inputs)
    attention_w = as_float(attention_w).astype(x.dtype, copy=False)
    norms = as_float(norms).astype(x.dtype, copy=False)

    def norm(value, which):
        return normalise(value, norms[which, 0], norms[which, 1])

    def attend(value):
        return attention(value, *attention_w, n_heads, True)  # (batch, tokens, d)

    def mlp(value):
        inner = value @ as_float(mlp_w_in) + as_float(mlp_b_in)
        return activation(inner) @ as_float(mlp_w_out) + as_float(mlp_b_out)

    return wiring(x, attend, mlp, norm)


# --- the model's size ----------------------------------------------------------------------------


def embedding_parameters(vocab_size, context_length, d):
    """The token and the position embeddings."""
    return vocab_size * d + context_length * d


def attention_parameters(d):
    """W_Q, W_K, W_V and W_O, without biases."""
    return 4 * d * d


def mlp_parameters(d):
    """The MLP, four times as wide inside: two weights and two biases."""
    inner = 4 * d
    return d * inner + inner * d + (inner + d)


def block_norm_parameters(d):
    """A block's two layer norms, gamma and beta each."""
    return 2 * 2 * d


def final_norm_parameters(d):
    """The final layer norm's gamma and beta."""
    return 2 * d


def head_parameters(vocab_size, d):
    """The output head's weight, without a bias."""
    return d * vocab_size


def count_parameters(vocab_size, context_length, d_model, n_layers, *, embeddings=embedding_parameters,
                     attention=attention_parameters, mlp=mlp_parameters, block_norms=block_norm_parameters,
                     final_norm=final_norm_parameters, head=head_parameters):
    """Parameters of the notebook's GPT, from its sizes: the sum of its parts' counts, each a step."""
    v, c, d, n = (int(a) for a in (vocab_size, context_length, d_model, n_layers))
    total = embeddings(v, c, d) + n * (attention(d) + mlp(d) + block_norms(d))
    total += final_norm(d)
    total += head(v, d)
    return np.int64(total)


# --- the objective -------------------------------------------------------------------------------


def stable_log_softmax(logits):
    """log softmax over the vocabulary, with the maximum subtracted (never overflows)."""
    top = logits.max(axis=-1, keepdims=True)
    log_norm = top + np.log(np.exp(logits - top).sum(axis=-1, keepdims=True))
    return logits - log_norm  # (batch, tokens, vocab)


def negative_mean(picked):
    """The loss from the picked log-probabilities: minus their mean over every position."""
    return -picked.mean()


def causal_lm_loss(logits, targets, *, log_softmax=stable_log_softmax, loss=negative_mean):
    """Mean over every position of ``-log softmax(logits)[target]``: a scalar.

    The steps: ``log_softmax`` the log-probabilities, ``loss`` the picked ones made one number.
    """
    logits = as_float(logits)
    targets = np.asarray(targets).astype(np.int64)
    log_probabilities = log_softmax(logits)  # (batch, tokens, vocab)
    picked = np.take_along_axis(log_probabilities, targets[..., None], axis=-1)[..., 0]  # (batch, tokens)
    return np.asarray(loss(picked), dtype=logits.dtype)


# --- sampling and generation ---------------------------------------------------------------------


def divided_by_temperature(logits, temperature):
    """The logits scaled by the temperature: divided by it."""
    return logits / temperature


def top_k_softmax(scaled, kth):
    """The softmax of the logits with those below the k-th largest of their row set to -inf."""
    return ref.softmax(np.where(scaled >= kth, scaled, scaled.dtype.type(-np.inf)), axis=-1)


def next_token_probabilities(logits, temperature, top_k=None, *, tempered=divided_by_temperature,
                             kept=top_k_softmax):
    """``softmax(logits / temperature)`` with the ``top_k`` largest logits of each row kept.

    The steps: ``tempered`` the temperature's scaling, ``kept`` the softmax of the top k.
    """
    logits = as_float(logits)
    scaled = tempered(logits, logits.dtype.type(temperature))
    if top_k is None or int(top_k) >= scaled.shape[-1]:
        return ref.softmax(scaled, axis=-1)
    k = max(1, int(top_k))
    kth = -np.sort(-scaled, axis=-1)[..., k - 1:k]  # (batch, 1): the k-th largest
    return kept(scaled, kth)


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


def steps_to_draw(steps):
    """How many tokens the loop draws: ``steps``."""
    return steps


def last_position_argmax(logits):
    """Each row's next token, greedily: the argmax of the last position's logits, (batch, 1)."""
    return logits[:, -1].argmax(axis=-1)[:, None]


def new_token_with_cache(model, token_ids, next_ids, cache):
    """The model's next call: the new token alone, with the cache it returned."""
    return model(next_ids, cache)


def generate(prompt, steps, temperature, top_k, embedding, positions, w_out, *, rounds=steps_to_draw,
             next_token=last_position_argmax, feed=new_token_with_cache):
    """The tokens ``generate`` writes with the stand-in model, greedily (``temperature`` 0) or with
    ``top_k`` 1 (the argmax too): (batch, n_prompt + steps) int64.

    The steps: ``rounds`` how many tokens are drawn, ``next_token`` each one from the logits,
    ``feed`` the model's next call.
    """
    prompt = np.asarray(prompt).astype(np.int64)
    steps = int(steps)
    if temperature != 0 and top_k != 1:
        raise ValueError("the stand-in's tokens are certain only greedily or with top_k=1")
    model = _StandIn(embedding, positions, w_out, max_calls=steps)
    token_ids = prompt
    logits, cache = model(prompt)
    n_rounds = rounds(steps)
    for step in range(n_rounds):
        next_ids = next_token(logits)
        token_ids = np.concatenate([token_ids, next_ids], axis=-1)
        if step < n_rounds - 1:
            logits, cache = feed(model, token_ids, next_ids, cache)
    return token_ids

"""What each graded function may be given, as its exercise states it, and the evidence probes.

A *contract* lists, per positional argument, what the exercise text allows:

- ``"... n_queries d_k"``: an array with any number of leading batch axes (``...``, the same for
  every argument of the call that has them) and named axes; an axis name stands for one size in
  the whole call (``d_k`` of the queries is ``d_k`` of the keys);
- ``"~... n_queries n_keys"``: an array broadcastable to that shape (a mask);
- ``"%batch tokens"``: a key mask of that shape holding 1 for a real token and 0 for padding, every
  sequence starting with a real one (probes keep to it, with padding in other places);
- ``"#tokens"``: an integer array of positions, one per token, of any values from 0 up (probes give
  positions that are neither consecutive nor start at 0);
- ``"batch <=n_tokens"``: an integer array of shape (batch,) with values from 0 to ``n_tokens``;
- ``"=n_tokens"``: an integer equal to the size ``n_tokens``;
- ``"int"``, ``"float"``, ``"heads"``: a number (``heads`` must divide the widths it splits, so a
  call with one is given other sizes only together with another number of heads dividing them all).
  An axis named ``d_even`` must be even (RoPE rotates pairs of features): other sizes keep it even.
  An axis named in ``MULTIPLES`` must be a multiple of another axis of the call (the query heads of
  grouped-query attention, of the key/value heads): other sizes keep it a multiple, of two or more.

Contracts describe the exercises' signatures, never their answers. They serve twice: a test checks
that every hidden call of the notebooks keeps to them, and :func:`evidence_probes` derives from a
check's input further inputs that tell mistakes apart: other values of the same shapes (no
symmetry left), other sizes (non-square, d_v != d_k, a d_k that is not the seed's), large
values (scores in the thousands) and, for a few exercises (``SQUARE``), square inputs. A function is
right only if it is right on all of them.
"""

from __future__ import annotations

import zlib

import numpy as np

CONTRACTS: dict[str, tuple[str, ...]] = {
    # 01
    "scores_for_query": ("d", "tokens d"),
    "softmax_stable": ("... n_keys",),
    "context_vector": ("tokens", "tokens d"),
    "self_attention_no_weights": ("tokens d",),
    # 02
    "project_qkv": ("tokens d_model", "d_model d_k", "d_model d_k", "d_model d_k"),
    "state_weights": ("d_state", "n_states d_model", "d_state d_k", "d_model d_k"),
    "state_attention": ("d_state", "n_states d_model", "d_state d_k", "d_model d_k", "d_model d_v"),
    # 03
    "scale_scores_tf": ("n_queries n_keys", "int"),
    "float16_scores": ("n_queries d_k", "n_keys d_k"),
    "float32_roundoff": ("... n",),
    # 04
    "score_variance": ("n_queries d_k", "n_keys d_k"),
    "width_sweep": ("n_queries d_max", "n_keys d_max", "n_widths <=d_max", "float"),
    "attention_entropy": ("... n_keys",),
    "softmax_jacobian": ("n_keys",),
    "gradient_norms": ("n_queries n_keys",),
    # 05
    "batched_attention": ("... n_queries d_k", "... n_keys d_k", "... n_keys d_v"),
    "causal_mask": ("=n_tokens",),
    "masked_attention": ("... n_queries d_k", "... n_keys d_k", "... n_keys d_v", "~... n_queries n_keys"),
    "padding_mask": ("batch <=n_tokens", "=n_tokens"),
    # 06
    "split_heads": ("... tokens d_model", "heads"),
    "combine_heads": ("... heads tokens d_head",),
    "head_weights": ("... tokens d_model", "d_model d_k", "d_model d_k", "heads"),
    "multi_head_attention": ("... tokens d_model", "d_model d_k", "d_model d_k", "d_model d_v", "d_v d_out",
                             "heads"),
    "torch_attn_mask": ("batch n_queries n_keys", "heads"),
    # 07
    "rotary_embedding": ("... tokens d_even", "#tokens"),
    "kv_cache_step": ("... n_new d_k", "... n_new d_k", "... n_new d_v", "... n_cached d_k", "... n_cached d_v"),
    # 08
    "bert_head_weights": ("batch tokens d_model", "d_model d_model", "d_model", "d_model d_model", "d_model",
                          "%batch tokens", "heads"),
    # 10
    "online_softmax": ("... n", "int"),
    "blocked_attention": ("... n_queries d_k", "... n_keys d_k", "... n_keys d_v", "int"),
    "grouped_query_attention": ("... n_heads n_queries d_k", "... n_kv_heads n_keys d_k", "... n_kv_heads n_keys d_v"),
}

# Axes whose size must be a multiple of another axis's in the same call: axis -> the axis it groups.
MULTIPLES: dict[str, str] = {"n_heads": "n_kv_heads"}

# Exercises also probed with some of their axes of one size: there a product that forgot a transpose
# (``x @ x``) gives numbers instead of a shape error, which tells it from other slips (``x * x``) that
# mismatch the same two sizes everywhere else (four fresh sets' PyTorch cases in notebook 01).
SQUARE: dict[str, tuple[str, ...]] = {"self_attention_no_weights": ("tokens", "d")}
# exercises whose function builds a torch module with dropout: the check's own input is run a second
# time, where a result that changes tells a layer left in training mode
REPEATED = frozenset({"mhsa_forward"})

_SCALARS = ("int", "float", "heads")
# Sizes for the "other sizes" probe: all different from each other and from the check's own.
_SIZES = (5, 3, 4, 2, 6, 7, 8, 9)
_EVEN = ("d_even",)  # axes that must stay even


def parse_spec(spec: str) -> tuple[bool, bool, list[str]]:
    """(broadcastable, has leading batch axes, axis names) of an array spec (its kind marks stripped)."""
    broadcastable = spec.startswith("~")
    names = spec.lstrip("~" + "".join(_MAKERS)).split()
    batched = bool(names) and names[0] == "..."
    return broadcastable, batched, names[1:] if batched else names


def violations(exercise: str, inputs: list) -> list[str]:
    """How a call's positional inputs break the exercise's contract (empty when they keep to it)."""
    contract = CONTRACTS.get(exercise)
    if contract is None:
        return [f"no contract for {exercise!r}"]
    if len(inputs) != len(contract):
        return [f"{len(inputs)} inputs, the exercise takes {len(contract)}"]
    sizes: dict[str, int] = {}
    batches: set[tuple[int, ...]] = set()
    masks: list[tuple[int, ...]] = []
    bounds: list[tuple[str, np.ndarray, str]] = []
    problems = []

    def bind(name, size, where):
        if sizes.setdefault(name, size) != size:
            problems.append(f"{where}: {name} is {size} here but {sizes[name]} elsewhere")

    for position, (spec, value) in enumerate(zip(contract, inputs, strict=True)):
        where = f"input {position}"
        shape = np.shape(value)
        if spec in _SCALARS or spec.startswith("="):
            if shape:
                problems.append(f"{where}: expected a number, got shape {shape}")
            elif spec.startswith("="):
                bind(spec[1:], int(value), where)
        elif "<=" in spec:
            axis, bound = spec.split("<=")
            if len(shape) != 1:
                problems.append(f"{where}: expected one axis, got shape {shape}")
            else:
                bind(axis.strip(), shape[0], where)
                bounds.append((bound, np.asarray(value), where))
        else:
            broadcastable, batched, names = parse_spec(spec)
            if len(shape) < len(names) or (not batched and len(shape) != len(names)):
                problems.append(f"{where}: shape {shape} does not fit ({spec})")
                continue
            core = shape[len(shape) - len(names):]
            for name, size in zip(names, core, strict=True):
                if not (broadcastable and size == 1):
                    bind(name, size, where)
            if spec.startswith("%") and not _is_key_mask(np.asarray(value)):
                problems.append(f"{where}: a key mask holds 0 and 1, with a 1 first in every sequence")
            if spec.startswith("#") and not (np.issubdtype(np.asarray(value).dtype, np.integer)
                                             and (np.asarray(value) >= 0).all()):
                problems.append(f"{where}: positions are integers from 0 up")
            for name, size in zip(names, core, strict=True):
                if name in _EVEN and size % 2:
                    problems.append(f"{where}: {name} must be even, got {size}")
            if batched and broadcastable:
                masks.append(shape[:len(shape) - len(names)])
            elif batched:
                batches.add(shape[:len(shape) - len(names)])
    for name, group in MULTIPLES.items():
        if name in sizes and group in sizes and sizes[name] % sizes[group]:
            problems.append(f"{name} = {sizes[name]} is not a multiple of {group} = {sizes[group]}")
    if len(batches) > 1:
        problems.append(f"the batch axes differ between inputs: {sorted(batches)}")
    for batch in batches:
        for leading in masks:
            try:
                fits = np.broadcast_shapes(leading, batch) == batch
            except ValueError:
                fits = False
            if not fits:
                problems.append(f"the mask's batch axes {leading} do not broadcast to {batch}")
    for bound, value, where in bounds:
        if bound in sizes and value.size and (value.min() < 0 or value.max() > sizes[bound]):
            problems.append(f"{where}: values must lie in 0..{bound}")
    return problems


def _rng(exercise: str, inputs: list, salt: str) -> np.random.Generator:
    shapes = [np.shape(v) if isinstance(v, np.ndarray) else repr(v) for v in inputs]
    return np.random.default_rng(zlib.crc32(f"{exercise}|{shapes}|{salt}".encode()))


def _fresh(value: np.ndarray, shape: tuple, rng: np.random.Generator) -> np.ndarray:
    """New values of ``value``'s dtype and the given shape."""
    if value.dtype == bool:
        mask = rng.random(shape) < 0.7
        if mask.ndim:
            mask[..., 0] = True  # every query keeps a key
        return mask
    if np.issubdtype(value.dtype, np.integer):
        return rng.integers(-3, 4, size=shape).astype(value.dtype)
    return rng.normal(size=shape).astype(value.dtype)


def _numeric(value) -> bool:
    return isinstance(value, np.ndarray) and value.dtype != bool and value.ndim > 0


def _is_key_mask(mask: np.ndarray) -> bool:
    return bool(mask.ndim and np.isin(mask, (0, 1)).all() and (mask[..., 0] == 1).all())


def _key_mask(value: np.ndarray, shape: tuple, rng: np.random.Generator) -> np.ndarray:
    """A key mask of ``value``'s dtype and the given (batch, tokens) shape: each sequence a random
    number of real tokens, then padding; the first one padded when it has more than one token."""
    batch, tokens = shape
    lengths = rng.integers(1, tokens + 1, size=batch)
    lengths[0] = max(1, tokens - 1)
    return (np.arange(tokens)[None, :] < lengths[:, None]).astype(value.dtype)


def _positions(value: np.ndarray, shape: tuple, rng: np.random.Generator) -> np.ndarray:
    """Positions of ``value``'s dtype, one per token: distinct, neither consecutive nor from 0, in no
    order (so that no shift of 0, 1, 2, ... reproduces them)."""
    (tokens,) = shape
    chosen = rng.choice(np.arange(1, 4 * tokens + 4), size=tokens, replace=False)
    if tokens >= 2 and np.all(np.diff(np.sort(chosen)) == 1):
        chosen[-1] += 2
    return chosen.astype(value.dtype)


# inputs of their own kind (key masks, positions), by the mark their spec starts with: the probes make
# new ones of that kind instead of new values
_MAKERS = {"%": _key_mask, "#": _positions}


def evidence_probes(exercise: str, inputs: list, kwargs: dict) -> list[dict]:
    """Further inputs for one check of ``exercise`` on ``inputs`` (see the module's docstring)."""
    again = [{"inputs": list(inputs), "kwargs": kwargs, "label": "the same input a second time",
              "repeat": True}] if exercise in REPEATED else []
    contract = CONTRACTS.get(exercise)
    if contract is None or violations(exercise, inputs):
        return again
    probes = []
    specs = list(zip(contract, inputs, strict=True))
    numeric = [i for i, (spec, v) in enumerate(specs) if _numeric(v) and "<=" not in spec and spec[0] not in _MAKERS]
    if numeric:
        rng = _rng(exercise, inputs, "values")
        values = [_fresh(v, v.shape, rng) if i in numeric else _MAKERS[spec[0]](v, v.shape, rng) if spec[0] in _MAKERS
                  else v for i, (spec, v) in enumerate(specs)]
        probes.append({"inputs": values, "kwargs": kwargs, "label": "other values of the same shapes"})
        factor = {1: 1000.0, 2: 40.0, 3: 12.0}.get(len(numeric), 8.0)
        large = [(v * factor).astype(v.dtype) if i in numeric else v for i, v in enumerate(values)]
        probes.append({"inputs": large, "kwargs": kwargs, "label": "large values (scores in the thousands)",
                       "loose": True})
    heads = [value for spec, value in specs if spec == "heads"]
    # with a number of heads, every size a multiple of another number of heads (so that d_head
    # differs from d_k / heads read off another width)
    reshaped = _other_sizes(exercise, specs, (3 if int(heads[0]) == 2 else 2) if heads else None)
    if reshaped is not None:
        probes.append({"inputs": reshaped[0], "kwargs": kwargs, "label": reshaped[1]})
    if exercise in SQUARE:
        probes.append(_square(exercise, specs, kwargs))
    return probes + again


def _square(exercise: str, specs: list, kwargs: dict) -> dict:
    """Inputs of the same kinds whose ``SQUARE`` axes all take one new size, the others kept."""
    axes = SQUARE[exercise]
    original, order = _named_sizes(specs)
    size = next(s for s in _SIZES if s not in original.values())
    sizes = {name: size if name in axes else original[name] for name in order}
    inputs = _inputs_of_sizes(specs, sizes, None, _rng(exercise, [v for _, v in specs], "square"))
    return {"inputs": inputs, "kwargs": kwargs, "label": f"square inputs ({' = '.join(axes)} = {size})"}


def _named_sizes(specs: list) -> tuple[dict[str, int], list[str]]:
    """Each named axis's size in a check's inputs, and the names in the order they first appear."""
    original: dict[str, int] = {}
    order: list[str] = []
    for spec, value in specs:
        if spec in _SCALARS:
            continue
        if spec.startswith("="):
            names, core = [spec[1:]], [int(value)]
        elif "<=" in spec:
            names, core = [spec.split()[0]], [np.shape(value)[0]]
        else:
            _, _, names = parse_spec(spec)
            core = list(np.shape(value)[len(np.shape(value)) - len(names):])
        for name, size in zip(names, core, strict=True):
            if name not in original:
                order.append(name)
            original.setdefault(name, size)
    return original, order


def _other_sizes(exercise: str, specs: list, heads: int | None = None) -> tuple[list, str] | None:
    """Inputs of the same kinds with every named size changed, all sizes different from each other;
    with ``heads``, that number of heads, every width (``d_...``, split into the heads) a multiple of
    it, and sizes equal in the check equal here too (a layer given square weights keeps square
    weights). Batches and tokens are not split into heads: they stay small."""
    original, order = _named_sizes(specs)
    if not order:
        return None
    sizes: dict[str, int] = {}
    renamed: dict[tuple[int, int], int] = {}  # with heads: widths equal in the check stay equal (d_v = d_k)
    for name in order:
        step = heads if heads and name.startswith("d_") else 1
        if heads and (original[name], step) in renamed:
            sizes[name] = renamed[(original[name], step)]
            continue
        sizes[name] = next(s * step for s in _SIZES
                           if s * step not in sizes.values() and s * step != original[name]
                           and not (name in _EVEN and s * step % 2))
        renamed[(original[name], step)] = sizes[name]
    for name, group in MULTIPLES.items():  # a multiple of two or more, other than the check's own size
        if name in sizes and group in sizes:
            sizes[name] = next(sizes[group] * k for k in range(2, 2 + len(_SIZES))
                               if sizes[group] * k != original[name])
    inputs = _inputs_of_sizes(specs, sizes, heads, _rng(exercise, [v for _, v in specs], "sizes"))
    described = ", ".join([f"{name}={sizes[name]}" for name in order] + ([f"heads={heads}"] if heads else []))
    return inputs, f"other sizes ({described})"


def _inputs_of_sizes(specs: list, sizes: dict[str, int], heads: int | None, rng: np.random.Generator) -> list:
    """New inputs of the same kinds with the named axes of ``sizes`` (and ``heads``, if given)."""
    inputs = []
    for spec, value in specs:
        if spec == "heads" and heads:
            inputs.append(type(value)(heads))
        elif spec in _SCALARS:
            inputs.append(value)
        elif spec.startswith("="):
            inputs.append(type(value)(sizes[spec[1:]]))
        elif "<=" in spec:
            axis, bound = spec.split("<=")
            inputs.append(rng.integers(1, sizes[bound] + 1, size=sizes[axis.split()[0]]).astype(value.dtype))
        else:
            broadcastable, _, names = parse_spec(spec)
            shape = np.shape(value)
            lead, core = shape[:len(shape) - len(names)], shape[len(shape) - len(names):]
            new = tuple(1 if broadcastable and size == 1 else sizes[name]
                        for name, size in zip(names, core, strict=True))
            maker = _MAKERS.get(spec[0], _fresh)
            inputs.append(maker(np.asarray(value), lead + new, rng))
    return inputs

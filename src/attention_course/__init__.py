"""Shared code of the *Attention from Scratch* course.

One package serves the notebooks, the visible checks and the autograder:

- :mod:`attention_course.data`: the source walkthroughs' inputs and weights, with where they come from;
- :mod:`attention_course.reference`: reference implementations in NumPy (the ground truth);
- :mod:`attention_course.reference_torch`, :mod:`attention_course.reference_tf`: the same in
  PyTorch and TensorFlow, built from each framework's own operations;
- :mod:`attention_course.checks`: the checks the notebooks' test cells call; a failed check names
  the likely mistake (see :mod:`attention_course.mistakes`);
- :mod:`attention_course.plots`: attention heatmaps labelled with tokens.
"""

import os

# TensorFlow logs from C++ straight to stderr, and nbgrader scores a test cell that writes to
# stderr as 0. Silence it before anything can import TensorFlow.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

__version__ = "0.1.0"

"""Code that runs where submitted code runs: the warm zygote, the isolation, the cell runner."""

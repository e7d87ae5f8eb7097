"""gofer.decide."""

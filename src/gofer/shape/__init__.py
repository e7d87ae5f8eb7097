"""gofer.shape."""

"""gofer.demo."""

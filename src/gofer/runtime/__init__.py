"""gofer.runtime."""

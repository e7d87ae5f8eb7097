"""gofer.safety."""

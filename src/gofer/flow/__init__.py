"""gofer.flow."""

"""gofer.surfaces."""

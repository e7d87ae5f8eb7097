"""gofer.facts."""

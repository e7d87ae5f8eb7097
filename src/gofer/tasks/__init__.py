"""gofer.tasks."""

"""gofer.shape: giving a finished task's records the shape its caller asked for.

For now this holds the JSON Schema subset an output schema may use
(:mod:`gofer.shape.schema`): checking a schema, and checking a value against it.
"""

from __future__ import annotations

from gofer.shape.schema import (
    JSON_TYPES,
    MAX_SCHEMA_DEPTH,
    SUPPORTED_KEYWORDS,
    Violation,
    check_output_schema,
    schema_violations,
)

__all__ = [
    "JSON_TYPES",
    "MAX_SCHEMA_DEPTH",
    "SUPPORTED_KEYWORDS",
    "Violation",
    "check_output_schema",
    "schema_violations",
]

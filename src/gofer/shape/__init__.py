"""gofer.shape: giving a finished task's records the shape its caller asked for.

:mod:`gofer.shape.schema` is the JSON Schema subset an output schema may use (pure:
checking a schema, checking a value against it); :class:`ModelShaper` is the pass
that asks a model for the result, once every step has finished.
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
from gofer.shape.shaper import REPAIRS, SHAPE_PROTOCOL, ModelShaper, shape_messages
from gofer.shape.types import ShapeBrief

__all__ = [
    "JSON_TYPES",
    "MAX_SCHEMA_DEPTH",
    "REPAIRS",
    "SHAPE_PROTOCOL",
    "SUPPORTED_KEYWORDS",
    "ModelShaper",
    "ShapeBrief",
    "Violation",
    "check_output_schema",
    "schema_violations",
    "shape_messages",
]

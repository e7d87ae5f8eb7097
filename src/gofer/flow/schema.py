"""Machine-readable descriptions of the flow contract, generated from the specs:
:func:`step_kinds` for Describe and :func:`flow_json_schema` (JSON Schema 2020-12)."""

from __future__ import annotations

import copy
from typing import Any

from gofer.flow.spec import (
    CONDITION_FORMS,
    KIND_SPECS,
    MODIFIERS,
    SURFACES,
    FieldSpec,
    FieldType,
)
from gofer.flow.steps import CONTRACT_VERSION, MAX_STEPS
from gofer.naming import MAX_NAME_LENGTH, NAME_PATTERN

__all__ = ["NAME_PATTERN", "field_info", "flow_json_schema", "step_kinds"]

_WORDS: dict[str, Any] = {"type": "string", "pattern": r"\S"}


def field_info(spec: FieldSpec) -> dict[str, Any]:
    """One field as Describe shows it."""
    info: dict[str, Any] = {
        "name": spec.key,
        "type": spec.type_label,
        "required": spec.required,
        "description": spec.description,
    }
    if not spec.required and spec.default not in (None, ()):
        info["default"] = spec.default
    return info


def step_kinds() -> list[dict[str, Any]]:
    """Every step kind: its name, summary, fields (type, required, description), example."""
    return [
        {
            "name": spec.kind,
            "summary": spec.summary,
            "fields": [field_info(f) for f in spec.fields],
            "example": copy.deepcopy(spec.example),
        }
        for spec in KIND_SPECS
    ]


def _field_schema(spec: FieldSpec) -> dict[str, Any]:
    schema: dict[str, Any]
    if spec.type is FieldType.TEXT:
        schema = {"type": "string"}
    elif spec.type in (FieldType.TARGET, FieldType.WORDS, FieldType.KEY):
        schema = dict(_WORDS)
    elif spec.type is FieldType.ADDRESS:
        schema = {"type": "string", "pattern": r"^\s*([hH][tT][tT][pP][sS]?://|\$\{)"}
    elif spec.type is FieldType.NAME:
        schema = {"type": "string", "pattern": NAME_PATTERN, "maxLength": MAX_NAME_LENGTH}
    elif spec.type is FieldType.BOOL:
        schema = {"type": "boolean"}
    elif spec.type is FieldType.INT:
        schema = {"type": "integer"}
        if spec.minimum is not None:
            schema["minimum"] = spec.minimum
        if spec.maximum is not None:
            schema["maximum"] = spec.maximum
    elif spec.type is FieldType.SURFACE:
        schema = {"enum": list(SURFACES)}
    elif spec.type is FieldType.CONDITION:
        schema = {"$ref": "#/$defs/condition"}
    else:
        schema = {"$ref": "#/$defs/steps"}
    schema["description"] = spec.description
    if not spec.required and spec.default not in (None, ()):
        schema["default"] = spec.default
    return schema


def _condition_schema() -> dict[str, Any]:
    forms: list[dict[str, Any]] = []
    for form in CONDITION_FORMS:
        if not form.keys:
            forms.append({**_WORDS, "description": form.description})
            continue
        properties: dict[str, Any] = {}
        for key in form.keys:
            if key in ("all", "any"):
                properties[key] = {
                    "type": "array",
                    "minItems": 1,
                    "items": {"$ref": "#/$defs/condition"},
                }
            elif key == "var":
                properties[key] = {
                    "type": "string",
                    "pattern": NAME_PATTERN,
                    "maxLength": MAX_NAME_LENGTH,
                }
            elif key == "empty":
                properties[key] = {"type": "boolean"}
            elif key == "equals":
                properties[key] = {"type": "string"}
            else:
                properties[key] = dict(_WORDS)
        forms.append(
            {
                "type": "object",
                "description": form.description,
                "properties": properties,
                "required": list(form.keys),
                "additionalProperties": False,
            }
        )
    return {"anyOf": forms}


def flow_json_schema() -> dict[str, Any]:
    """A JSON Schema (2020-12) for a flow. Nesting depth, the step count over all
    levels, and the secret rule are beyond it: :func:`gofer.flow.check_flow` checks those."""
    defs: dict[str, Any] = {}
    for spec in KIND_SPECS:
        defs[f"step_{spec.kind}"] = {
            "type": "object",
            "description": spec.summary,
            "properties": {f.key: _field_schema(f) for f in (*spec.fields, *MODIFIERS)},
            "required": [f.key for f in spec.fields if f.required],
            "additionalProperties": False,
        }
    defs["step"] = {"oneOf": [{"$ref": f"#/$defs/step_{spec.kind}"} for spec in KIND_SPECS]}
    defs["steps"] = {"type": "array", "items": {"$ref": "#/$defs/step"}}
    defs["top_steps"] = {
        "type": "array",
        "items": {"$ref": "#/$defs/step"},
        "minItems": 1,
        "maxItems": MAX_STEPS,
    }
    defs["condition"] = _condition_schema()
    defs["flow_object"] = {
        "type": "object",
        "properties": {
            "vars": {
                "type": "object",
                "description": "the flow's own variables with their starting values",
                "propertyNames": {"pattern": NAME_PATTERN, "maxLength": MAX_NAME_LENGTH},
            },
            "steps": {"$ref": "#/$defs/top_steps"},
        },
        "required": ["steps"],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"gofer flow (contract {CONTRACT_VERSION})",
        "description": "an object with `vars` and `steps`, or a bare list of steps",
        "oneOf": [{"$ref": "#/$defs/flow_object"}, {"$ref": "#/$defs/top_steps"}],
        "$defs": defs,
    }

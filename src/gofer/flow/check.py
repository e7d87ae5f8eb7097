"""Checking a flow against the caller's facts: secrets in the wrong place, and the
names nothing supplies (returned as questions, not as problems)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gofer.flow.names import file_names
from gofer.flow.parse import read_flow
from gofer.flow.problems import FlowCheck, Problem, ProblemCode, where
from gofer.flow.rules import flow_rule_problems
from gofer.flow.steps import Download, Enter, Flow, Read, SavePdf, Step, Upload
from gofer.flow.walk import iter_steps, names_in_step

__all__ = ["check_flow", "fact_problems", "validate_flow"]


def fact_problems(
    fragments: Sequence[tuple[str, Step]],
    flow_vars: Iterable[str],
    facts: Iterable[str] = (),
    secrets: Iterable[str] = (),
) -> tuple[list[Problem], list[str]]:
    """Secret misuse and unsupplied names over steps given with their paths, in order.

    A secret may appear only as an ``enter`` step's value or an ``upload`` step's file. A
    name is supplied by a flow variable, a fact (a file given to the task is one), a
    secret, or the ``as`` of a ``read``, ``download`` or ``save_pdf`` anywhere in the flow.
    """
    secret_names = set(secrets)
    supplied = {*flow_vars, *facts, *secret_names}
    supplied.update(
        step.as_ for _, step in fragments if isinstance(step, Read | Download | SavePdf)
    )
    problems: list[Problem] = []
    questions: dict[str, None] = {}
    for path, step in fragments:
        used = names_in_step(step)
        if isinstance(step, Upload):
            used += [
                (name, "upload") for name in file_names(step.files) if (name, "upload") not in used
            ]
        if isinstance(step, Read) and step.from_:
            used.append((step.from_, "from"))
        for name, key in used:
            if name in secret_names:
                if not _may_hold_secret(step, key):
                    problems.append(_misplaced(name, path, key))
            elif name not in supplied:
                questions.setdefault(name, None)
        if isinstance(step, Read | Download | SavePdf) and step.as_ in secret_names:
            problems.append(_misplaced(step.as_, path, "as"))
    return problems, list(questions)


def _may_hold_secret(step: Step, key: str) -> bool:
    return (isinstance(step, Enter) and key == "enter") or (
        isinstance(step, Upload) and key == "upload"
    )


def _misplaced(name: str, path: str, key: str) -> Problem:
    return Problem(
        ProblemCode.SECRET_MISPLACED,
        path,
        f"{where(path)}: the secret ${{{name}}} is used in `{key}`; a secret may appear only "
        "as the value of an `enter` step or the file of an `upload` step",
        key,
    )


def check_flow(flow: Flow, facts: Iterable[str] = (), secrets: Iterable[str] = ()) -> FlowCheck:
    """Every problem of a flow (contract rules, and secrets outside an ``enter`` value),
    and the names nothing supplies as ``questions`` (once each, in order of first use).

    ``facts`` are the names of the caller's facts; ``secrets`` the names among them
    that are secret.
    """
    problems = flow_rule_problems(flow)
    misuse, questions = fact_problems(list(iter_steps(flow.steps)), flow.vars, facts, secrets)
    return FlowCheck(tuple(problems + misuse), tuple(questions))


def validate_flow(
    data: Any, facts: Iterable[str] = (), secrets: Iterable[str] = ()
) -> tuple[Flow | None, FlowCheck]:
    """Parse and check in one go: the flow (``None`` when it did not parse) and every
    problem of both kinds. Steps that parsed are checked against the facts even when
    others did not, so one answer lists everything to fix."""
    parsed = read_flow(data)
    misuse, questions = fact_problems(parsed.fragments, parsed.vars, facts, secrets)
    return parsed.flow, FlowCheck(tuple(parsed.problems + misuse), tuple(questions))

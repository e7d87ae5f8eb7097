"""Every limit and default of the task controller, in one place."""

from __future__ import annotations

from gofer.runtime import DEFAULT_VOTES, MAX_VOTES  # the decider's own numbers

__all__ = [
    "ARTIFACT_TTL_S",
    "DEFAULT_LIST_LIMIT",
    "DEFAULT_MAX_ACTIONS",
    "DEFAULT_MAX_MODEL_CALLS",
    "DEFAULT_MAX_RESCUES",
    "DEFAULT_VOTES",
    "DRAIN_S",
    "HOLD_FOR_PERSON_S",
    "LEASE_MS",
    "MAX_AWAIT_MS",
    "MAX_FACTS",
    "MAX_FACT_CHARS",
    "MAX_FACT_NAME_CHARS",
    "MAX_HINTS",
    "MAX_LIST_LIMIT",
    "MAX_OPEN_TASKS",
    "MAX_RECORD_CHARS",
    "MAX_RESCUES",
    "MAX_SUMMARY_CHARS",
    "MAX_TASKS",
    "MAX_VOTES",
    "PRELOAD_TIMEOUT_S",
    "SAFETY_WAKE_S",
    "TURNS_PER_OWNER",
    "TURNS_PER_PROCESS",
]

MAX_TASKS = 32
"""Tasks one controller holds at once; finished ones are dropped first to make room."""

MAX_AWAIT_MS = 60_000
"""The longest ``await_task`` waits; longer timeouts are cut to this."""

DEFAULT_LIST_LIMIT = 100
"""Tasks one listing answers with when the caller names no ``limit``."""

MAX_LIST_LIMIT = 500
"""The most tasks one listing answers with; ``next_cursor`` leads to the rest."""

MAX_OPEN_TASKS = 100
"""Tasks of one owner that may wait to run or run at once (in a store); one more is
TOO_MANY_TASKS until one of them stops."""

MAX_FACTS = 100
"""The most facts a task may be given (and values one answer may carry)."""

MAX_HINTS = 500
"""The most grounding hints a task starts with (a saved flow's)."""

MAX_FACT_CHARS = 4_096
"""The longest value a fact or an answer may hold."""

MAX_FACT_NAME_CHARS = 200
"""The longest name a fact may have."""

DEFAULT_MAX_ACTIONS = 120
"""Actions a task may take over all its runs when ``budget.max_actions`` is unset."""

DEFAULT_MAX_MODEL_CALLS = 6_000
"""Model calls a task may make over all its runs when ``budget.max_model_calls`` is unset."""

MAX_RESCUES = 5
"""The most failed steps one task may have rescued (``budget.max_rescues`` is 0 to this)."""

DEFAULT_MAX_RESCUES = MAX_RESCUES


ARTIFACT_TTL_S = 300
"""Seconds a stopped run's screenshot stays readable."""

MAX_SUMMARY_CHARS = 300
"""The longest one-sentence summary a view carries."""

MAX_RECORD_CHARS = 200
"""How much of one record the answer sentence shows."""

PRELOAD_TIMEOUT_S = 10.0
"""The longest a planned task waits for the page its text names to load meanwhile."""

TURNS_PER_OWNER = 3
"""Turns one owner may have running at once, across every worker."""

TURNS_PER_PROCESS = 10
"""Turns one worker process runs at once."""

DRAIN_S = 20.0
"""How long a stopping process (SIGTERM, SIGINT) lets the turns it runs go on to their
stop before it cuts them and puts them back on the queue: most turns end within it,
so a rolling restart runs each turn once; a second signal cuts at once."""

LEASE_MS = 30_000
"""A turn's lease; its worker renews it every third of that while the turn runs, and a
dead worker's turn is run again once it lapses."""

SAFETY_WAKE_S = 2.0
"""How often an idle worker or a waiting ``await_task`` looks again without a notice:
a safety net only (a notice wakes them at once)."""

HOLD_FOR_PERSON_S = 900.0
"""How long a task paused for its caller (a wall, an approval, a checkpoint, a failed
step) keeps its browser after the last time anything acted on it (its run, or a
person in its live view): then the browser goes, and the run that continues the task
opens the page it was on again. A quarter of an hour covers a person fetching a code
or a card, and is about as long as the sites themselves keep a sign-in form, a
payment page or a held fare; a browser context held longer costs memory for a page
that has most likely expired."""

"""gofer.decider: the model decider, a model pass.

Where the grounder's evidence is thin (a ``low_confidence`` grounding, a ``do``
step, a condition in words), the runtime asks a :class:`~gofer.runtime.ModelDecider`
for a second opinion. :class:`VotingDecider` is that pass: it shows a language model
the step, the elements it may mean and the screen, wrapped as untrusted data with
every secret masked, and acts on the majority of several votes (``voting``); how the
votes are asked, counted and stepped down when the budget runs short are pure rules
(``votes``). The seam's types (the allowance a decision may spend, the ruling and the
verdict it answers) belong to the runtime; :mod:`gofer.decide` stays pure rules.
"""

from __future__ import annotations

from gofer.decider.votes import (
    NONE_FITS,
    STANDARD_VOTES,
    Tally,
    TallyOutcome,
    VotePlan,
    majority_of,
    next_round,
    plan_votes,
    read_choice,
    read_verdict,
)
from gofer.decider.voting import (
    DIGEST_SIZE,
    SCREEN_CHARS,
    VotingDecider,
    choice_messages,
    digest,
    judge_messages,
)

__all__ = [
    "DIGEST_SIZE",
    "NONE_FITS",
    "SCREEN_CHARS",
    "STANDARD_VOTES",
    "Tally",
    "TallyOutcome",
    "VotePlan",
    "VotingDecider",
    "choice_messages",
    "digest",
    "judge_messages",
    "majority_of",
    "next_round",
    "plan_votes",
    "read_choice",
    "read_verdict",
]

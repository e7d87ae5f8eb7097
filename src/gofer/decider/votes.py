"""The model decider's pure rules: how a decision is asked, how its votes are counted,
and how far deliberation steps down when the budget runs short.

* :class:`Strategy` says what the model is shown: ``narrow`` (the default) numbers
  only the grounder's ranked candidates; ``wide`` numbers a digest of every usable
  control on the screen, one request per vote over that digest.
* :class:`Deliberation` says how many votes a decision gets: ``deep`` (the default,
  :data:`DEFAULT_VOTES`), ``standard`` (:data:`STANDARD_VOTES`) or ``off`` (one).
  Votes are asked in rounds, each only as large as could still settle a majority,
  so a clear case spends the fewest calls.
* :func:`plan_votes` steps down rung by rung (deep, standard, off, then no model at
  all) when the model calls or the time left cannot pay for a rung.
* :class:`Tally` counts votes: a majority is acted on; otherwise the most-voted
  choice; a tie goes to the one the grounder ranked first; invalid answers abstain.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

from gofer.runtime import MAX_VOTES, Deliberation

__all__ = [
    "NONE_FITS",
    "STANDARD_VOTES",
    "Tally",
    "TallyOutcome",
    "VotePlan",
    "majority_of",
    "next_round",
    "plan_votes",
    "read_choice",
    "read_verdict",
]

STANDARD_VOTES = 3
"""How many ways a decision is voted under ``standard`` deliberation."""

NONE_FITS = 0
"""The choice that says no numbered element does what the step asks."""


_LADDER = (Deliberation.DEEP, Deliberation.STANDARD, Deliberation.OFF)


def majority_of(votes: int) -> int:
    """The votes one choice needs to be more than half of ``votes``."""
    return votes // 2 + 1


def _rounds(votes: int) -> int:
    """The most rounds a decision of ``votes`` can take: a first round the size of a
    majority, then rounds that each settle at least one more vote."""
    return 1 + (votes - majority_of(votes))


@dataclass(frozen=True, slots=True)
class VotePlan:
    """How one decision is asked: on which rung, with how many votes at most.

    ``votes`` 0 means no model is asked at all (the budget cannot pay for one vote);
    ``stepped_down`` says why the rung is lower than the one configured, or is ``""``.
    """

    rung: Deliberation | None
    votes: int
    stepped_down: str = ""


def _votes_on(rung: Deliberation, votes: int) -> int:
    if rung is Deliberation.DEEP:
        return votes
    if rung is Deliberation.STANDARD:
        return min(STANDARD_VOTES, votes)
    return 1


def plan_votes(
    deliberation: Deliberation,
    votes: int,
    *,
    calls_left: int | None,
    seconds_left: float | None = None,
    seconds_per_call: float | None = None,
) -> VotePlan:
    """The highest rung, from ``deliberation`` down, that the budget can pay for.

    A rung fits when its votes fit in ``calls_left`` and its most rounds, each about
    ``seconds_per_call`` long (calls in one round run side by side), fit in
    ``seconds_left``. With neither known, nothing limits the rung. When not even one
    vote fits, the plan asks no model (``rung`` None).
    """
    votes = max(1, min(votes, MAX_VOTES))
    why: list[str] = []
    for rung in _LADDER[_LADDER.index(deliberation) :]:
        n = _votes_on(rung, votes)
        if calls_left is not None and n > calls_left:
            why.append(f"{rung.value} needs {n} model calls, {calls_left} left")
            continue
        if (
            seconds_left is not None
            and seconds_per_call is not None
            and _rounds(n) * seconds_per_call > seconds_left
        ):
            why.append(
                f"{rung.value} needs about {_rounds(n) * seconds_per_call:.1f} s, "
                f"{seconds_left:.1f} s left"
            )
            continue
        return VotePlan(rung, n, "; ".join(why))
    if seconds_left is not None and seconds_left <= 0:
        why.append("no time left")
    return VotePlan(None, 0, "; ".join(why) or "no model calls left")


@dataclass(frozen=True, slots=True)
class TallyOutcome:
    """What a tally came to: the choice (None when no vote was valid), and how."""

    choice: int | None
    how: str  # "majority" | "plurality" | "tie" | "no valid answer"
    counts: tuple[tuple[int, int], ...]  # (choice, votes), most votes first
    asked: int
    abstained: int

    def describe(self, name: dict[int, str] | None = None) -> str:
        """The votes in words: "4 of 5 votes for 2 ('Continue to checkout')"."""

        def said(choice: int) -> str:
            label = (name or {}).get(choice)
            if choice == NONE_FITS and label is None:
                return "none of them"
            return f"{choice} ({label})" if label else str(choice)

        if self.choice is None:
            return f"no valid answer in {self.asked} votes"
        top = dict(self.counts).get(self.choice, 0)
        rest = ", ".join(f"{n} for {said(c)}" for c, n in self.counts if c != self.choice)
        text = f"{self.how}: {top} of {self.asked} votes for {said(self.choice)}"
        if rest:
            text += f" ({rest})"
        if self.abstained:
            text += f"; {self.abstained} invalid"
        return text


@dataclass(slots=True)
class Tally:
    """The votes of one decision so far. ``ranking`` is the order the grounder ranked
    the choices in (first is best), for breaking a tie."""

    ranking: tuple[int, ...] = ()
    counts: Counter[int] = field(default_factory=Counter)
    asked: int = 0
    abstained: int = 0

    def add(self, choice: int | None) -> None:
        """Count one vote; None is an answer that chose nothing valid."""
        self.asked += 1
        if choice is None:
            self.abstained += 1
        else:
            self.counts[choice] += 1

    def settled(self, votes: int) -> bool:
        """Whether a choice already has a majority of ``votes``."""
        return bool(self.counts) and max(self.counts.values()) >= majority_of(votes)

    def outcome(self, votes: int) -> TallyOutcome:
        """The decision: a majority of ``votes``, else the most-voted choice, else the
        tied choice ranked first (by ``ranking``, then the lowest number)."""
        ordered = tuple(sorted(self.counts.items(), key=lambda cv: (-cv[1], self._rank(cv[0]))))
        if not ordered:
            return TallyOutcome(None, "no valid answer", (), self.asked, self.abstained)
        best, top = ordered[0]
        if top >= majority_of(votes):
            how = "majority"
        elif len(ordered) > 1 and ordered[1][1] == top:
            how = "tie"
        else:
            how = "plurality"
        return TallyOutcome(best, how, ordered, self.asked, self.abstained)

    def _rank(self, choice: int) -> tuple[int, int]:
        if choice in self.ranking:
            return (0, self.ranking.index(choice))
        return (1, choice)


def next_round(tally: Tally, votes: int) -> int:
    """How many votes to ask next: none once a majority is reached or every vote is
    asked, else the fewest that could still give the leader a majority (all that are
    left when none can)."""
    left = votes - tally.asked
    if left <= 0 or tally.settled(votes):
        return 0
    lead = max(tally.counts.values(), default=0)
    return min(left, majority_of(votes) - lead)


_NUMBER = re.compile(r"-?\d+")


def _json_field(text: str, key: str) -> object:
    start = text.find("{")
    while start != -1:
        try:
            value, _ = json.JSONDecoder().raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict) and key in value:
            return value[key]
        start = text.find("{", start + 1)
    return None


def read_choice(text: str, count: int) -> int | None:
    """The choice an answer makes among ``count`` numbered elements: 1 to ``count``,
    :data:`NONE_FITS` for none, or None for an answer that makes no valid choice.

    The answer is ``{"choice": N}``, alone or inside prose; a bare number is taken too.
    """
    value = _json_field(text, "choice")
    if value is None:
        bare = text.strip().rstrip(".")
        value = int(bare) if _NUMBER.fullmatch(bare) else None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or not 0 <= value <= count:
        return None
    return value


_YES = frozenset({"yes", "true", "holds"})
_NO = frozenset({"no", "false", "does not hold"})


def read_verdict(text: str) -> int | None:
    """A yes/no answer as a choice: 1 for yes, 0 for no, None when it says neither.

    The answer is ``{"holds": true|false}``, alone or inside prose; a bare yes or no
    is taken too.
    """
    value = _json_field(text, "holds")
    if isinstance(value, bool):
        return 1 if value else 0
    if isinstance(value, str):
        value = value.strip().casefold()
    else:
        value = text.strip().rstrip(".").casefold()
    if value in _YES:
        return 1
    if value in _NO:
        return 0
    return None

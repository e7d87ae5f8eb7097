"""The model decider: a second opinion, by vote, where the grounder's evidence is thin.

The runtime asks :class:`VotingDecider` only when the grounder answers
``low_confidence``, for a ``do`` step, and for a condition in words. The model is
shown the step, a numbered list of the elements it may mean and the screen's visible
text, the last two wrapped as untrusted data (see :mod:`gofer.models.prompting`),
with every secret value masked. It answers with one number; the decision is voted
several ways (:mod:`gofer.decider.votes`) and the majority is acted on. When the
task's model calls or time run short, deliberation steps down rung by rung, and with
nothing left the runtime goes on with the grounder's own pick instead of failing.

Everything the decider spends is reported in :attr:`Ruling.calls`, so the runtime
counts every call into the task's ``max_model_calls``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from gofer.decide import CLOSE_MARGIN, WEAK, Grounding, Query, Want, describe
from gofer.decider.votes import (
    NONE_FITS,
    Tally,
    TallyOutcome,
    next_round,
    plan_votes,
    read_choice,
    read_verdict,
)
from gofer.errors import ModelError
from gofer.models import UNTRUSTED_RULE, CallMeter, LanguageModel, Message, untrusted
from gofer.runtime import (
    DEFAULT_VOTES,
    Allowance,
    Deliberation,
    Ruling,
    Strategy,
    Verdict,
)
from gofer.surfaces.screen import Element, Screen

__all__ = [
    "DIGEST_SIZE",
    "SCREEN_CHARS",
    "VotingDecider",
    "choice_messages",
    "digest",
    "judge_messages",
]

log = logging.getLogger("gofer.decider")

SCREEN_CHARS = 6_000
"""How much of the screen's visible text a decision shows the model."""

DIGEST_SIZE = 60
"""The most elements the ``wide`` strategy (and a ``do`` step) numbers for the model."""

RESERVE_S = 2.0
"""Time a decision leaves the run for acting on it, out of the time the task has left."""

DECISION_TIMEOUT_S = 90.0
"""The longest one decision waits for its votes, whatever the budget says."""

_WANTS = {
    Want.CLICK: "the button, link, tab or other control to press",
    Want.FIELD: "the field to type into",
    Want.CONTROL: "the control to choose in (a select, list, radio group, date field...)",
    Want.OPTION: "the option to pick",
    Want.ACTION: "the control that does the action (the run stops in front of it)",
}

_CHOOSE_PROTOCOL = f"""\
You help a program that runs a job in a web browser decide which element on the page \
one step of the job means. The program could not tell for sure by itself.
You get the step, a numbered list of elements, and the text the page shows.
- Pick the one element the step means, as a careful person would on this page.
- Answer 0 when none of the numbered elements does what the step asks.
- Answer with exactly one JSON object and nothing else: {{"choice": N}}
- {UNTRUSTED_RULE}
"""

_JUDGE_PROTOCOL = f"""\
You help a program that runs a job in a web browser judge whether a condition holds \
on the page as it is now. You get the condition, the page's controls and its text.
- Judge only by what the page shows now; do not guess about anything it does not show.
- Answer with exactly one JSON object and nothing else: {{"holds": true}} or \
{{"holds": false}}
- {UNTRUSTED_RULE}
"""


def _usable(el: Element) -> bool:
    return el.visible or (el.role in ("radio", "checkbox", "switch") and bool(el.label))


def digest(screen: Screen, first: Sequence[Element] = (), size: int = DIGEST_SIZE) -> list[Element]:
    """The elements the ``wide`` strategy numbers: ``first`` (the grounder's candidates),
    then every other usable control on the screen, those not under a popup first, in
    the screen's order, at most ``size``."""
    out: list[Element] = list(first)[:size]
    seen = {el.ref for el in out}
    rest = [el for el in screen.elements if el.ref not in seen and _usable(el)]
    rest.sort(key=lambda el: not el.on_top)
    out.extend(rest[: max(0, size - len(out))])
    return out


def _line(n: int, el: Element) -> str:
    bits = [f"{n}. {describe(el)}"]
    if el.value:
        bits.append(f"value '{el.value[:80]}'")
    if el.placeholder and el.placeholder != el.display_name:
        bits.append(f"placeholder '{el.placeholder[:60]}'")
    if el.group:
        bits.append(f"in group '{el.group[:60]}'")
    if el.checked is not None:
        bits.append("checked" if el.checked else "not checked")
    if el.selected:
        bits.append("selected")
    if el.disabled:
        bits.append("disabled")
    if not el.visible:
        bits.append("hidden")
    if not el.on_top:
        bits.append("covered by a popup")
    return ", ".join(bits)


def _screen_text(screen: Screen, limit: int = SCREEN_CHARS) -> str:
    text = screen.text
    if len(text) <= limit:
        return text
    return text[:limit].rsplit("\n", 1)[0] + "\n[... the rest of the page is left out]"


def _why(grounding: Grounding | None) -> str:
    """Why the grounder is unsure, in words of the step alone (never the page's)."""
    if grounding is None or not grounding.candidates:
        return ""
    scores = [c.score for c in grounding.candidates]
    if len(scores) > 1 and scores[1] >= scores[0] - CLOSE_MARGIN:
        return (
            f"{sum(s >= scores[0] - CLOSE_MARGIN for s in scores)} elements match the "
            "step's words about equally well"
        )
    if scores[0] < WEAK:
        return "no element matches the step's words well"
    return "the place the step names could not be found on the page"


def _step_words(query: Query, step: str) -> str:
    where = f" within '{query.within}'" if query.within else ""
    head = f"The step: {step}" if step else f"The step: {query.kind or 'act on'} '{query.words}'"
    if query.kind == "do":
        return head + "\nWhat to find: the one control to press that does what the step asks."
    return f"{head}\nWhat to find: {_WANTS[query.want]} that '{query.words}'{where} names."


def choice_messages(
    query: Query,
    screen: Screen,
    elements: Sequence[Element],
    *,
    step: str = "",
    why: str = "",
    redact: Callable[[str], str] = lambda s: s,
) -> list[Message]:
    """The conversation one vote on ``query`` opens with (every part through ``redact``)."""
    listed = "\n".join(_line(i, el) for i, el in enumerate(elements, 1))
    parts = [_step_words(query, step)]
    if why:
        parts.append(f"Why the program is unsure: {why}")
    parts.append("The elements, numbered (0 is none of them):\n" + untrusted(listed, "elements"))
    parts.append(f"The page ({screen.url}) shows:\n" + untrusted(_screen_text(screen), "screen"))
    parts.append('Answer {"choice": N}.')
    return [Message("system", _CHOOSE_PROTOCOL), Message("user", redact("\n\n".join(parts)))]


def judge_messages(
    condition: str, screen: Screen, *, redact: Callable[[str], str] = lambda s: s
) -> list[Message]:
    """The conversation one vote on whether ``condition`` holds opens with."""
    listed = "\n".join(_line(i, el) for i, el in enumerate(digest(screen), 1))
    parts = [
        f"The condition: {condition}",
        "The page's controls:\n" + untrusted(listed, "elements"),
        f"The page ({screen.url}) shows:\n" + untrusted(_screen_text(screen), "screen"),
        'Does the condition hold? Answer {"holds": true} or {"holds": false}.',
    ]
    return [Message("system", _JUDGE_PROTOCOL), Message("user", redact("\n\n".join(parts)))]


_UNLIMITED = Allowance()
"""No limit on a decision but the decider's own defaults."""


class VotingDecider:
    """Asks ``model`` to choose, votes ``votes`` ways, and acts on the majority.

    ``votes``, ``strategy`` and ``deliberation`` are the defaults a task's own
    :class:`Allowance` may override.
    """

    def __init__(
        self,
        model: LanguageModel,
        *,
        votes: int = DEFAULT_VOTES,
        strategy: Strategy = Strategy.NARROW,
        deliberation: Deliberation = Deliberation.DEEP,
        reserve_s: float = RESERVE_S,
        decision_timeout_s: float = DECISION_TIMEOUT_S,
    ) -> None:
        if votes < 1:
            raise ValueError("a decision needs at least one vote")
        self.model = model
        self.votes = votes
        self.strategy = strategy
        self.deliberation = deliberation
        self.reserve_s = reserve_s
        self.decision_timeout_s = decision_timeout_s

    async def choose(
        self,
        query: Query,
        screen: Screen,
        grounding: Grounding | None,
        allowance: Allowance = _UNLIMITED,
        *,
        step: str = "",
        redact: Callable[[str], str] = lambda s: s,
    ) -> Ruling:
        """Which element ``query`` means on ``screen``.

        ``grounding`` is the grounder's low-confidence answer (None for a ``do``
        step, which is always shown the ``wide`` digest).
        """
        strategy = allowance.strategy or self.strategy
        candidates = tuple(c.element for c in grounding.candidates) if grounding else ()
        if grounding is None or strategy is Strategy.WIDE:
            elements = digest(screen, candidates)
        else:
            elements = list(candidates)
        if not elements:
            return Ruling(False, None, 0, "nothing on the screen to choose from")
        messages = choice_messages(
            query, screen, elements, step=step, why=_why(grounding), redact=redact
        )
        names = {i: el.display_name[:40] for i, el in enumerate(elements, 1)}
        ranking = tuple(range(1, len(candidates) + 1))
        outcome, calls, rung, pace = await self._vote(
            messages, lambda text: read_choice(text, len(elements)), ranking, allowance
        )
        if isinstance(outcome, str):
            return Ruling(False, None, calls, outcome, rung, pace)
        said = redact(outcome.describe(names))
        if outcome.choice is None:
            return Ruling(False, None, calls, said, rung, pace)
        chosen = None if outcome.choice == NONE_FITS else elements[outcome.choice - 1]
        return Ruling(True, chosen, calls, said, rung, pace)

    async def judge(
        self,
        condition: str,
        screen: Screen,
        allowance: Allowance = _UNLIMITED,
        *,
        redact: Callable[[str], str] = lambda s: s,
    ) -> Verdict:
        """Whether ``condition`` (in words) holds on ``screen``; a tie does not hold."""
        messages = judge_messages(condition, screen, redact=redact)
        outcome, calls, rung, pace = await self._vote(messages, read_verdict, (), allowance)
        if isinstance(outcome, str):
            return Verdict(None, calls, outcome, rung, pace)
        said = outcome.describe({1: "holds", 0: "does not hold"})
        if outcome.choice is None:
            return Verdict(None, calls, said, rung, pace)
        return Verdict(outcome.choice == 1 and outcome.how != "tie", calls, said, rung, pace)

    # ------------------------------------------------------------ the vote

    async def _vote(
        self,
        messages: list[Message],
        read: Callable[[str], int | None],
        ranking: tuple[int, ...],
        allowance: Allowance,
    ) -> tuple[TallyOutcome | str, int, str, float | None]:
        """Votes on ``messages`` in rounds: (the outcome, or why none was asked; the
        calls made; the rung; the seconds a call took)."""
        pace = allowance.seconds_per_call
        votes = allowance.votes or self.votes
        window = self.decision_timeout_s
        if allowance.seconds_left is not None:
            window = min(window, allowance.seconds_left - self.reserve_s)
        plan = plan_votes(
            allowance.deliberation or self.deliberation,
            votes,
            calls_left=allowance.calls_left,
            seconds_left=window,
            seconds_per_call=pace,
        )
        if plan.rung is None or window <= 0:
            why = plan.stepped_down or "no time left"
            return f"the model decider was not asked: {why}", 0, "", pace
        if plan.stepped_down:
            log.info("decider: stepped down to %s (%s)", plan.rung.value, plan.stepped_down)
        meter = CallMeter(plan.votes)
        tally = Tally(ranking)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + window
        errors: list[str] = []
        while (size := next_round(tally, plan.votes)) > 0:
            left = deadline - loop.time()
            if left <= 0 or (pace is not None and tally.asked and pace > left):
                break  # out of time: decide on the votes so far
            took = await self._round(messages, read, size, meter, tally, left, errors)
            if took is not None:
                pace = took if pace is None else 0.5 * pace + 0.5 * took
        outcome = tally.outcome(plan.votes)
        if errors and outcome.choice is None:
            return f"the model decider failed: {errors[0]}", meter.used, plan.rung.value, pace
        return outcome, meter.used, plan.rung.value, pace

    async def _round(
        self,
        messages: list[Message],
        read: Callable[[str], int | None],
        size: int,
        meter: CallMeter,
        tally: Tally,
        timeout: float,
        errors: list[str],
    ) -> float | None:
        """Ask ``size`` votes side by side; those not answered within ``timeout`` are
        cancelled and counted as abstaining. Returns how long the round took, or None
        when it ran out of time."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        tasks = [
            asyncio.create_task(self._ask(messages, meter), name=f"gofer-decider-vote-{i}")
            for i in range(size)
        ]
        try:
            done, pending = await asyncio.wait(tasks, timeout=timeout)
        finally:
            for task in tasks:
                task.cancel()  # a no-op for those done; the rest are out of time
        if pending:
            await asyncio.wait(pending)
            errors.append(f"{len(pending)} votes did not answer in time")
        for task in tasks:
            if task in pending:
                tally.add(None)
                continue
            text, error = task.result()
            if error:
                errors.append(error)
                tally.add(None)
            else:
                tally.add(read(text))
        return loop.time() - started if done and not pending else None

    async def _ask(self, messages: list[Message], meter: CallMeter) -> tuple[str, str]:
        """One vote: (the answer's text, ""), or ("", what went wrong)."""
        try:
            answer = await self.model.complete(messages, meter=meter)
        except ModelError as exc:
            log.warning("decider: a vote failed (%s): %s", exc.code, exc.message)
            return "", exc.message
        return answer.text, ""

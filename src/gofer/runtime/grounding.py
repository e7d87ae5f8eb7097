"""Finding what a step's words mean on the screen, and judging its conditions
(:class:`Grounds`, a part of ``Run``): the grounder first, and the model decider, when
one is given, only where the grounder's evidence is thin, for ``do`` steps and for
conditions in words, each call counted against the run's budget."""

from __future__ import annotations

import time

from gofer.decide import (
    Grounding,
    NeedsDecider,
    Query,
    ground,
    holds,
    is_hinted,
    label_of,
    learn_hint,
    learns,
    needs_screen,
    site_of,
    tied_best,
    too_weak,
)
from gofer.flow import AllOf, AnyOf, Condition, JSONValue
from gofer.runtime.context import RuntimeSettings
from gofer.runtime.signals import BudgetSpent, StepFailed
from gofer.runtime.types import (
    Allowance,
    GroundingHint,
    ModelDecider,
    Ruling,
    RunRequest,
    Spend,
)
from gofer.surfaces.screen import Element, Screen

__all__ = ["MAX_ASKS_PER_STEP", "Grounds"]

MAX_ASKS_PER_STEP = 2
"""How many times one grounding (waiting for its target) asks the model decider."""


class Grounds:
    """The grounding part of a run (the state is the run's own)."""

    request: RunRequest
    settings: RuntimeSettings
    decider: ModelDecider | None
    variables: dict[str, JSONValue]
    spend: Spend
    hints: list[GroundingHint]
    learned: list[GroundingHint]
    described: dict[str, str]
    seconds_per_call: float | None
    _t0: float

    def sub(self, text: str) -> str:  # the run's own
        raise NotImplementedError

    def mask(self, text: str) -> str:  # the run's own
        raise NotImplementedError

    def event(self, path: str, event: str, **detail: JSONValue) -> None:  # the run's own
        raise NotImplementedError

    async def screen(self) -> Screen:  # the run's own
        raise NotImplementedError

    def invalidate(self) -> None:  # the run's own
        raise NotImplementedError

    async def wait_change(self, deadline: float) -> bool:  # the run's own
        raise NotImplementedError

    async def holds(self, cond: Condition, path: str = "") -> bool:
        """Whether ``cond`` holds now, on a fresh screen when it needs one."""
        screen = None
        if needs_screen(cond):
            self.invalidate()
            screen = await self.screen()
        return await self._holds(cond, screen, path)

    async def _holds(self, cond: Condition, screen: Screen | None, path: str) -> bool:
        """``cond`` on ``screen``; a condition in words inside ``all``/``any`` is judged as
        that one item, and only when the items before it leave the answer open."""
        if isinstance(cond, AllOf):
            for item in cond.items:
                if not await self._holds(item, screen, path):
                    return False
            return True
        if isinstance(cond, AnyOf):
            for item in cond.items:
                if await self._holds(item, screen, path):
                    return True
            return False
        try:
            return holds(cond, screen, self.variables, self.sub)
        except NeedsDecider as need:
            if self.decider is None or screen is None:
                raise StepFailed(
                    f"judging '{need.text}' needs a model decider, and none is configured; "
                    'use a condition such as {"shows": "..."} instead'
                ) from need
            self._check_model_calls()
            verdict = await self.decider.judge(
                need.text, screen, self.allowance(), redact=self.mask
            )
            self.spend.model_calls += verdict.calls
            self.seconds_per_call = verdict.seconds_per_call or self.seconds_per_call
            self.event(
                path,
                "judge",
                condition=need.text,
                calls=verdict.calls,
                rung=verdict.rung,
                votes=verdict.reason,
                holds="unknown" if verdict.holds is None else verdict.holds,
            )
            if verdict.holds is None:
                self._check_model_calls()
                raise StepFailed(
                    f"the model decider could not judge '{need.text}': {verdict.reason}"
                ) from need
            return verdict.holds

    def model_calls_left(self) -> int | None:
        """Model calls the run may still make (None: no limit)."""
        limit = self.request.budget.max_model_calls
        return None if limit is None else max(0, limit - self.spend.model_calls)

    def _check_model_calls(self) -> None:
        """Stop the run when a model is needed and no call is left."""
        if self.model_calls_left() == 0:
            raise BudgetSpent(
                f"the run used all {self.request.budget.max_model_calls} model calls it was "
                "given (max_model_calls)"
            )

    def allowance(self) -> Allowance:
        """What the next decision may spend: the calls and time the task has left, and
        the task's way of deciding."""
        budget = self.request.budget
        seconds = None
        if budget.time_left_ms is not None:
            seconds = budget.time_left_ms / 1000 - (time.perf_counter() - self._t0)
        return Allowance(
            calls_left=self.model_calls_left(),
            seconds_left=seconds,
            votes=budget.votes,
            strategy=budget.strategy,
            deliberation=budget.deliberation,
            seconds_per_call=self.seconds_per_call,
        )

    async def second_opinion(
        self, path: str, query: Query, screen: Screen, grounding: Grounding | None
    ) -> Ruling:
        """Ask the model decider which element ``query`` means (every call it made is
        counted); a ``do`` step with no model call left stops the run."""
        assert self.decider is not None
        if grounding is None:
            self._check_model_calls()
        decision = await self.decider.choose(
            query,
            screen,
            grounding,
            self.allowance(),
            step=self.described.get(path, ""),
            redact=self.mask,
        )
        self.spend.model_calls += decision.calls
        self.seconds_per_call = decision.seconds_per_call or self.seconds_per_call
        el = decision.element
        self.event(
            path,
            "decide",
            words=query.words,
            calls=decision.calls,
            rung=decision.rung,
            decided=decision.decided,
            votes=decision.reason,
            role=el.role if el else "",
            name=label_of(el) if el else "",
        )
        return decision

    async def find(self, path: str, query: Query) -> tuple[Element, Screen, Grounding]:
        """Ground ``query``, waiting for the target to appear up to the target timeout."""
        deadline = time.perf_counter() + self.settings.target_timeout_ms / 1000
        site = ""
        asks = 0
        asked: dict[tuple[str, ...], Ruling] = {}
        while True:
            screen = await self.screen()
            site = site_of(screen.url)
            hints = [h for h in self.hints if h.site == site]
            t = time.perf_counter()
            grounding = ground(query, screen, hints)
            ms = round((time.perf_counter() - t) * 1000, 3)
            element = grounding.element
            sure = element is not None and grounding.confidence >= self.settings.min_confidence
            reason = grounding.reason or f"nothing on the screen matches '{query.words}'"
            weak = too_weak(grounding, query) if self.decider is None else ""
            if sure and weak:
                # With no one to ask, a weak pick or a spelling that only resembles the
                # words ("Approve thread", a link titled "Open private threads") is none.
                sure, reason = False, weak
            if sure and grounding.region_missing:
                # The within words name no place on this screen (not drawn yet, sliding
                # open, gone): a pick that ignores them is as likely another row's.
                sure, reason = False, grounding.reason
            tied = query.within and grounding.low_confidence and len(tied_best(grounding)) > 1
            if sure and self.decider is None and tied:
                # The within words were meant to tell alike controls apart and did not:
                # with no one to ask, a coin toss would type into the wrong line.
                sure = False
                reason = (
                    f"'{query.words}' within '{query.within}' names "
                    f"{len(tied_best(grounding))} controls alike; the within words do not "
                    "tell them apart"
                )
            is_do = query.kind == "do"
            if is_do:
                # A do step acts on the grounder's pick only where a hint remembers it.
                sure = not grounding.low_confidence and is_hinted(query, screen, hints, element)
                reason = f"the model decider found nothing on the screen that does '{query.words}'"
            ask = (not sure) if is_do else grounding.low_confidence and bool(grounding.candidates)
            self.event(
                path,
                "ground",
                words=query.words,
                ms=ms,
                role=element.role if element else "",
                name=label_of(element) if element else "",
                confidence=grounding.confidence,
                low=grounding.low_confidence,
            )
            if ask and self.decider is not None:
                # The same choice on an unchanged screen is not asked twice.
                key = tuple(el.ref for el in screen.elements)
                decision = asked.get(key)
                if decision is None and asks < MAX_ASKS_PER_STEP:
                    asks += 1
                    decision = await self.second_opinion(
                        path, query, screen, None if is_do else grounding
                    )
                    asked[key] = decision
                if decision is not None and decision.decided:
                    element, sure = decision.element, decision.element is not None
                    if element is None:
                        reason = (
                            f"the model decider judged that nothing on the screen is "
                            f"'{query.words}' ({decision.reason})"
                        )
                elif decision is not None and is_do:
                    reason = f"{reason}: {decision.reason}"
                # Undecided (no call left, no valid vote): the grounder's own pick stands.
            if element is not None and sure:
                hint = learn_hint(query, element, site, screen)
                if learns(query, element):
                    self.hints.insert(0, hint)
                    if all(self.mask(t) == t for t in (hint.name, hint.context, hint.within)):
                        self.learned.append(hint)  # a hint with a secret stays in the run
                return element, screen, grounding
            if not await self.wait_change(deadline):
                raise StepFailed(reason)

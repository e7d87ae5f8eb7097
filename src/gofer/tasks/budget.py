"""A task's budget over all its runs: each run gets only what is left."""

from __future__ import annotations

from dataclasses import dataclass, field

from gofer.runtime import Deliberation, Strategy
from gofer.runtime.types import RunBudget, Spend
from gofer.tasks.contract import TaskBudget

__all__ = ["Spending"]


@dataclass(slots=True)
class Spending:
    """What a task may spend (``limits``) and what it has spent so far."""

    limits: TaskBudget
    spent: Spend = field(default_factory=Spend)
    elapsed_ms: float = 0.0
    runs: int = 0
    rescues: int = 0

    def for_run(self) -> RunBudget:
        """What the next run may spend: the rest of the task's budget."""
        left = self.time_left_s()
        return RunBudget(
            max_actions=max(0, self.limits.max_actions - self.spent.actions),
            max_model_calls=max(0, self.limits.max_model_calls - self.spent.model_calls),
            time_left_ms=None if left is None else left * 1000.0,
            votes=self.limits.votes,
            strategy=Strategy(self.limits.strategy),
            deliberation=Deliberation(self.limits.deliberation),
        )

    def time_left_s(self) -> float | None:
        """Seconds of running time left, or None when time is not limited."""
        if self.limits.max_elapsed_ms is None:
            return None
        return max(0.0, (self.limits.max_elapsed_ms - self.elapsed_ms) / 1000.0)

    def exhausted(self) -> str | None:
        """The budget field to raise if nothing is left to run with, else None."""
        if self.spent.actions >= self.limits.max_actions:
            return "max_actions"
        left = self.time_left_s()
        if left is not None and left <= 0:
            return "max_elapsed_ms"
        return None

    def spent_field(self) -> str:
        """Which budget field ran out after a run reported its budget spent."""
        if self.spent.actions >= self.limits.max_actions:
            return "max_actions"
        if self.spent.model_calls >= self.limits.max_model_calls:
            return "max_model_calls"
        return "max_actions"

    def model_calls_left(self) -> int:
        """Model calls the task may still make."""
        return max(0, self.limits.max_model_calls - self.spent.model_calls)

    def charge_model_calls(self, calls: int) -> None:
        """Add model calls a pass outside a run made (planner, rescuer, shaper)."""
        self.spent.model_calls += calls

    def rescues_left(self) -> int:
        """Rescues the task may still have."""
        return max(0, self.limits.max_rescues - self.rescues)

    def add_pass_time(self, elapsed_ms: float) -> None:
        """Add time a model pass took (a rescue); it is running time, not a run."""
        self.elapsed_ms += elapsed_ms

    def charge(self, spend: Spend) -> None:
        """Add one run's spend."""
        self.spent.add(spend)

    def add_time(self, elapsed_ms: float) -> None:
        """Add one run's running time (cancelled or not) and count the run."""
        self.elapsed_ms += elapsed_ms
        self.runs += 1

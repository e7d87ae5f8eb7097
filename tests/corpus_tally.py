"""The corpus's pass rates, printed at the end of a run: the seen tasks and the holdout
apart (tests/e2e/corpus). A plugin of the root conftest, so that the process printing
the summary counts them also when the tests ran in other processes (pytest-xdist):
a report's keywords carry the holdout mark there."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

HERE = "tests/e2e/corpus/"


@dataclass
class _Tally:
    seen: dict[str, str] = field(default_factory=dict)
    holdout: dict[str, str] = field(default_factory=dict)


_TALLY = _Tally()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # a report reaches this hook in the process that prints the summary, also when the
    # tests ran in other processes (its keywords carry the holdout mark)
    if HERE not in report.nodeid.replace("\\", "/"):
        return
    book = _TALLY.holdout if "holdout" in report.keywords else _TALLY.seen
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        book[report.nodeid.split("@", 1)[0]] = (
            "xfailed" if hasattr(report, "wasxfail") else report.outcome
        )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for name, book in (("seen", _TALLY.seen), ("holdout", _TALLY.holdout)):
        if not book:
            continue
        passed = sum(1 for outcome in book.values() if outcome == "passed")
        terminalreporter.write_line(
            f"corpus {name}: {passed}/{len(book)} tasks done right "
            f"({100 * passed / len(book):.0f}%)"
        )

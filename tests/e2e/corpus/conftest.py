"""The corpus: tasks on real applications, each judged by the application's own state.

Every test under this folder is one task. Tasks marked ``holdout`` are kept out of
sight while the engine is being changed (``pytest -m "not holdout"``) and run before an
issue is resolved; the whole suite runs them too. At the end of a run the pass rates of
the seen tasks and of the holdout are printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

HERE = "tests/e2e/corpus/"


@dataclass
class _Tally:
    seen: dict[str, str] = field(default_factory=dict)
    holdout: dict[str, str] = field(default_factory=dict)


_TALLY = _Tally()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if HERE not in item.nodeid.replace("\\", "/"):
        return
    book = _TALLY.holdout if item.get_closest_marker("holdout") else _TALLY.seen
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        book[item.nodeid] = "xfailed" if hasattr(report, "wasxfail") else report.outcome


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for name, book in (("seen", _TALLY.seen), ("holdout", _TALLY.holdout)):
        if not book:
            continue
        passed = sum(1 for outcome in book.values() if outcome == "passed")
        terminalreporter.write_line(
            f"corpus {name}: {passed}/{len(book)} tasks done right "
            f"({100 * passed / len(book):.0f}%)"
        )

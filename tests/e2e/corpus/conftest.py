"""The corpus: tasks on real applications, each judged by the application's own state.

Every test under this folder is one task. Tasks marked ``holdout`` are kept out of
sight while the engine is being changed (``pytest -m "not holdout"``) and run before an
issue is resolved; the whole suite runs them too. At the end of a run the pass rates of
the seen tasks and of the holdout are printed.
"""

from __future__ import annotations

import pytest

HERE = "tests/e2e/corpus/"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """One application's tasks stay on one test process when the suite runs on
    several (``--dist loadgroup``): its server is started once, not on each."""
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if HERE in path:
            app = path.split(HERE, 1)[1].split("/", 1)[0]
            item.add_marker(pytest.mark.xdist_group(f"corpus-{app}"))

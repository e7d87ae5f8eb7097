"""The corpus: tasks on real applications, each judged by the application's own state.

Every test under this folder is one task. Tasks marked ``holdout`` are kept out of
sight while the engine is being changed (``pytest -m "not holdout"``) and run before an
issue is resolved; the whole suite runs them too. At the end of a run the pass rates of
the seen tasks and of the holdout are printed.
"""

from __future__ import annotations

import pytest
from _pytest.nodeid import coerce_node_id

HERE = "tests/e2e/corpus/"
SERVED_HERE = frozenset({"kits", "widgets", "popups"})
"""Bundles served by the test process itself (:mod:`.bundles`): starting their server
costs nothing, so their tasks spread over every process."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """One application's tasks stay on one test process when the suite runs on
    several (``--dist loadgroup``): its server is started once, not on each (one group
    per framework app, whose servers are apart).

    pytest-xdist 3.8 names a test's group by appending it to ``item._nodeid``, which
    pytest 9 no longer reads (the id lives in ``item._id``): there every test was its
    own group and each process started every application. The group is put in the id
    here, where xdist's scheduler reads it."""
    grouping = bool(getattr(config.option, "loadgroup", False))
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if HERE not in path:
            continue
        app = path.split(HERE, 1)[1].split("/", 1)[0]
        if app in SERVED_HERE:
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        group = f"corpus-{app}" + (f"-{params['framework']}" if "framework" in params else "")
        item.add_marker(pytest.mark.xdist_group(group))
        if grouping and hasattr(item, "_id") and "@" not in item.nodeid:
            item._id = coerce_node_id(f"{item.nodeid}@{group}")

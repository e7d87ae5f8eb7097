"""``gofer doctor`` says what this machine has and lacks, with the command that adds
each missing part, and exits 1 only when browser tasks cannot run here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gofer.config import GoferConfig
from gofer.doctor import machine_checks

GOFER = [sys.executable, "-m", "gofer.cli"]


def test_a_missing_browser_is_named_with_the_command_that_adds_it(tmp_path: Path) -> None:
    config = GoferConfig(db=str(tmp_path / "gofer.db"), chromium=str(tmp_path / "no-chromium"))
    checks = {check.part.split(" (")[0]: check for check in machine_checks(config)}
    browser = checks["Chromium"]
    assert not browser.ok and browser.needed
    assert "apt-get install -y chromium" in browser.fix
    assert checks["the task store"].ok and str(tmp_path) in checks["the task store"].found


def test_no_model_is_a_part_missing_not_a_failure(tmp_path: Path) -> None:
    checks = machine_checks(GoferConfig(db=str(tmp_path / "gofer.db")))
    model = next(c for c in checks if c.part.startswith("a language model"))
    assert not model.ok and not model.needed
    assert "GOFER_MODEL_BASE_URL" in model.fix


def test_the_command_exits_by_whether_tasks_can_run(tmp_path: Path) -> None:
    env = {**os.environ, "GOFER_DB": str(tmp_path / "gofer.db")}
    env.pop("GOFER_CHROMIUM", None)
    here = subprocess.run([*GOFER, "doctor", "--json"], env=env, capture_output=True, text=True)
    checks = json.loads(here.stdout)
    assert here.returncode == (1 if any(c["needed"] and not c["ok"] for c in checks) else 0)
    env["GOFER_CHROMIUM"] = str(tmp_path / "no-chromium")
    lacking = subprocess.run([*GOFER, "doctor"], env=env, capture_output=True, text=True)
    assert lacking.returncode == 1, lacking.stdout
    assert "MISSING" in lacking.stdout and "apt-get install -y chromium" in lacking.stdout

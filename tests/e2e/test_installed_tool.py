"""gofer installed as a user installs a Python tool: ``pipx install`` of this checkout
(pipx's own isolated environment, only gofer's runtime packages) gives a ``gofer``
command whose demo reaches the payment checkpoint, run from outside the checkout; a
built wheel carries every file the engine loads (the page scripts, templates, SQL)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.browser
def test_pipx_install_gives_a_gofer_whose_demo_reaches_the_checkpoint(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
        "XDG_DATA_HOME": str(home / "data"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    install = subprocess.run(
        [sys.executable, "-m", "pipx", "install", "--pip-args=-q", str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    gofer = tmp_path / "bin" / "gofer"
    assert gofer.exists(), install.stdout
    packages = subprocess.run(
        [str(tmp_path / "pipx" / "venvs" / "gofer" / "bin" / "python"), "-m", "pip", "list"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.lower()
    assert "playwright" in packages
    assert not [name for name in ("pytest", "mypy", "ruff", "pygobject") if name in packages]

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    demo = subprocess.run(
        [str(gofer), "demo"],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr[-2000:]
    assert "checkpoint: Stopped: reached the payment step" in demo.stdout
    assert "Payments made on the site: 0" in demo.stdout
    assert list(outside.iterdir()) == [], "it leaves nothing in the folder it ran in"

    doctor = subprocess.run([str(gofer), "doctor"], env=env, capture_output=True, text=True)
    assert doctor.returncode == 0, doctor.stdout
    assert "gofer 0." in doctor.stdout


def test_the_wheel_carries_the_files_the_engine_loads(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("gofer-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        path.relative_to(ROOT / "src").as_posix()
        for path in (ROOT / "src" / "gofer").rglob("*")
        if path.suffix in (".js", ".html", ".css", ".sql", ".py") or path.name == "py.typed"
    }
    assert shipped - names == set()

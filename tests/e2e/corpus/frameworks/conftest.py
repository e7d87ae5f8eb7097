"""Python app frameworks as people use them to make forms (tools/corpus/frameworks.sh):
NiceGUI (Quasar over a websocket), Streamlit (React and Base Web over a websocket),
Gradio (Svelte over its queue), Dash (React over HTTP callbacks), Shiny (Bootstrap over a
websocket), Panel (Bokeh's widgets in shadow roots over a websocket), Solara (ipyvuetify's
Vue 2 widgets over a websocket), Mesop (Angular Material over server-sent events) and
Taipy GUI (React and MUI over a websocket), each serving the trip request of :mod:`.trip`
from its own virtual environment. What the app received is the JSON lines it appended to
its records file, never a step inside the flow."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..app_process import serving

ROOT = Path(__file__).resolve().parents[4]
HERE = Path(__file__).resolve().parent


@dataclass
class App:
    """A framework's trip-request app: its address and what it has received."""

    url: str
    records: Path

    @property
    def posted(self) -> list[dict[str, str]]:
        if not self.records.exists():
            return []
        lines = self.records.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line]


def _venv(name: str) -> Path:
    python = ROOT / ".corpus" / name / "venv" / "bin" / "python"
    if not python.exists():
        pytest.fail(
            f"{name} is not installed in {python.parent}: run ./dev setup "
            "(tools/corpus/frameworks.sh)"
        )
    return python


def _serve(
    name: str,
    command: list[str],
    work: Path,
    extra: dict[str, str] | None = None,
    path: str = "/",
) -> Iterator[App]:
    records = work / "records.jsonl"
    env = {
        **(extra or {}),
        "PATH": f"{_venv(name).parent}:/usr/bin:/bin",
        "HOME": str(work),
        "PYTHONPATH": str(HERE),
        "TRIP_RECORDS": str(records),
        "PYTHONWARNINGS": "ignore",
    }
    with serving(
        [],
        lambda port: [c.replace("{port}", str(port)) for c in command],
        work=work,
        env=env,
        cwd=HERE,
        path=path,
    ) as url:
        yield App(url, records)


def _script(
    venv: str,
    script: str,
    tmp_path_factory: pytest.TempPathFactory,
    extra: dict[str, str] | None = None,
    path: str = "/",
) -> Iterator[App]:
    """An app that is one script of ours run by its framework's Python, on ``{port}``."""
    command = [str(_venv(venv)), str(HERE / script), "{port}"]
    yield from _serve(venv, command, tmp_path_factory.mktemp(venv), extra, path)


@pytest.fixture(scope="session")
def nicegui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    yield from _script("nicegui", "nicegui_app.py", tmp_path_factory)


@pytest.fixture(scope="session")
def streamlit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    python = str(_venv("streamlit"))
    command = [
        python, "-m", "streamlit", "run", str(HERE / "streamlit_app.py"),
        "--server.port", "{port}", "--server.address", "127.0.0.1", "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]  # fmt: skip
    yield from _serve("streamlit", command, tmp_path_factory.mktemp("streamlit"))


@pytest.fixture(scope="session")
def gradio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    quiet = {"GRADIO_ANALYTICS_ENABLED": "False", "GRADIO_SERVER_NAME": "127.0.0.1"}
    yield from _script("gradio", "gradio_app.py", tmp_path_factory, quiet)


@pytest.fixture(scope="session")
def dash(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    yield from _script("dash", "dash_app.py", tmp_path_factory)


@pytest.fixture(scope="session")
def shiny(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    yield from _script("shiny", "shiny_app.py", tmp_path_factory)


@pytest.fixture(scope="session")
def panel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    yield from _script("panel", "panel_app.py", tmp_path_factory, path="/trip")


@pytest.fixture(scope="session")
def solara(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    solara = str(_venv("solara").parent / "solara")
    command = [
        solara, "run", str(HERE / "solara_app.py"),
        "--host", "127.0.0.1", "--port", "{port}", "--production", "--no-open",
    ]  # fmt: skip
    quiet = {"SOLARA_TELEMETRY_MIXPANEL_ENABLE": "False"}
    yield from _serve("solara", command, tmp_path_factory.mktemp("solara"), quiet)


@pytest.fixture(scope="session")
def mesop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    mesop = str(_venv("mesop").parent / "mesop")
    command = [mesop, str(HERE / "mesop_app.py"), "--port", "{port}", "--prod"]
    yield from _serve("mesop", command, tmp_path_factory.mktemp("mesop"))


@pytest.fixture(scope="session")
def taipy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    yield from _script("taipy-gui", "taipy_app.py", tmp_path_factory)

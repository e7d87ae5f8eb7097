"""The desktop surface's pure parts: the walked tree as a screen, the framebuffer as a
PNG, which program an ``open`` names, and what ``describe`` says is missing."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from gofer.errors import SurfaceError
from gofer.flow import parse_flow
from gofer.surfaces.desktop import desktop_available
from gofer.surfaces.desktop.apps import find_application
from gofer.surfaces.desktop.screenshot import png_of_xwd
from gofer.surfaces.desktop.tree import build_screen, clean_name
from gofer.surfaces.screen import Box
from gofer.tasks.cell import step_surfaces


def node(ref: str, parent: str, role: str, name: str = "", **more: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "ref": ref,
        "parent": parent,
        "role": role,
        "name": name,
        "states": ["visible", "showing", "sensitive", "enabled"],
        "box": [10, 20, 30, 40],
        "actions": [],
        "text": None,
        "value": None,
        "label": "",
        "description": "",
        "gtk4": False,
        "origin": [0, 0],
    }
    base.update(more)
    return base


def test_names_are_cleaned_of_toolkit_noise() -> None:
    assert clean_name("  New      ") == "New"
    assert clean_name("7 7") == "7"
    assert clean_name("Save As Save As") == "Save As"
    assert clean_name("GtkButton") == ""
    assert clean_name("AdwGizmo") == ""
    assert clean_name("Word Wrap") == "Word Wrap"


def test_gtk4_extents_are_moved_by_the_window_origin() -> None:
    nodes = [
        node(
            "d0",
            "",
            "frame",
            "Calculator",
            states=["active", "visible"],
            gtk4=True,
            origin=[457, 164],
        ),
        node(
            "d1",
            "d0",
            "push button",
            "GtkButton",
            gtk4=True,
            origin=[457, 164],
            box=[16, 300, 55, 40],
            description="Multiply [*]",
        ),
        node("d2", "d1", "label", "×", text="×", gtk4=True, origin=[457, 164]),
    ]
    screen = build_screen(nodes, url="desktop:Calculator", viewport=Box(0, 0, 1280, 800))
    (button,) = screen.elements
    assert (button.role, button.name, button.title) == ("button", "×", "Multiply [*]")
    assert button.box == Box(473, 464, 55, 40)
    assert screen.title == "Calculator"
    assert screen.text == ""  # the label is the button's words, not a line of its own


def test_fields_states_and_masked_values() -> None:
    nodes = [
        node("d0", "", "frame", "Sign in", states=["active", "showing"]),
        node("d1", "d0", "label", "Password", text="Password"),
        node(
            "d2",
            "d0",
            "password text",
            "",
            label="Password",
            text="hunter2-canary",
            states=["showing", "editable", "focused", "sensitive"],
        ),
        node("d3", "d0", "check box", "Remember me", states=["showing", "checked"]),
        node("d4", "d0", "slider", "", label="Volume", value=[40.0, 0.0, 100.0]),
    ]
    screen = build_screen(
        nodes,
        url="desktop:x",
        viewport=Box(0, 0, 1280, 800),
        mask=lambda s: s.replace("hunter2-canary", "••••"),
    )
    field, box, slider = screen.elements
    assert (field.role, field.label, field.value, field.input_type) == (
        "textbox",
        "Password",
        "••••",
        "password",
    )
    assert field.editable and field.focused
    assert (box.role, box.checked, box.disabled) == ("checkbox", True, True)
    assert (slider.role, slider.label, slider.value) == ("spinbutton", "Volume", "40")
    assert "hunter2-canary" not in repr(screen)


def test_framebuffer_becomes_a_png() -> None:
    width, height = 2, 1
    header = struct.pack(
        ">25I",
        100,
        7,
        2,
        24,
        width,
        height,
        0,
        0,
        32,
        0,
        32,
        32,
        width * 4,
        4,
        0xFF0000,
        0xFF00,
        0xFF,
        8,
        256,
        0,
        width,
        height,
        0,
        0,
        0,
    )
    pixels = bytes([0x10, 0x20, 0x30, 0, 0xFF, 0x00, 0x00, 0])  # BGRX: one blue pixel
    png = png_of_xwd(header + pixels)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    idat = png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8]
    assert zlib.decompress(idat) == bytes([0, 0x30, 0x20, 0x10, 0x00, 0x00, 0xFF])


def test_an_open_step_names_a_desktop_entry(tmp_path: Path) -> None:
    (tmp_path / "org.example.Editor.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=Text Editor\nExec=sh -c true %U\n"
    )
    app = find_application("Text Editor", [tmp_path])
    assert app.argv == ("sh", "-c", "true")
    assert find_application("org.example.Editor.desktop", [tmp_path]).name == "Text Editor"
    with pytest.raises(SurfaceError) as refused:
        find_application("sh -c reboot", [tmp_path])  # a name, never a command line
    assert refused.value.code == "SURFACE_APP_NOT_FOUND"


def test_describe_says_what_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    ok, reason = desktop_available()
    assert not ok
    assert reason is not None and "Xvfb" in reason and "xdotool" in reason


def test_gofer_itself_never_loads_pygobject() -> None:
    code = (
        "import sys, gofer.surfaces.desktop, gofer.runtime.workspace_runner\n"
        "assert 'gi' not in sys.modules, 'gi was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_steps_after_an_open_run_on_the_desktop_until_a_browse() -> None:
    flow = parse_flow(
        [
            {"browse": "https://example.org/"},
            {"open": "Calculator"},
            {"click": "7"},
            {"if": {"shows": "7"}, "then": [{"click": "Close"}]},
            {"browse": "https://example.org/done"},
            {"click": "Home"},
            {"click": "OK", "surface": "desktop"},
        ]
    )
    sides = step_surfaces(flow, frozenset({"browser", "desktop"}))
    assert sides == {
        "0": "browser",
        "1": "desktop",
        "2": "desktop",
        "3": "desktop",
        "3.then.0": "desktop",
        "4": "browser",
        "5": "browser",
        "6": "desktop",
    }
    desktop_only = step_surfaces(parse_flow([{"click": "OK"}]), frozenset({"desktop"}))
    assert desktop_only == {"0": "desktop"}

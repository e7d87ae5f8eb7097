from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gofer.errors import InvalidRequest, SurfaceError
from gofer.surfaces import chromium_available, find_chromium, origin_allowed, parse_origin

SITE = ("https://.example.com",)


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://example.com/", True),
        ("https://www.example.com/path?q=1", True),
        ("https://a.b.example.com", True),
        ("https://EXAMPLE.com", True),
        ("http://example.com/", False),  # https only
        ("https://example.com:8443/", False),  # another port
        ("https://badexample.com/", False),
        ("https://example.com.evil.org/", False),
        ("wss://live.example.com/socket", True),
        ("ws://live.example.com/socket", False),
        ("ftp://example.com/", False),
        ("about:blank", True),
        ("data:text/html,hi", True),
        ("blob:https://other.org/1234", True),
        ("not a url", False),
    ],
)
def test_site_and_subdomains(url: str, allowed: bool) -> None:
    assert origin_allowed(url, SITE) is allowed


def test_empty_origins_allow_everything() -> None:
    assert origin_allowed("http://anything.test:1234/x", ())


def test_exact_host_and_port() -> None:
    origins = ["http://127.0.0.1:8765"]
    assert origin_allowed("http://127.0.0.1:8765/page", origins)
    assert not origin_allowed("http://127.0.0.1:8766/page", origins)
    assert not origin_allowed("https://127.0.0.1:8765/page", origins)
    assert not origin_allowed("http://localhost:8765/page", origins)


def test_plain_host_excludes_subdomains() -> None:
    origins = ["https://example.com"]
    assert origin_allowed("https://example.com/a", origins)
    assert not origin_allowed("https://www.example.com/a", origins)


def test_several_origins() -> None:
    origins = ["https://.example.com", "http://127.0.0.1:9000"]
    assert origin_allowed("http://127.0.0.1:9000/", origins)
    assert origin_allowed("https://shop.example.com/", origins)
    assert not origin_allowed("https://google.com/", origins)


@pytest.mark.parametrize(
    "bad",
    ["example.com", "ftp://example.com", "https://", "https://example.com/path", "https://x:99999"],
)
def test_bad_patterns_are_refused(bad: str) -> None:
    with pytest.raises(InvalidRequest) as err:
        parse_origin(bad)
    assert err.value.code == "INVALID_ORIGIN"


def test_find_chromium_explicit_missing(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope")
    with pytest.raises(SurfaceError) as err:
        find_chromium(missing)
    assert err.value.code == "CHROMIUM_NOT_FOUND"
    assert "chromium" in err.value.details["hint"]
    ok, reason = chromium_available(missing)
    assert not ok and "chromium" in reason


def test_find_chromium_explicit_executable(tmp_path: Path) -> None:
    exe = tmp_path / "mybrowser"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    assert find_chromium(str(exe)) == str(exe)


def test_find_chromium_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    exe = tmp_path / "chromium"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    assert find_chromium() == str(exe)


def test_find_chromium_headless_prefers_the_headless_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def executable(name: str) -> str:
        exe = tmp_path / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
        return str(exe)

    chromium = executable("chromium")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_chromium(headless=True) == chromium  # no shell installed: the browser
    shell = executable("chromium-headless-shell")
    assert find_chromium(headless=True) == shell
    assert find_chromium() == chromium  # a headed browser needs the full one
    assert find_chromium(chromium, headless=True) == chromium  # the operator's choice wins

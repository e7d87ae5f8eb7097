"""The operator's browser policy without a browser: which addresses are private, which
pages may load at the top level, how Chromium is launched, and the settings' sources."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gofer.config import config_from_env
from gofer.errors import SurfaceError
from gofer.surfaces import NO_SANDBOX, OPERATOR, BrowserPolicy, describe_isolation
from gofer.surfaces.addresses import ip_refusal, top_level_refusal
from gofer.surfaces.chromium import launch_plan
from gofer.surfaces.policy import shown


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.8.9.10",
        "::1",
        "10.0.0.5",
        "172.16.3.4",
        "192.168.1.1",
        "169.254.169.254",  # cloud metadata
        "100.100.100.200",  # a cloud's metadata, in the shared range
        "fd00:ec2::254",
        "fe80::1",
        "0.0.0.0",
        "::ffff:127.0.0.1",
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "224.0.0.1",
    ],
)
def test_private_addresses_are_refused(address: str) -> None:
    assert ip_refusal(address) is not None


@pytest.mark.parametrize("address", ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
def test_public_addresses_pass(address: str) -> None:
    assert ip_refusal(address) is None


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "chrome://version",
        "devtools://devtools/bundled/inspector.html",
        "view-source:https://example.com/",
        "data:text/html,<p>hi",
        "blob:https://example.com/1234",
        "javascript:alert(1)",
        "filesystem:https://example.com/temporary/x",
        "https://",
        "",
    ],
)
def test_only_http_and_https_load_at_the_top_level(url: str) -> None:
    assert top_level_refusal(url) is not None


def test_http_and_https_load() -> None:
    assert top_level_refusal("https://example.com/a?b") is None
    assert top_level_refusal("HTTP://example.com") is None


def test_the_sandbox_stays_on_unless_the_operator_turns_it_off() -> None:
    path = "/usr/bin/chromium"
    plain = launch_plan(path, BrowserPolicy(), euid=1000)
    assert (plain.executable, plain.sandbox, plain.isolation) == (path, True, "sandboxed")
    assert NO_SANDBOX not in plain.args
    off = launch_plan(path, BrowserPolicy(sandbox="off"), euid=0)
    assert NO_SANDBOX in off.args and not off.sandbox
    assert off.isolation == describe_isolation(BrowserPolicy(sandbox="off"), euid=0)
    assert "operator's choice" in off.isolation


def test_as_root_the_browser_runs_as_an_unprivileged_user() -> None:
    with pytest.raises(SurfaceError) as err:
        launch_plan("/usr/bin/chromium", BrowserPolicy(browser_user="no-such-user-x"), euid=0)
    assert err.value.code == "SANDBOX_UNAVAILABLE"
    assert "cannot start" in describe_isolation(
        BrowserPolicy(browser_user="no-such-user-x"), euid=0
    )
    with pytest.raises(SurfaceError):
        launch_plan("/usr/bin/chromium", BrowserPolicy(browser_user="root"), euid=0)
    if os.geteuid() != 0:
        return  # only root can hand a directory to another user
    plan = launch_plan("/usr/bin/chromium", BrowserPolicy(browser_user="nobody"), euid=0)
    try:
        assert plan.sandbox and NO_SANDBOX not in plan.args
        assert plan.isolation == "sandboxed, as the unprivileged user nobody"
        wrapper = Path(plan.executable)
        assert os.access(wrapper, os.X_OK)
        text = wrapper.read_text()
        assert "setpriv" in text and "/usr/bin/chromium" in text
    finally:
        assert plan.workdir is not None
        shutil.rmtree(plan.workdir)


def test_endpoints_are_the_operators_to_allow() -> None:
    assert not BrowserPolicy().endpoint_allowed("http://127.0.0.1:9222")
    listed = BrowserPolicy(browser_endpoints=frozenset({"http://fleet:9222"}))
    assert listed.endpoint_allowed("http://fleet:9222/")
    assert not listed.endpoint_allowed("http://127.0.0.1:9222")
    assert OPERATOR.endpoint_allowed("http://anything:1")


def test_the_settings_come_from_the_environment_at_the_entry_point() -> None:
    default = config_from_env({})
    served = default.browser_policy(operator=False)
    assert (served.allow_private, served.browser_endpoints, served.sandbox) == (
        False,
        frozenset(),
        "auto",
    )
    assert default.browser_policy(operator=False, allow_private=True).allow_private
    assert default.browser_policy(operator=True) == BrowserPolicy(
        allow_private=True, browser_endpoints=None
    )
    config = config_from_env(
        {
            "GOFER_ALLOW_PRIVATE": "1",
            "GOFER_BROWSER_ENDPOINTS": "http://fleet:9222, http://fleet:9223",
            "GOFER_NO_SANDBOX": "1",
            "GOFER_BROWSER_USER": "browser",
        }
    )
    policy = config.browser_policy(operator=False)
    assert policy.allow_private and policy.sandbox == "off" and policy.browser_user == "browser"
    assert policy.browser_endpoints == frozenset({"http://fleet:9222", "http://fleet:9223"})


def test_the_remote_browser_is_the_operators_flag_or_environment() -> None:
    assert config_from_env({}).browser_policy(operator=False).remote is None
    config = config_from_env({"GOFER_BROWSER_ENDPOINT": " http://fleet:9222 "})
    assert config.browser_policy(operator=False).remote == "http://fleet:9222"
    assert config.browser_policy(operator=True).remote == "http://fleet:9222"
    flagged = config.browser_policy(operator=False, browser_endpoint="wss://fleet.example/x")
    assert flagged.remote == "wss://fleet.example/x"
    assert not flagged.endpoint_allowed("wss://fleet.example/x"), (
        "the process's remote is not on the list tasks may attach to"
    )
    for wrong in ("chrome", "file:///tmp/x", "http://", "ftp://fleet:21"):
        with pytest.raises(SurfaceError) as refused:
            config.browser_policy(operator=False, browser_endpoint=wrong)
        assert refused.value.code == "BROWSER_ENDPOINT_INVALID"


def test_a_remote_endpoint_is_shown_without_its_credentials() -> None:
    assert shown("wss://user:pw@fleet.example:3000/chrome?token=s3cret") == (
        "wss://fleet.example:3000/chrome"
    )
    assert "s3cret" not in describe_isolation(
        BrowserPolicy(remote="wss://fleet.example/?token=s3cret")
    )

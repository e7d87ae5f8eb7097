"""Saved flows have limits over a real ``gofer serve`` (issue 29, item 4), on HTTP and
MCP alike, with the operator's caps set small (``GOFER_FLOW_VERSIONS``,
``GOFER_FLOW_NAMES``, ``GOFER_FLOW_BYTES``): a name keeps its last versions only, a
name past the cap and a save past the bytes are refused with FLOW_LIMIT and leave
nothing written, and the list comes a page at a time with no flow bodies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .hardened import served

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

CAPS = {"GOFER_FLOW_VERSIONS": "2", "GOFER_FLOW_NAMES": "3", "GOFER_FLOW_BYTES": "60000"}


def flow(words: str, size: int = 1) -> dict[str, Any]:
    return {"steps": [{"browse": "https://shop.example.com/"}] + [{"click": words}] * size}


async def test_saved_flows_keep_their_caps_and_list_a_page_without_bodies(
    tmp_path: Path,
) -> None:
    async with served(tmp_path / "store", env=CAPS) as s:
        for n in range(3):
            saved = await s.http.post("/v1/flows", json={"name": "a", "flow": flow(f"v{n}")})
            assert saved.status_code == 201, saved.text
        gone = await s.http.get("/v1/flows/a", params={"version": "1"})
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "UNKNOWN_FLOW"
        assert (await s.http.get("/v1/flows/a", params={"version": "2"})).status_code == 200
        failed, answer = await s.tool("save_flow", {"name": "b", "flow": flow("b")})
        assert not failed, answer
        saved = await s.http.post("/v1/flows", json={"name": "c", "flow": flow("c")})
        assert saved.status_code == 201, saved.text

        refused = await s.http.post("/v1/flows", json={"name": "d", "flow": flow("d")})
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["code"] == "FLOW_LIMIT"
        failed, answer = await s.tool("save_flow", {"name": "e", "flow": flow("e")})
        assert failed and answer["error"]["code"] == "FLOW_LIMIT", answer
        big = flow("x" * 3000, 30)  # about 90 KB: past the bytes
        refused = await s.http.post("/v1/flows", json={"name": "a", "flow": big})
        assert refused.status_code == 409 and refused.json()["error"]["limit"] == "bytes"
        latest = (await s.http.get("/v1/flows/a")).json()
        assert latest["version"] == 3, "the refused save wrote nothing"

        first = (await s.http.get("/v1/flows", params={"limit": 2})).json()
        assert [f["name"] for f in first["flows"]] == ["a", "b"]
        assert first["next_cursor"] == "b"
        rest = (await s.http.get("/v1/flows", params={"cursor": "b"})).json()
        assert [f["name"] for f in rest["flows"]] == ["c"] and rest["next_cursor"] is None
        failed, listed = await s.tool("list_flows", {"limit": 2})
        assert not failed and [f["name"] for f in listed["flows"]] == ["a", "b"], listed
        assert listed["next_cursor"] == "b"
        for page in (first, rest, listed):
            assert all("flow" not in f and "hints" not in f for f in page["flows"])
        assert "https://shop.example.com/" not in json.dumps([first, rest, listed])
        bad = await s.http.get("/v1/flows", params={"cursor": "../x"})
        assert bad.status_code == 422, bad.text

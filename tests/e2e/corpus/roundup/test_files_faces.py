"""Files on Roundup through a real ``gofer serve``: a file uploaded over a face is
attached to an issue (Roundup's database holds its bytes), and the attachment a task
downloads comes back to its owner with the same bytes, and to no one else."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from ...hardened import Served, served
from ...serve import gofer
from .conftest import Roundup
from .tasks import sign_in_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

ISSUE = "Login page is slow"

_FILES = """
import hashlib
found = db.issue.filter(None, {"title": TITLE})
issue = next(i for i in found if db.issue.get(i, "title") == TITLE)
def digest(content):
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    return hashlib.sha256(data).hexdigest()
result = [
    {"name": db.file.get(f, "name"), "sha256": digest(db.file.get(f, "binary_content"))}
    for f in db.issue.get(issue, "files")
]
"""


def attach_and_fetch(url: str, filename: str) -> list[dict[str, Any]]:
    return [
        *sign_in_steps(url),
        {"click": "Show All"},
        {"click": ISSUE},
        {"upload": "${trace}", "into": "File"},
        {"click": "Submit Changes"},
        {"wait": {"shows": "edited ok"}},
        {"download": filename, "as": "attached"},
    ]


def stored(roundup: Roundup) -> list[dict[str, str]]:
    found: list[dict[str, str]] = roundup._query(_FILES, TITLE=ISSUE)
    return found


async def finish(s: Served, task_id: str) -> dict[str, Any]:
    code, view = await s.call("await_task", {"id": task_id, "timeout_ms": 120_000})
    assert code == 200 and view["status"]["state"] == "done", view
    return view


async def test_a_file_uploaded_over_http_is_attached_and_fetched_back(
    tmp_path: Path, roundup: Roundup
) -> None:
    data = b"trace 7f3a: GET /login took 5107 ms\n" * 3
    async with served(tmp_path / "store", env={"GOFER_FILE_BYTES": "100000"}) as s:
        sent = await s.http.post(
            "/v1/files", files={"file": ("login-trace.txt", data, "text/plain")}
        )
        assert sent.status_code == 201, sent.text
        upload = sent.json()
        assert upload["sha256"] == hashlib.sha256(data).hexdigest()
        flow = attach_and_fetch(roundup.url, "login-trace.txt")
        code, view = await s.call(
            "start_task",
            {
                "flow": flow,
                "files": {"trace": upload["id"]},
                "constraints": {"allow_destructive": True},
            },
        )
        assert code == 200, view
        await finish(s, view["id"])
        assert {"name": "login-trace.txt", "sha256": upload["sha256"]} in stored(roundup)
        got = await s.http.get(f"/v1/tasks/{view['id']}/files/attached")
        assert got.status_code == 200 and got.content == data
        assert got.headers["content-disposition"].startswith("attachment")
        listed = (await s.http.get(f"/v1/tasks/{view['id']}/files")).json()
        assert {(f["name"], f["origin"], f["sha256"]) for f in listed} == {
            ("trace", "given", upload["sha256"]),
            ("attached", "kept", upload["sha256"]),
        }
        big = await s.http.post("/v1/files", files={"file": ("big.bin", b"x" * 100_001)})
        assert big.status_code == 413 and big.json()["error"]["code"] == "FILE_TOO_LARGE"

        code, out, err = await gofer("token", "create", "--owner", "bob", "--json", env=s.env)
        assert code == 0, err
        bob = {"Authorization": f"Bearer {json.loads(out)['token']}"}
        theirs = await s.http.get(f"/v1/tasks/{view['id']}/files/attached", headers=bob)
        assert theirs.status_code == 404, theirs.text
        taken = await s.http.post(
            "/v1/calls/start_task",
            json={"flow": flow, "files": {"trace": upload["id"]}},
            headers=bob,
        )
        assert taken.status_code == 404 and taken.json()["error"]["code"] == "UNKNOWN_FILE"


async def test_a_secret_file_goes_in_and_is_never_shown_or_kept_plain(
    tmp_path: Path, roundup: Roundup
) -> None:
    name = "passport-canary-5d1e.txt"
    data = b"PASSPORT canary-bytes-71c0a9 NO 123456"
    async with served(tmp_path / "store") as s:
        wide = await s.http.post("/v1/files", files={"file": ("scan.bin", b"w" * 1_500_000)})
        assert wide.status_code == 201, "a file past the calls' 1 MiB body limit is taken"
        sent = await s.http.post(
            "/v1/files", data={"secret": "true"}, files={"file": (name, data, "text/plain")}
        )
        assert sent.status_code == 201, sent.text
        assert sent.json()["secret"] and sent.json()["sha256"] == ""
        flow = attach_and_fetch(roundup.url, name)[:-1]
        code, view = await s.call(
            "start_task",
            {
                "flow": flow,
                "files": {"trace": sent.json()["id"]},
                "constraints": {"allow_destructive": True},
            },
        )
        assert code == 200, view
        done = await finish(s, view["id"])
        report = (await s.http.post("/v1/calls/task_report", json={"id": view["id"]})).text
        listed = (await s.http.get(f"/v1/tasks/{view['id']}/files")).text
        page = (await s.http.get(f"/tasks/{view['id']}")).text
        assert {"name": name, "sha256": hashlib.sha256(data).hexdigest()} in stored(roundup)
        canaries = ("canary-bytes-71c0a9", "passport-canary-5d1e")
        for shown in (json.dumps(done), report, listed, page):
            assert not any(c in shown for c in canaries), shown[:2000]
        assert s.leaked(*canaries) == []
        assert base64.b64encode(data).decode() not in s.stored().decode("latin-1")


async def test_the_cli_uploads_a_file_and_saves_what_the_task_kept(
    tmp_path: Path, roundup: Roundup
) -> None:
    trace = tmp_path / "cli-trace.txt"
    trace.write_bytes(b"cli trace: POST /login 302 in 4210 ms\n")
    flow_file = tmp_path / "attach.json"
    flow_file.write_text(json.dumps(attach_and_fetch(roundup.url, "cli-trace.txt")))
    env = {"GOFER_DB": str(tmp_path / "local.db"), "XDG_DATA_HOME": str(tmp_path)}
    code, out, err = await gofer(
        "run", str(flow_file), "--file", f"trace={trace}", "--allow-destructive", "--json", env=env
    )
    assert code == 0, (out, err)
    view = json.loads(out)
    assert view["status"]["state"] == "done", view
    want = hashlib.sha256(trace.read_bytes()).hexdigest()
    assert {"name": "cli-trace.txt", "sha256": want} in stored(roundup)

    remote = tmp_path / "remote-trace.txt"
    remote.write_bytes(b"remote trace: GET /login 200 in 3990 ms\n")
    flow_file.write_text(json.dumps(attach_and_fetch(roundup.url, "remote-trace.txt")))
    async with served(tmp_path / "store") as s:
        token = s.http.headers["Authorization"].removeprefix("Bearer ")
        server = {**s.env, "GOFER_TOKEN": token}
        code, out, err = await gofer(
            "start",
            str(flow_file),
            "--server",
            s.server.url,
            "--file",
            f"trace={remote}",
            "--allow-destructive",
            "--json",
            env=server,
        )
        assert code == 0, (out, err)
        task_id = json.loads(out)["id"]
        saved = tmp_path / "saved"
        code, out, err = await gofer(
            "report", task_id, "--server", s.server.url, "--files", str(saved), env=server
        )
        assert code == 0, (out, err)
    assert (saved / "remote-trace.txt").read_bytes() == remote.read_bytes()
    want = hashlib.sha256(remote.read_bytes()).hexdigest()
    assert {"name": "remote-trace.txt", "sha256": want} in stored(roundup)


async def test_a_file_given_over_mcp_is_attached_and_read_back_embedded(
    tmp_path: Path, roundup: Roundup
) -> None:
    data = b"mcp trace: GET /login 200 in 6120 ms\n"
    async with served(tmp_path / "store") as s:
        failed, upload = await s.tool(
            "upload_file",
            {"filename": "mcp-trace.txt", "content_base64": base64.b64encode(data).decode()},
        )
        assert not failed, upload
        flow = attach_and_fetch(roundup.url, "mcp-trace.txt")
        failed, view = await s.tool(
            "start_task",
            {
                "flow": flow,
                "files": {"trace": upload["id"]},
                "constraints": {"allow_destructive": True},
            },
        )
        assert not failed, view
        await finish(s, view["id"])
        result = await s.mcp.call_tool("read_task_file", {"id": view["id"], "name": "attached"})
        assert not result.is_error, result.content
        [said, embedded] = result.content
        assert "mcp-trace.txt" in said.text  # type: ignore[union-attr]
        blob = embedded.resource  # type: ignore[union-attr]
        assert base64.b64decode(blob.blob) == data
        assert blob.mime_type == "text/plain"
        failed, bad = await s.tool("upload_file", {"filename": "x", "content_base64": "**"})
        assert failed and bad["error"]["code"] == "INVALID_REQUEST", bad
    want = hashlib.sha256(data).hexdigest()
    assert {"name": "mcp-trace.txt", "sha256": want} in stored(roundup)

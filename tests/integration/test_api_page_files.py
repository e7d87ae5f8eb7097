"""A task's page lists the files it took and kept (names, types, sizes) with a link
that hands its owner the bytes; a secret file is listed by the flow's name alone, and
another owner gets nothing, on the page or by its link."""

from __future__ import annotations

import hashlib

import httpx
from scripted_server import ScriptedServer

from gofer.runtime import RunRequest, RunResult, TaskFile
from gofer.tasks.testing import complete

INVOICE = b"%PDF-1.4 canary-free invoice, total 41.50 EUR"
FLOW = [
    {"browse": "https://shop.example.com/"},
    {"upload": "${passport}", "into": "Passport"},
    {"download": "Invoice March 2026", "as": "march invoice"},
]


def keeping(request: RunRequest) -> RunResult:
    file = TaskFile("march invoice", "invoice-2026-03.pdf", "application/pdf", INVOICE)
    result = complete({"march invoice": file.record()})(request)
    assert isinstance(result, RunResult)
    result.kept = [file]
    return result


async def test_the_task_page_lists_its_files_and_hands_the_owner_the_bytes(
    scripted_server: ScriptedServer,
) -> None:
    s = scripted_server
    s.runner.add(keeping)
    url = s.server.url
    alice = {"Authorization": f"Bearer {s.alice}"}
    async with httpx.AsyncClient(base_url=url, timeout=30, headers=alice) as api:
        upload = await api.post(
            "/v1/files",
            data={"secret": "true"},
            files={"file": ("passport-canary-0b7e.jpg", b"scan-canary-31f9")},
        )
        assert upload.status_code == 201, upload.text
        started = await api.post(
            "/v1/calls/start_task", json={"flow": FLOW, "files": {"passport": upload.json()["id"]}}
        )
        assert started.status_code == 200, started.text
        task_id = started.json()["id"]
        done = await api.post("/v1/calls/await_task", json={"id": task_id})
        assert done.json()["status"]["state"] == "done", done.text
    async with httpx.AsyncClient(base_url=url, timeout=30) as browser:
        signed = await browser.post("/login", data={"token": s.alice, "next": "/tasks"})
        assert signed.status_code == 303
        page = (await browser.get(f"/tasks/{task_id}")).text
        assert "invoice-2026-03.pdf" in page and f"{len(INVOICE)} bytes" in page
        assert "a secret file" in page
        assert "passport-canary-0b7e" not in page and "scan-canary-31f9" not in page
        link = f"/tasks/{task_id}/files/march%20invoice"
        assert f'href="{link}"' in page
        got = await browser.get(link)
        assert got.status_code == 200
        assert hashlib.sha256(got.content).digest() == hashlib.sha256(INVOICE).digest()
        assert got.headers["content-disposition"].startswith("attachment")
        secret = await browser.get(f"/tasks/{task_id}/files/passport")
        assert secret.status_code == 404
    async with httpx.AsyncClient(base_url=url, timeout=30) as other:
        await other.post("/login", data={"token": s.bob, "next": "/tasks"})
        assert (await other.get(link)).status_code == 404
        assert "invoice-2026-03.pdf" not in (await other.get(f"/tasks/{task_id}")).text

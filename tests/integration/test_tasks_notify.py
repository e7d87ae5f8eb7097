"""A webhook address the operator's rules do not allow is refused at the start, and
a delivery's signature is HMAC-SHA256 over the timestamp and the body."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from gofer.errors import GoferError
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.notify import sign

FLOW = [{"browse": "https://shop.example.com/"}]


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:9/hook", "http://169.254.169.254/latest", "ftp://example.com/x"],
)
async def test_a_private_or_odd_webhook_address_is_refused_unless_allowed(url: str) -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        with pytest.raises(GoferError) as refused:
            await tasks.start_task({"flow": FLOW, "notify": {"url": url}})
        assert refused.value.code == "INVALID_REQUEST"
        assert (await tasks.list_tasks()).tasks == []
    if url.startswith("http://127."):
        async with Tasks(ScriptedRunner(), notify_private=True) as tasks:
            view = await tasks.start_task({"flow": FLOW, "notify": {"url": url}})
            assert view.status.state == "running"


def test_the_signature_covers_the_timestamp_and_the_body() -> None:
    body = b'{"delivery": "d1"}'
    header = sign("s3cret", 1_700_000_000, body)
    t, v1 = (part.split("=", 1)[1] for part in header.split(","))
    assert t == "1700000000"
    expected = hmac.new(b"s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert v1 == expected
    assert sign("s3cret", 1_700_000_001, body) != header

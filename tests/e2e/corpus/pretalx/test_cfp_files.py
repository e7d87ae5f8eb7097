"""A speaker's call-for-participation proposal with a profile picture given to the task:
pretalx's avatar widget (a file field beside a "Retrieve profile picture via gravatar"
checkbox, which the upload must leave alone) takes it, its cropper is applied, and
pretalx keeps the picture (its path on the speaker, an image in its media folder)."""

from __future__ import annotations

import struct
import zlib

import pytest

from gofer.runtime import RunStatus, TaskFile

from ...conftest import Runner
from .conftest import EVENT, Pretalx
from .test_cfp import account

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def png(width: int, height: int) -> bytes:
    """A real PNG of a plain colour (the bytes an image library accepts)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x2a\x6f\xb0" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


async def test_a_proposal_keeps_the_speakers_picture(run: Runner, pretalx: Pretalx) -> None:
    picture = TaskFile("photo", "tomas-portrait.png", "image/png", png(240, 240))
    result = await run(
        [
            {"browse": f"{pretalx.url}/{EVENT}/submit/"},
            {"enter": "Parsers that explain themselves", "into": "Proposal title"},
            {"enter": "Error messages a person can act on.", "into": "Abstract"},
            {"click": "Continue"},
            *account("Tomas Picture", "tomas@example.org", "Pic-pass-7713z"),
            {"enter": "Tomas writes parsers.", "into": "Biography"},
            {"upload": "${photo}", "into": "Profile picture"},
            {"click": "Apply Crop"},
            {"click": "Submit proposal!"},
        ],
        allow_destructive=True,
        files={"photo": picture},
    )
    row = pretalx.one(
        "SELECT avatar, get_gravatar FROM person_user WHERE email = ?", "tomas@example.org"
    )
    assert result.status == RunStatus.COMPLETED, (result.failure, result.steps[-3:])
    assert row is not None and row[0] and row[1] == 0, row
    # pretalx keeps the picture as its cropper drew it, encoded as WebP
    stored = (pretalx.db.parent / "media" / row[0]).read_bytes()
    assert stored[:4] == b"RIFF" and stored[8:12] == b"WEBP", stored[:12]

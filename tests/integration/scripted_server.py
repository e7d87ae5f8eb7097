"""What the ``scripted_server`` fixture (conftest.py) gives the face tests."""

from __future__ import annotations

from dataclasses import dataclass

from gofer.api import GoferServer, MemoryTokenStore
from gofer.tasks import ScriptedRunner


@dataclass
class ScriptedServer:
    """``GoferServer`` on loopback over a controller whose runs are scripted
    (``runner``), with alice's and bob's tokens; ``bodies`` is every body it sent."""

    server: GoferServer
    runner: ScriptedRunner
    tokens: MemoryTokenStore
    alice: str
    bob: str
    bodies: list[bytes]

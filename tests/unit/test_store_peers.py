"""The wake-up sockets between processes on one SQLite file: two wakers on one folder
stand for two processes (tests/integration/test_store_sqlite_wake.py runs real ones)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from gofer.store import Notice, QueueConfig, SQLiteConnector
from gofer.store import peers as peers_module
from gofer.store.peers import MAX_ADDRESS, PeerWaker, WakeFolderRefused, check_folder

NOTICE = Notice("finished", kind="turn", group="task:t1", owner="ann", id=7)


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """A folder with a short path: a socket's path must fit in MAX_ADDRESS, and pytest's
    own (longer under several test processes) would send the wakers to their fallback."""
    with tempfile.TemporaryDirectory(prefix="peers-") as folder:
        yield Path(folder)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@contextmanager
def raw_peer(folder: Path, name: str) -> Iterator[socket.socket]:
    """A process's socket in ``folder`` made by hand (non-blocking)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setblocking(False)
    sock.bind(os.fspath(folder / name))
    try:
        yield sock
    finally:
        sock.close()


async def test_a_waiting_process_is_woken_by_anothers_commit(tmp_path: Path) -> None:
    folder = tmp_path / "gofer.db.wake"
    waiting, committing = PeerWaker(folder), PeerWaker(folder)
    with waiting.subscribe() as subscription:
        address = waiting.address
        assert address is not None and address.parent == folder
        assert mode(folder) == 0o700 and mode(address) == 0o600
        committing.publish([NOTICE])
        assert await subscription.wait(5) == [NOTICE]
        waiting.publish([NOTICE])  # its own commit: once, not again through its socket
        assert await subscription.wait(5) == [NOTICE]
        assert await subscription.wait(0.2) == []
    assert waiting.address is None
    assert os.listdir(folder) == []  # the socket goes with the last subscription


async def test_a_dead_peers_socket_is_removed_and_a_live_one_is_sent_the_notices(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "gofer.db.wake"
    folder.mkdir(mode=0o700)
    with raw_peer(folder, "4242-dead.sock"):
        pass  # its process died: the file stays, nobody reads it
    with raw_peer(folder, "4343-live.sock") as live:
        PeerWaker(folder).publish([NOTICE, Notice("enqueued", kind="turn")])
        got = json.loads(live.recv(65536))
    assert got == [NOTICE.to_dict(), {"event": "enqueued", "kind": "turn"}]
    assert sorted(os.listdir(folder)) == ["4343-live.sock"]


async def test_a_full_socket_gets_every_notice_in_order_once_it_has_room(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "gofer.db.wake"
    folder.mkdir(mode=0o700)
    committing = PeerWaker(folder)
    loop = asyncio.get_running_loop()
    with raw_peer(folder, "4343-busy.sock") as busy:
        for n in range(40):  # more than the kernel queues for a socket nobody reads yet
            committing.publish([Notice("enqueued", id=n)])
        got: list[int] = []
        while len(got) < 40:
            datagram = await asyncio.wait_for(loop.sock_recv(busy, 65536), 10)
            got += [one["id"] for one in json.loads(datagram)]
    assert got == list(range(40))


async def test_a_datagram_that_is_not_notices_is_ignored(tmp_path: Path) -> None:
    waiting = PeerWaker(tmp_path / "gofer.db.wake")
    with waiting.subscribe() as subscription:
        assert waiting.address is not None
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as other:
            for junk in (b"not json", b'{"event": "x"}', b'[{"id": "seven"}]'):
                other.sendto(junk, os.fspath(waiting.address))
            other.sendto(json.dumps([NOTICE.to_dict()]).encode(), os.fspath(waiting.address))
        assert await subscription.wait(5) == [NOTICE]


async def test_a_folder_open_to_others_is_refused_and_waking_stays_in_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "gofer.db.wake"
    folder.mkdir()
    folder.chmod(0o755)
    with raw_peer(folder, "4343-live.sock") as live:
        waker = PeerWaker(folder)
        with caplog.at_level(logging.WARNING), waker.subscribe() as subscription:
            assert waker.address is None
            waker.publish([NOTICE])
            assert await subscription.wait(5) == [NOTICE]
            with pytest.raises(BlockingIOError):
                live.recv(65536)  # nothing is sent into a folder others may enter
    assert "open to others (mode 755, not 700)" in caplog.text
    assert os.listdir(folder) == ["4343-live.sock"]


def test_a_link_or_another_users_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    check_folder(real)
    link = tmp_path / "gofer.db.wake"
    link.symlink_to(real)
    with pytest.raises(WakeFolderRefused, match="not a folder"):
        check_folder(link)
    uid = os.getuid()
    monkeypatch.setattr(peers_module.os, "getuid", lambda: uid + 1)
    with pytest.raises(WakeFolderRefused, match="belongs to another user"):
        check_folder(real)


async def test_a_long_database_path_puts_the_sockets_under_the_runtime_dir(
    tmp_path: Path,
) -> None:
    path = tmp_path / ("d" * 60) / ("e" * 60) / "gofer.db"
    with tempfile.TemporaryDirectory(prefix="run") as short:
        await wake_through(path, Path(short))
    assert not path.with_name("gofer.db.wake").exists()


async def wake_through(path: Path, runtime: Path) -> None:
    async with (
        SQLiteConnector(path, runtime_dir=runtime) as db,
        SQLiteConnector(path, runtime_dir=runtime) as same,
    ):
        waker = db.waker
        assert isinstance(waker, PeerWaker) and same.waker is waker
        assert waker.folder.parent == runtime
        with waker.subscribe() as subscription:
            assert waker.address is not None
            assert len(os.fsencode(waker.address)) <= MAX_ADDRESS
            assert mode(waker.folder) == 0o700
            other = PeerWaker(waker.folder)  # another process on the same file
            other.publish([NOTICE])
            assert await subscription.wait(5) == [NOTICE]


async def test_without_unix_sockets_a_connector_wakes_only_its_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(socket, "AF_UNIX")
    path = tmp_path / "gofer.db"
    async with SQLiteConnector(path) as db:
        assert not isinstance(db.waker, PeerWaker)
        queue = db.queue(QueueConfig())
        with queue.subscribe() as subscription:
            item = await queue.enqueue("job", {"owner": "ann"})
            assert [n.id for n in await subscription.wait(5)] == [item.id]
    assert not path.with_name("gofer.db.wake").exists()


FORKING = """
import asyncio, json, os, sys
from pathlib import Path
from gofer.store import Notice
from gofer.store.peers import PeerWaker

waker = PeerWaker(Path(sys.argv[1]))
seen = {}

async def parent():
    with waker.subscribe() as subscription:
        pid = os.fork()
        if pid == 0:
            return True  # the child leaves the parent's block, then waits on its own
        seen["parent's socket"] = waker.address.name
        got = [n.event for n in await subscription.wait(10)]
        waker.publish([Notice("from the parent")])
        while "from the child" not in got and (more := await subscription.wait(10)):
            got += [n.event for n in more]
        seen["the parent got"] = got
        seen["child exited"] = os.waitpid(pid, 0)[1] == 0
        seen["sockets after the child"] = os.listdir(sys.argv[1])
    return False

async def child():
    with waker.subscribe() as subscription:
        waker.publish([Notice("child ready")])
        got = []
        while "from the parent" not in got and (more := await subscription.wait(10)):
            got += [n.event for n in more]
        waker.publish([Notice("from the child")])
    os._exit(0 if got == ["child ready", "from the parent"] else 3)

if asyncio.run(parent()):
    asyncio.run(child())
print(json.dumps(seen))
"""


def test_a_forked_child_binds_its_own_socket_and_leaves_its_parents(tmp_path: Path) -> None:
    folder = tmp_path / "gofer.db.wake"
    done = subprocess.run(
        [sys.executable, "-c", FORKING, str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen = json.loads(done.stdout)
    assert seen["the parent got"] == ["child ready", "from the parent", "from the child"]
    assert seen["child exited"]
    assert seen["sockets after the child"] == [seen["parent's socket"]]
    assert os.listdir(folder) == []

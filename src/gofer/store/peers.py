"""Wake-ups between processes on one SQLite file: a Unix datagram socket per waiting
process.

PostgreSQL carries notices between processes with LISTEN/NOTIFY; a SQLite file has no
such channel. So each process that has subscriptions binds a datagram socket in a
folder beside the database (``<db>.wake/<pid>-<random>.sock``) and reads it on its
event loop, and a process that commits sends the notices (their JSON) to every other
socket there. Sends never block: a socket whose process died is removed; a full one
(Linux queues only ``net.unix.max_dgram_qlen`` datagrams, often 10) gets what did not
fit once it has room, in order, woken by the event loop (past :data:`_BACKLOG`
datagrams it drops them: the wait's safety-net timeout covers that).

The folder is its owner's only: made 0700, and refused when it is not a folder of this
user's that no one else may enter (checked before each bind and each send); the
sockets are made 0600. Where the folder beside the database makes too long a socket
address (about 107 bytes), the folder is named by a hash of the database's path under
``runtime_dir`` instead, checked alike: every process on the file must then be given
the same ``runtime_dir``. Where there are no Unix sockets, or the folder is refused,
waking stays in-process (with a warning), as it was.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import secrets
import socket
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from gofer.store.files import DIR_MODE, FILE_MODE
from gofer.store.waking import Notice, Subscription, Waker

__all__ = ["MAX_ADDRESS", "PeerWaker", "WakeFolderRefused", "peer_waker", "wake_folder"]

log = logging.getLogger(__name__)

MAX_ADDRESS = 103
"""The longest socket path used, in bytes (Linux allows 107, macOS 103)."""
_NAME_ROOM = len("4194304-0123456789ab.sock")
"""The longest socket name in the folder: the largest pid, a hyphen, 12 hex digits."""
_DATAGRAM = 8192
"""Notices are packed into datagrams of at most this many bytes."""
_BACKLOG = 256
"""Datagrams kept for one full socket; more are dropped."""


class WakeFolderRefused(OSError):
    """The wake-up folder is not one only this user may enter."""


def supported() -> bool:
    """Whether this platform has Unix datagram sockets and user ids."""
    return hasattr(socket, "AF_UNIX") and hasattr(os, "getuid")


def wake_folder(database: Path, runtime_dir: Path) -> Path:
    """Where the sockets of the processes on ``database`` (an absolute path) go:
    ``<db>.wake`` beside it, or, when that makes too long a socket address,
    ``gofer-<uid>-<hash of the path>.wake`` under ``runtime_dir``."""
    beside = database.with_name(database.name + ".wake")
    if len(os.fsencode(beside)) + 1 + _NAME_ROOM <= MAX_ADDRESS:
        return beside
    digest = hashlib.sha256(os.fsencode(database)).hexdigest()[:16]
    return runtime_dir / f"gofer-{os.getuid()}-{digest}.wake"


def check_folder(folder: Path) -> None:
    """Raise :class:`WakeFolderRefused` unless ``folder`` is a folder (not a link) of
    this user's that no one else may enter or write; FileNotFoundError when missing."""
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise WakeFolderRefused(f"{folder} is not a folder")
    if info.st_uid != os.getuid():
        raise WakeFolderRefused(f"{folder} belongs to another user (uid {info.st_uid})")
    if info.st_mode & 0o077:
        raise WakeFolderRefused(
            f"{folder} is open to others (mode {stat.S_IMODE(info.st_mode):o}, not 700)"
        )


def make_folder(folder: Path) -> None:
    """Make ``folder`` 0700 if missing (its parent must exist), then check it."""
    try:
        os.mkdir(folder, DIR_MODE)
        os.chmod(folder, DIR_MODE)  # mkdir's mode is cut by the umask
    except FileExistsError:
        pass
    check_folder(folder)


def encode(notices: Sequence[Notice]) -> list[bytes]:
    """``notices`` as JSON arrays of at most :data:`_DATAGRAM` bytes each (a notice
    larger than that goes alone)."""
    out: list[bytes] = []
    batch: list[bytes] = []
    size = 2
    for notice in notices:
        one = json.dumps(notice.to_dict(), separators=(",", ":")).encode()
        if batch and size + len(one) + 1 > _DATAGRAM:
            out.append(b"[" + b",".join(batch) + b"]")
            batch, size = [], 2
        batch.append(one)
        size += len(one) + 1
    if batch:
        out.append(b"[" + b",".join(batch) + b"]")
    return out


def decode(datagram: bytes) -> list[Notice]:
    """The notices in a datagram from :func:`encode` (none if it is not one)."""
    try:
        data = json.loads(datagram)
        if not isinstance(data, list):
            raise ValueError("not a list")
        return [Notice.from_dict(one) for one in data]
    except (ValueError, TypeError, AttributeError) as error:
        log.debug("ignored a wake-up datagram that is not notices: %s", error)
        return []


class PeerWaker(Waker):
    """A :class:`Waker` that also wakes the other processes on one SQLite file and is
    woken by them, through the sockets in ``folder`` (see the module)."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self._pid = os.getpid()
        self._sock: socket.socket | None = None
        self._name: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._warned = False
        self._backlogs: dict[str, _Backlog] = {}

    @property
    def address(self) -> Path | None:
        """This process's socket, while it has subscriptions (None: in-process only)."""
        return None if self._name is None else self.folder / self._name

    @contextmanager
    def subscribe(self) -> Iterator[Subscription]:
        """A subscription, woken by this process's commits and every other's; the
        socket is bound before the caller checks the store."""
        self._forget_if_forked()
        if self._sock is not None and self._loop is not None and self._loop.is_closed():
            self._stop()
        if self._sock is None:
            self._listen()
        try:
            with super().subscribe() as subscription:
                yield subscription
        finally:
            self._forget_if_forked()  # a forked child must not remove its parent's socket
            if not self._subscriptions:
                self._stop()

    def publish(self, notices: Sequence[Notice]) -> None:
        """Wake this process's subscriptions, then send ``notices`` to every other
        process's socket (call it after the commit)."""
        super().publish(notices)
        if notices:
            self._send(encode(notices))

    def _warn(self, error: OSError) -> None:
        if not self._warned:
            self._warned = True
            log.warning(
                "waits on this SQLite file wake only for this process's changes "
                "(others' within the safety-net re-read): %s",
                error,
            )

    def _listen(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        name = f"{os.getpid()}-{secrets.token_hex(6)}.sock"
        path = os.fspath(self.folder / name)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            make_folder(self.folder)
            sock.setblocking(False)
            sock.bind(path)
        except OSError as error:
            sock.close()
            self._warn(error)
            return
        try:
            os.chmod(path, FILE_MODE)
            loop.add_reader(sock.fileno(), self._receive)
        except OSError as error:
            sock.close()
            _remove(path)
            self._warn(error)
            return
        self._sock, self._name, self._loop = sock, name, loop

    def _receive(self) -> None:
        while (sock := self._sock) is not None:
            try:
                datagram = sock.recv(65536)
            except BlockingIOError:
                return
            except OSError as error:
                log.debug("wake-up socket read failed: %s", error)
                return
            for notice in decode(datagram):
                self.notify(notice)

    def _stop(self) -> None:
        sock, name, loop = self._sock, self._name, self._loop
        self._sock = self._name = self._loop = None
        if sock is None or name is None:
            return
        if loop is not None and not loop.is_closed():
            loop.remove_reader(sock.fileno())
        sock.close()
        _remove(os.fspath(self.folder / name))

    def _send(self, datagrams: list[bytes]) -> None:
        self._forget_if_forked()
        try:
            check_folder(self.folder)
            names = os.listdir(self.folder)
        except FileNotFoundError:
            return  # no process has waited on this file yet
        except OSError as error:
            self._warn(error)
            return
        peers = [n for n in names if n != self._name and n.endswith(".sock")]
        if not peers:
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            for name in peers:
                path = os.fspath(self.folder / name)
                backlog = self._backlogs.get(path)
                if backlog is not None:
                    backlog.add(datagrams)
                    continue
                left = _send_to(sender, path, datagrams)
                if left:
                    self._hold(path, left)

    def _hold(self, path: str, datagrams: list[bytes]) -> None:
        """Keep what a full socket could not take, to send once it has room."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        backlog = _Backlog(path, loop, lambda: self._backlogs.pop(path, None))
        if backlog.start(datagrams):
            self._backlogs[path] = backlog

    def _forget_if_forked(self) -> None:
        """In a forked child, let go of the parent's socket (leaving its file, which the
        parent still reads) so this process binds its own."""
        if self._pid == os.getpid():
            return
        self._pid = os.getpid()
        if self._sock is not None:
            self._sock.close()
        self._sock = self._name = self._loop = None
        for backlog in self._backlogs.values():
            backlog.sock.close()  # the parent's to finish
        self._backlogs.clear()


def _send_to(sender: socket.socket, path: str, datagrams: list[bytes]) -> list[bytes]:
    """Send ``datagrams`` to ``path``; those a full socket did not take."""
    for sent, datagram in enumerate(datagrams):
        try:
            sender.sendto(datagram, path)
        except BlockingIOError:
            return datagrams[sent:]
        except (ConnectionRefusedError, FileNotFoundError):
            _remove(path)  # its process died without removing it
            return []
        except OSError as error:
            log.debug("wake-up to %s failed: %s", path, error)
            return []
    return []


class _Backlog:
    """Datagrams for one full socket, sent through a socket connected to it as soon as
    the event loop sees it writable (Linux reports a connected datagram socket
    writable once its peer's queue has room)."""

    def __init__(
        self, path: str, loop: asyncio.AbstractEventLoop, done: Callable[[], object]
    ) -> None:
        self.path = path
        self.loop = loop
        self.done = done
        self.pending: list[bytes] = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)

    def start(self, datagrams: list[bytes]) -> bool:
        """Connect and wait for room; False when the socket is gone."""
        try:
            self.sock.setblocking(False)
            self.sock.connect(self.path)
            self.loop.add_writer(self.sock.fileno(), self.flush)
        except (ConnectionRefusedError, FileNotFoundError):
            self.sock.close()
            _remove(self.path)
            return False
        except OSError as error:
            self.sock.close()
            log.debug("wake-up to %s failed: %s", self.path, error)
            return False
        self.add(datagrams)
        return True

    def add(self, datagrams: list[bytes]) -> None:
        room = _BACKLOG - len(self.pending)
        if len(datagrams) > room:
            log.debug("wake-up socket %s stays full: notices dropped", self.path)
        self.pending += datagrams[: max(room, 0)]

    def flush(self) -> None:
        while self.pending:
            try:
                self.sock.send(self.pending[0])
            except BlockingIOError:
                return  # still full: the loop calls again once there is room
            except (ConnectionRefusedError, FileNotFoundError):
                _remove(self.path)
                break
            except OSError as error:
                log.debug("wake-up to %s failed: %s", self.path, error)
                break
            del self.pending[0]
        self.loop.remove_writer(self.sock.fileno())
        self.sock.close()
        self.done()


def _remove(path: str) -> None:
    with suppress(FileNotFoundError):
        os.unlink(path)


def peer_waker(database: Path, runtime_dir: Path) -> Waker:
    """The waker for the processes on ``database`` (an absolute path): a
    :class:`PeerWaker` where there are Unix sockets, else an in-process one."""
    if not supported():
        return Waker()
    return PeerWaker(wake_folder(database, runtime_dir))

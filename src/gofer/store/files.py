"""The store's files on disk: only their owner reads them.

A folder the store makes is made 0700, and a file it makes is made 0600 before
anything is written to it (SQLite gives a database's ``-wal`` and ``-shm`` files the
mode of the database file). A file already there is narrowed to 0600.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DIR_MODE", "FILE_MODE", "private_dir", "private_file"]

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> None:
    """Make ``path`` (and missing parents) as folders only their owner may enter; a
    folder already there is left as it is."""
    if path.is_dir():
        return
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    path.chmod(DIR_MODE)  # mkdir's mode is cut by the umask, which may leave less


def private_file(path: Path) -> None:
    """Make ``path`` an owner-only file: create it empty, or narrow the one there (and a
    SQLite database's ``-wal``, ``-shm`` and ``-journal`` beside it)."""
    private_dir(path.parent)
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, FILE_MODE)
    os.close(fd)
    for one in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
        if one.exists() and (one.stat().st_mode & 0o777) != FILE_MODE:
            one.chmod(FILE_MODE)

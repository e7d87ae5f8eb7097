"""The relay credential a server shows a browser's holder: it opens one owner's view
of one task during one hold, for 30 s; anything forged, altered, expired, or for
another task, owner or hold is refused."""

from __future__ import annotations

from gofer.tasks.board import RELAY_TTL_S, relay_credential, relay_credential_ok

KEY = bytes(range(32))


def test_a_credential_opens_only_what_it_was_signed_for() -> None:
    signed = relay_credential(KEY, "task-1", "alice", "hold-1", now=1000.0)
    assert relay_credential_ok(KEY, signed, "task-1", "alice", "hold-1", now=1000.0)
    assert relay_credential_ok(KEY, signed, "task-1", "alice", "hold-1", now=1029.0)
    assert not relay_credential_ok(
        KEY, signed, "task-1", "alice", "hold-1", now=1000.0 + RELAY_TTL_S
    )
    for task, owner, hold in (
        ("task-2", "alice", "hold-1"),
        ("task-1", "bob", "hold-1"),
        ("task-1", "alice", "hold-2"),
    ):
        assert not relay_credential_ok(KEY, signed, task, owner, hold, now=1000.0)
    assert not relay_credential_ok(bytes(32), signed, "task-1", "alice", "hold-1", now=1000.0)


def test_a_forged_or_altered_credential_is_refused() -> None:
    signed = relay_credential(KEY, "task-1", "alice", "hold-1", now=1000.0)
    expires, mac = signed.split(".")
    later = f"{int(expires) + 3600}.{mac}"
    flipped = f"{expires}.{mac[:-1]}{'0' if mac[-1] != '0' else '1'}"
    for forged in (later, flipped, "", ".", "x.y", f"{expires}.", "-5." + mac, mac):
        assert not relay_credential_ok(KEY, forged, "task-1", "alice", "hold-1", now=1000.0)

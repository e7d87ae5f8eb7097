"""The form ledger: every value a run typed, remembered with its field.

A later step may overwrite a field (a date typed into the wrong box) or a widget may
clear it (a picker that resets its input on close). Before a click that may send the
form, and at the end of the run, every field the ledger holds is read again; one that
no longer holds its value fails the run, naming the field and the step that set it.
A page that navigates has sent (or dropped) its form: the ledger starts over.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gofer.decide.controls import value_took
from gofer.decide.text import normalise
from gofer.surfaces import Surface

__all__ = ["Entry", "Ledger", "Lost"]


@dataclass(frozen=True, slots=True)
class Entry:
    """A value a step set in a field."""

    path: str  # the step that set it
    ref: str
    label: str
    value: str
    words: str  # the words the step named the field by


@dataclass(frozen=True, slots=True)
class Lost:
    """A field that no longer holds what a step set in it."""

    entry: Entry
    shown: str


@dataclass(slots=True)
class Ledger:
    entries: dict[str, Entry] = field(default_factory=dict)  # by element ref
    settled: set[str] = field(default_factory=set)  # fields seen to hold, or typed again
    sent: set[str] = field(default_factory=set)  # fields a sending click has taken since

    def retry(self, ref: str) -> bool:
        """Whether the field ``ref`` that lost its value may be typed once more: once, and
        only while no check since it was typed found it holding (then an action after
        that check took the value, not the way it was typed)."""
        if ref in self.settled:
            return False
        self.settled.add(ref)
        return True

    def held(self) -> None:
        """Every field was just found holding its value."""
        self.settled.update(self.entries)

    def remember(self, path: str, ref: str, label: str, value: str, words: str) -> None:
        """Note that the step at ``path`` left ``value`` in the field ``ref`` it named
        by ``words``; a later value set in the same field takes its place."""
        self.entries.pop(ref, None)
        self.settled.discard(ref)
        self.sent.discard(ref)
        self.entries[ref] = Entry(path, ref, label, value, words)

    def sending(self) -> None:
        """A button sent the form and the page took it: what the fields hold has gone
        with it (a page that saves by script stays where it is)."""
        self.sent.update(self.entries)

    def unsent(self) -> list[Entry]:
        """The fields typed since the last send, in the order they were set."""
        return [entry for ref, entry in self.entries.items() if ref not in self.sent]

    def taken(self, ref: str, words: str) -> Entry | None:
        """The entry of another step that holds the field ``ref``, when that step named
        it by other words: typing there now would overwrite what that step asked for."""
        entry = self.entries.get(ref)
        if entry is None or normalise(entry.words) == normalise(words):
            return None
        return entry

    def forget(self, ref: str) -> None:
        """Stop watching a field (a later step changes it on purpose some other way)."""
        self.entries.pop(ref, None)
        self.sent.discard(ref)

    def clear(self) -> None:
        """The page navigated: its form was sent or dropped."""
        self.entries.clear()
        self.sent.clear()

    async def lost(self, browser: Surface) -> Lost | None:
        """The first field, in the order they were set, that no longer holds its value.

        A field that is gone from the page (redrawn, removed) is forgotten: nothing
        can be read of it, so nothing is claimed about it.
        """
        entries = list(self.entries.values())
        # read all at once: one call however many fields the form has
        read = await browser.read_values([entry.ref for entry in entries])
        for entry, shown in zip(entries, read, strict=True):
            if shown is None:
                self.entries.pop(entry.ref, None)
            elif not value_took(entry.value, shown):
                return Lost(entry, shown)
        return None

"""Events: what happened, in the past tense. The append-only log is a list of
these; the state is their fold (evolve.py).

Event data is JSON-native (str, int, bool, None, list, dict) so an event read
back from the database equals the one `decide` produced. An event with
`private_to` set is seen only by that seat (and organizers); every other
viewer learns only that an event with that number exists.

Core events live here; each rule module defines the events of its own rule
beside its handlers, so a rule reads top to bottom in one file.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True, kw_only=True)
class Event:
    private_to: str | None = None
    # The docs/rules.md section that made the tracker do this, if any.
    rule: str | None = None
    # Random, chosen by the server for every private event as it is appended
    # (actions.append): the hash chain covers it, so a head hash given to a
    # player (their receipt) is no function of guessable content alone, and
    # lets no one test a guess of what they may not see. Empty (and left out
    # of the data) on public events.
    salt: str = ""

    describe_as: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        EVENT_TYPES[cls.__name__] = cls

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_data(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if not data["salt"]:
            del data["salt"]  # public events read exactly as before salts existed
        return data

    @classmethod
    def from_data(cls, data: dict) -> Event:
        """The event `to_data` wrote (an event that stores a value object
        flat, like MatchCreated, reads it back here)."""
        return cls(**data)

    def visible_to(self, viewer: str | None) -> bool:
        return self.private_to is None or self.private_to == viewer

    def describe(self) -> tuple[str, dict] | None:
        """A log line for viewers allowed to see this event: (msgid, params)."""
        if self.describe_as is None:
            return None
        return self.describe_as, self.to_data()


def event_from_data(kind: str, data: dict) -> Event:
    return EVENT_TYPES[kind].from_data(data)

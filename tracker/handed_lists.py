"""A player's army list handed once to an event's organizer (HandedList):
every match of that player in the event, created before or after, starts
with it as its draft once the player holds its seat. A draft already
started is never overwritten.

Only the player's own browser is given the list: the browser that holds the
seat and has opened the player's list link (proven_player). A seat link
proves nothing of who taps it: an event's table sheets, left on the table,
carry both seats' codes, and a draft filled before its claim showed the
player's whole list, Hidden Deployment troopers included, to whoever
claimed the seat first (the opponent, with the other code)."""

from __future__ import annotations

from django.db import transaction

from tracker import seats
from tracker.event_running import (
    list_open_for,
    lists_locked,
    open_seats_of,
    player_key,
    redraw_matches_of,
    roster_entry,
)
from tracker.models import HandedList, Match, Seat
from tracker.row_ids import row_id
from tracker.rules.errors import NotAllowed
from tracker.rules.i18n import _ as mark

LOCKED = mark(
    "The army lists of this event are locked: this list was not handed in. It stays "
    "your list in this match; ask the organizer to take it."
)


def hand_in_open(match: Match, name: str) -> bool:
    """Before the event's lists lock; after it, only for a player of its
    roster whose late list the organizer accepts."""
    if not lists_locked(match.event):
        return True
    player = roster_entry(match.event, name)
    return player is not None and list_open_for(player)


# Only these keys of a draft row travel to other matches.
ROW_KEYS = ("name", "cost", "combat_group", "silhouette", "traits")


def travelling(row: dict) -> dict:
    """The keys of `row` that travel (ROW_KEYS): what a list is compared
    and handed on by."""
    return {key: row[key] for key in ROW_KEYS if key in row}


def handed_for(seat: Seat) -> HandedList | None:
    match = seat.match
    if not match.event_id or not seat.listed_name:
        return None
    return HandedList.objects.filter(
        event_id=match.event_id, player_key=HandedList.key(seat.listed_name)
    ).first()


def is_handed_draft(seat: Seat, handed: HandedList | None) -> bool:
    """Is `seat`'s draft the list handed in (by the keys that travel)?"""
    return handed is not None and [travelling(row) for row in seat.draft] == [
        travelling(row) for row in handed.rows
    ]


def fill_held_seats(session, event_id: int, key: str) -> int:
    """Give the player's list to the open seats of the event this browser
    holds as that player (prefill): when it opens the list link, after
    claiming its seat. How many it filled."""
    handed = HandedList.objects.filter(event_id=event_id, player_key=key).first()
    if handed is None:
        return 0
    return sum(prefill(seat, handed, session) for seat in open_seats_of(event_id, key))


def rows_for(seat: Seat, handed: HandedList) -> list[dict]:
    """The handed rows with ids of this seat (ids are unique per seat)."""
    rows = []
    for index, row in enumerate(handed.rows):
        rows.append(
            {
                "id": row_id(seat.token, "handed", str(index)),
                **travelling(row),
            }
        )
    return rows


# The session's proofs: event id -> the player key of the list link it opened.
PROVEN = "list_links_opened"


def prove_player(session, event_id: int, key: str) -> None:
    """This browser opened the list link of player `key` of the event."""
    proven = dict(session.get(PROVEN) or {})
    proven[str(event_id)] = key
    session[PROVEN] = proven


def proven_player(session, seat: Seat) -> bool:
    """Does `session` hold `seat` and has it opened its listed player's
    list link? Only then is the seat given that player's handed list."""
    if session is None or not seat.match.event_id or not seat.listed_name:
        return False
    opened = (session.get(PROVEN) or {}).get(str(seat.match.event_id))
    return opened == HandedList.key(seat.listed_name) and (
        seats.held_seat(session, seat.match, [seat]) is not None
    )


def prefill(
    seat: Seat, handed: HandedList | None = None, session=None, given_before: bool = False
) -> bool:
    """Start `seat`'s empty draft with the handed list, while still open,
    for the player's own browser `session` only (proven_player), or for a
    seat whose holder was given the player's earlier list (`given_before`)."""
    if not (given_before or proven_player(session, seat)):
        return False
    handed = handed or handed_for(seat)
    if handed is None or seat.draft or seat.match.status != Match.Status.SETTING_UP:
        return False
    from tracker.reading import load_state  # reading imports models only

    if load_state(seat.match).seat(seat.letter).list_locked:
        return False
    seat.draft = rows_for(seat, handed)
    seat.save(update_fields=["draft"])
    return True


def hand_in(seat: Seat, session=None) -> HandedList:
    """Hand this seat's draft to the organizer of its event, once; the
    player's other open matches held by this browser `session` start with it."""
    match = seat.match
    if not match.event_id or not seat.listed_name:
        raise NotAllowed(mark("Only a match of an event can hand a list to its organizer."))
    if not seat.draft:
        raise NotAllowed(mark("Add troopers to your list before handing it in."))
    if not hand_in_open(match, seat.listed_name):
        # The event's lists locked at the organizer's deadline (issue 21):
        # the latecomer's draft stays theirs in this match, untouched.
        raise NotAllowed(LOCKED)
    with transaction.atomic():
        key = HandedList.key(seat.listed_name)
        if HandedList.objects.select_for_update().filter(event_id=match.event_id, player_key=key):
            raise NotAllowed(mark("You have already handed a list to the organizer of this event."))
        handed = HandedList.objects.create(
            event_id=match.event_id,
            player=seat.listed_name,
            player_key=key,
            rows=[travelling(row) for row in seat.draft],
        )
        # The browser that handed the list in is the player's: its other
        # seats as that player are given it (prefill).
        if session is not None:
            prove_player(session, match.event_id, key)
        # A late list accepted by the organizer is taken once.
        match.event.roster.filter(key=player_key(seat.listed_name)).update(late_list=False)
        for other in open_seats_of(match.event_id, key):
            if other.pk != seat.pk:
                prefill(other, handed, session)
        # Every page of theirs in the event says so (this phone's too, on
        # the player's other phones and tabs).
        redraw_matches_of(match.event_id, seat.listed_name)
    return handed

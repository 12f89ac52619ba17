"""Running an event from the tracker (issue 21): the database side of the
roster, the army lists handed in before round 1, the Swiss rounds, the
standings and the round clock. The rules of pairing and scoring are pure
(tracker/tournament/); this module reads and writes the rows around them."""

from __future__ import annotations

import secrets
from collections.abc import Container
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tracker import announce
from tracker.folding import name_key
from tracker.models import EventPlayer, EventRound, HandedList, Match, Seat, TournamentEvent
from tracker.rules.results import CONFIRMED, SETTLED
from tracker.tournament import scoring, swiss

MAX_ROSTER = 500


# One player, however the name is typed: the roster's, the handed lists' and
# the standings' one key (folding.name_key).
player_key = name_key


# ------------------------------------------------------------------ roster


def active_for(event: TournamentEvent, number: int) -> list[EventPlayer]:
    """Who is paired in round `number`: joined by then, not dropped before."""
    return [
        player
        for player in event.roster.all()
        if player.joined_round <= number
        and (player.dropped_after is None or player.dropped_after >= number)
    ]


def next_round_number(event: TournamentEvent) -> int:
    """The round after the event's last: drawn, or pasted (a round created
    from pasted pairings with its number has no EventRound, and drawing its
    number again gave its players a second table, which publishing then
    refused: the organizer could draw no later round)."""
    drawn = event.rounds.aggregate(last=Max("number"))["last"] or 0
    pasted = Match.objects.filter(event=event).aggregate(last=Max("event_round"))["last"] or 0
    return max(drawn, pasted) + 1


# ------------------------------------------------------------------- lists


def lists_locked(event: TournamentEvent, now=None) -> bool:
    deadline = event.lists_deadline
    return deadline is not None and (now or timezone.now()) >= deadline


def list_open_for(player: EventPlayer, now=None) -> bool:
    """May this player hand in a list now? Until the lock; after it, only a
    player whose one list the organizer takes: a late one, or one that
    corrects theirs (a list over the points, found by the organizer)."""
    if not lists_locked(player.event, now):
        return True
    return player.late_list


def roster_entry(event: TournamentEvent, name: str) -> EventPlayer | None:
    return event.roster.filter(key=player_key(name)).first()


def handed_list(player: EventPlayer) -> HandedList | None:
    return HandedList.objects.filter(
        event_id=player.event_id, player_key=HandedList.key(player.name)
    ).first()


def open_seats_of(event_id: int, key: str) -> list[Seat]:
    """The seats, with their matches, of player `key` (HandedList.key) in
    the event's matches still setting up: where a handed list may go."""
    seats = Seat.objects.filter(
        match__event_id=event_id, match__status=Match.Status.SETTING_UP
    ).select_related("match")
    return [seat for seat in seats if seat.listed_name and HandedList.key(seat.listed_name) == key]


class ListsLocked(Exception):
    """The event's lists are locked for this player (list_open_for)."""


def submit_list(player: EventPlayer, rows: list[dict], session=None) -> HandedList:
    """The player's list for the event, replacing an earlier one until the
    lists lock. Each round's match of the player starts from it, on the
    player's own phone (tracker/handed_lists.py), and so does a match
    still setting up: an empty draft, or one still as the earlier list made
    it, takes this list; a draft the player has started is left alone.
    ListsLocked if the lists locked meanwhile, or the late list this
    player was allowed was taken by another send of the link's form."""
    from tracker import handed_lists  # it imports this module

    key = HandedList.key(player.name)
    with transaction.atomic():
        # Read again under a lock: two sends of a reopened link both read it
        # open, and both lists were taken, the last one winning.
        player = EventPlayer.objects.select_for_update().select_related("event").get(pk=player.pk)
        if not list_open_for(player):
            raise ListsLocked
        handed, _ = HandedList.objects.select_for_update().get_or_create(
            event_id=player.event_id, player_key=key, defaults={"player": player.name}
        )
        earlier = HandedList(rows=handed.rows)
        handed.player, handed.rows, handed.handed_at = player.name, rows, timezone.now()
        handed.save()
        for seat in open_seats_of(player.event_id, key):
            # A draft still as the earlier list made it follows: that list
            # was given to the player's own browser only (prefill), which
            # holds the seat still, or to a phone the seat moved to with its
            # PIN. Any other seat takes the list only from the player's
            # browser (`session`).
            given = bool(
                seat.claimed and earlier.rows and seat.draft == handed_lists.rows_for(seat, earlier)
            )
            if given:
                seat.draft = []
            handed_lists.prefill(seat, handed, session, given_before=given)
        if player.late_list:  # once: the lock holds for them again
            EventPlayer.objects.filter(pk=player.pk).update(late_list=False)
            player.late_list = False
        redraw_matches_of(player.event_id, player.name)
    return handed


def redraw_matches_of(event_id: int, name: str) -> None:
    """The pages of this player's matches in the event show their list's
    state (handed in, locked, open to a late list): have their phones draw
    them again (tracker/announce.py). After the change's commit."""
    key = HandedList.key(name)
    ids = {
        match_id
        for match_id, listed in Seat.objects.filter(match__event_id=event_id).values_list(
            "match_id", "listed_name"
        )
        if listed and HandedList.key(listed) == key
    }
    for match_id in sorted(ids):
        transaction.on_commit(lambda match_id=match_id: announce.redraw(match_id))


def who_has_not_submitted(event: TournamentEvent) -> list[EventPlayer]:
    """Players without a list who may yet play (needs_list)."""
    handed = set(event.handed_lists.values_list("player_key", flat=True))
    return [p for p in event.roster.all() if needs_list(p, handed)]


def needs_list(player: EventPlayer, handed: Container[str]) -> bool:
    """Has `player` no list among `handed` (player keys) and may yet play?
    One who dropped before round 1 plays no round and needs none."""
    return HandedList.key(player.name) not in handed and player.dropped_after != 0


# ------------------------------------------------------------------ rounds


def _stored(event: TournamentEvent, before: int) -> list[dict]:
    return [
        {"pairs": r.pairs, "bye": r.bye}
        for r in event.rounds.filter(number__lt=before, published_at__isnull=False)
    ]


def played_before(event: TournamentEvent, number: int) -> tuple[set, set]:
    """Who met whom, and who had a bye, in the rounds before `number`: the
    published rounds' pairs and byes, and the tables of rounds pasted
    (they store no pairs; their players on the roster met all the same)."""
    met, byes = swiss.history(_stored(event, number))
    for match, a, b in round_matches(event):
        if match.event_round < number and a is not None and b is not None:
            met.add(frozenset((a, b)))
    return met, byes


def draw_round(event: TournamentEvent, seed: int | None = None) -> EventRound:
    """Draw the next round (or redraw the unpublished one): round 1 at
    random from `seed` (a new random seed if none), later rounds by score
    within the standings, no avoidable rematch, one bye per player."""
    pending = event.rounds.filter(published_at__isnull=True).first()
    number = pending.number if pending else next_round_number(event)
    players = active_for(event, number)
    ids = [p.pk for p in players]
    if number == 1:
        seed = secrets.randbelow(2**31) if seed is None else seed
        drawn = swiss.first_round(ids, seed)
    else:
        seed = 0
        table = standings(event)
        order = {row.player: (row.tp, index) for index, row in enumerate(table)}
        met, byes = played_before(event, number)
        entrants = [swiss.Entrant(pid, *order.get(pid, (0, len(order)))) for pid in ids]
        drawn = swiss.pair_round(entrants, met, byes)
    values = {"seed": seed, "pairs": [list(p) for p in drawn.pairs], "bye": drawn.bye}
    if pending:
        EventRound.objects.filter(pk=pending.pk).update(**values)
        pending.refresh_from_db()
        return pending
    return EventRound.objects.create(event=event, number=number, **values)


def swap_players(event_round: EventRound, one: int, two: int) -> None:
    drawn = swiss.Round(tuple(tuple(p) for p in event_round.pairs), event_round.bye)
    swapped = swiss.swap(drawn, one, two)
    event_round.pairs = [list(p) for p in swapped.pairs]
    event_round.bye = swapped.bye
    event_round.save(update_fields=["pairs", "bye"])


def pairing_mark(event_round: EventRound) -> str:
    """The drawn round's tables and bye in one line: the publish form
    carries the one its page showed, so a round swapped or drawn again on
    another device since is not published unseen."""
    tables = ",".join(f"{a}-{b}" for a, b in event_round.pairs)
    return f"{tables}|{event_round.bye or ''}"


@dataclass(frozen=True)
class RoundPairing:
    """What tracker.organizer.views.create_pairings takes for one table,
    the same shape as a pasted pairing (tracker.organizer.forms.Pairing)."""

    line: int
    table: int
    player_a: str
    player_b: str


def round_pairings(event_round: EventRound) -> list[RoundPairing]:
    names = dict(event_round.event.roster.values_list("pk", "name"))
    return [
        RoundPairing(table, table, names[a], names[b])
        for table, (a, b) in enumerate(event_round.pairs, start=1)
    ]


# --------------------------------------------------------------- standings


def round_matches(event: TournamentEvent) -> list[tuple[Match, int | None, int | None]]:
    """Every match of a round of the event, with the roster ids of its
    seats A and B (None for a pasted name not on the roster)."""
    by_key = {p.key: p.pk for p in event.roster.all()}
    matches = (
        Match.objects.filter(event=event, event_round__isnull=False)
        .prefetch_related("seats")
        .order_by("event_round", "table_number")
    )
    found = []
    for match in matches:
        seats = {seat.letter: seat for seat in match.seats.all()}
        found.append(
            (
                match,
                by_key.get(player_key(seats["A"].listed_name)),
                by_key.get(player_key(seats["B"].listed_name)),
            )
        )
    return found


def counted_results(event: TournamentEvent) -> list[scoring.Result]:
    """Confirmed and settled results only: a disputed match counts once
    the organizer settles it."""
    results = []
    for match, a, b in round_matches(event):
        record = match.result or {}
        if record.get("status") not in (CONFIRMED, SETTLED):
            continue
        if a is None or b is None:
            continue
        op, vp = record["objective_points"], record["army_points"]
        results.append(scoring.Result(match.event_round, a, b, op["A"], op["B"], vp["A"], vp["B"]))
    return results


def byes(event: TournamentEvent) -> list[scoring.Bye]:
    return [
        scoring.Bye(r.number, r.bye)
        for r in event.rounds.filter(published_at__isnull=False, bye__isnull=False)
    ]


def standings(event: TournamentEvent) -> list[scoring.Standing]:
    """The event's standings, each row with its player's faction and club
    for the pages (public facts: the roster, never a list)."""
    roster = {p.pk: p for p in event.roster.all()}
    players = {pid: (p.name, p.dropped) for pid, p in roster.items()}
    rows = scoring.standings(
        players, counted_results(event), byes(event), scoring.scoring_table(event.scoring)
    )
    for row in rows:
        row.faction, row.club = roster[row.player].faction, roster[row.player].club
    return rows


# ------------------------------------------------------------------- clock


def clock_left(event_round: EventRound, now=None) -> int:
    """Whole seconds left on the round's clock (0 once time is called)."""
    if event_round.time_called_at:
        return 0
    run = event_round.clock_elapsed
    if event_round.clock_started_at:
        run += ((now or timezone.now()) - event_round.clock_started_at).total_seconds()
    return max(0, int(event_round.minutes * 60 - run))


def clock_ends_at(event_round: EventRound, now=None) -> int | None:
    """When a running clock runs out, in milliseconds since the epoch: what
    static/tracker/app.js counts down to (data-ends-at), on the phones and
    on the organizer's run page alike. None unless it runs."""
    if not event_round.clock_started_at or event_round.time_called_at:
        return None
    now = now or timezone.now()
    return int((now.timestamp() + clock_left(event_round, now)) * 1000)


def end_earlier_clocks(event: TournamentEvent, number: int, now) -> list[EventRound]:
    """Publishing round `number` ends the rounds before it: their tables
    all have a result (a round is drawn only then), so a clock still
    running or paused there would go on counting on the run page, offer
    Pause and Call time for a round long over, and call time on its phones
    in the middle of the next round. Time is called on each at `now`; the
    caller announces them (event_clock.announce_clock) once committed."""
    ended = list(
        EventRound.objects.select_for_update().filter(
            event=event, number__lt=number, published_at__isnull=False, time_called_at__isnull=True
        )
    )
    for event_round in ended:
        if event_round.clock_started_at:
            event_round.clock_elapsed += (now - event_round.clock_started_at).total_seconds()
        event_round.clock_started_at, event_round.time_called_at = None, now
        event_round.save(update_fields=["clock_elapsed", "clock_started_at", "time_called_at"])
    return ended


def clock_state(event_round: EventRound, now=None) -> str:
    if event_round.time_called_at or clock_left(event_round, now) == 0:
        return "called"
    if event_round.clock_started_at:
        return "running"
    return "paused" if event_round.clock_elapsed else "ready"

"""Persistence: matches, seats and the append-only event log.

The log is the source of truth; everything else on a Match row is a cache of
it for lists and locks (seq, phase). Events are never updated or deleted:
the ORM refuses it here and PostgreSQL refuses it with a trigger.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tracker.folding import name_key
from tracker.rules.commitments import canonical_json

GENESIS_HASH = "0" * 64


def new_code() -> str:
    """12 URL-safe characters, never starting with "-": a code typed after a
    command-line flag (`verify_matches --receipt CODE:SEQ:HASH`) that starts
    with "-" is read as another flag (1 match in 64 before)."""
    while (code := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return code


def new_token() -> str:
    # 32 random bytes: a seat link cannot be guessed, only shared.
    return secrets.token_urlsafe(32)


def unique(name: str, *fields: str) -> models.UniqueConstraint:
    """The constraint `name` ("one_seat_per_letter"): one row per `fields`."""
    return models.UniqueConstraint(fields=list(fields), name=name)


class TournamentEvent(models.Model):
    """A tournament or a league night: a named group of matches."""

    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"), default=timezone.localdate)
    location = models.CharField(_("location"), max_length=120, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # Running the event (issue 21): the scoring table's values over the
    # default of tracker/tournament/scoring.py, and when army lists lock.
    scoring = models.JSONField(_("scoring"), default=dict, blank=True)
    lists_deadline = models.DateTimeField(_("army lists deadline"), null=True, blank=True)

    class Meta:
        ordering = ["-date", "-created_at"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name


class Match(models.Model):
    class Status(models.TextChoices):
        SETTING_UP = "setting_up", _("setting up")
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")
        DISPUTED = "disputed", _("disputed")

    code = models.CharField(max_length=20, unique=True, default=new_code)
    host_token = models.CharField(max_length=64, default=new_token)
    name = models.CharField(_("name"), max_length=80)
    points_limit = models.PositiveIntegerField(_("points limit"), default=300)
    mission = models.CharField(_("mission"), max_length=80, blank=True)
    table = models.CharField(_("table"), max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # The home page's form this match was created from (a random token the
    # page carries): "Create" tapped twice, or sent again after a stalled
    # answer, finds this match instead of making a second one.
    created_by_form = models.CharField(max_length=32, null=True, blank=True, unique=True)
    # Caches of the log, maintained by the one write path (actions.py).
    seq = models.PositiveIntegerField(default=0)
    last_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    status = models.CharField(
        max_length=20, choices=Status.choices, default=Status.SETTING_UP, db_index=True
    )
    # Organizer side: the event a match belongs to (a match may stand alone),
    # its round and table there, and the players' result (a cache of the log).
    event = models.ForeignKey(
        TournamentEvent,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="matches",
        verbose_name=_("event"),
    )
    event_round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveIntegerField(_("table number"), null=True, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return self.name

    @property
    def group_name(self) -> str:
        return f"match-{self.pk}"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    letter = models.CharField(max_length=1, choices=[("A", "A"), ("B", "B")])
    token = models.CharField(max_length=64, unique=True, default=new_token)
    # sha256 of the random holder key kept in the claiming browser's session.
    holder_hash = models.CharField(max_length=64, blank=True)
    pin_hash = models.CharField(max_length=128, blank=True)
    name = models.CharField(max_length=60, blank=True)
    # The player's name in the organizer's pairings (the claimed name may differ).
    listed_name = models.CharField(max_length=60, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    # PIN tries that failed since this PIN was set (issue 22): wrong ones,
    # and those refused unchecked once SEAT_PIN_BUDGET is spent. In the
    # database, not a cache: a budget for the whole match that no eviction,
    # restart or second process resets.
    failed_pins = models.PositiveIntegerField(default=0)
    # The army list being drafted: private working notes, not match history.
    draft = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [unique("one_seat_per_letter", "match", "letter")]

    def __str__(self) -> str:
        return f"{self.match} / {self.letter}"

    @property
    def claimed(self) -> bool:
        return bool(self.holder_hash)


class EventQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionError("match events are append-only")

    def delete(self):
        raise PermissionError("match events are append-only")


class MatchEvent(models.Model):
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=60)
    # Canonical JSON text, exactly what the hash covers.
    data = models.TextField()
    private_to = models.CharField(max_length=1, blank=True)
    # "A", "B", "organizer" or "" for the tracker itself.
    actor = models.CharField(max_length=20, blank=True)
    action_id = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    hash = models.CharField(max_length=64)

    objects = EventQuerySet.as_manager()

    class Meta:
        verbose_name = _("match event")
        verbose_name_plural = _("match events")
        ordering = ["match", "seq"]
        constraints = [unique("one_event_per_seq", "match", "seq")]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise PermissionError("match events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("match events are append-only")

    def chain_hash(self, prev_hash: str) -> str:
        return row_hash(prev_hash, self)


# The columns the hash chain covers, in one place for the writer (MatchEvent)
# and the verifiers (audit.verify_rows, the export's rows).
CHAIN_COLUMNS = ("seq", "kind", "data", "private_to", "actor", "action_id", "created_at")


def row_hash(prev_hash: str, row, **instead) -> str:
    """chain_hash of a stored or exported row (anything with the CHAIN_COLUMNS
    as attributes), with the columns in `instead` in place of its own."""
    return chain_hash(prev_hash, **{c: instead.get(c, getattr(row, c)) for c in CHAIN_COLUMNS})


def chain_hash(prev_hash: str, *, seq, kind, data, private_to, actor, action_id, created_at) -> str:
    """hash = sha256(prev_hash || canonical event). The README shows the same
    computation in a few lines of standard-library Python."""
    body = canonical_json(
        {
            "seq": seq,
            "kind": kind,
            "data": data,
            "private_to": private_to,
            "actor": actor,
            "action_id": action_id,
            "created_at": created_at.astimezone(UTC).isoformat(timespec="microseconds"),
        }
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


class HandedList(models.Model):
    """An army list a player handed to the organizer of an event, once: every
    match of that player in the event starts with it as the draft. Private
    to the player (their drafts) and the organizer until locked in a match;
    the player is known by the name in the organizer's pairings."""

    event = models.ForeignKey(
        TournamentEvent, on_delete=models.CASCADE, related_name="handed_lists"
    )
    player = models.CharField(_("player"), max_length=60)
    player_key = models.CharField(max_length=60)
    rows = models.JSONField(default=list)
    handed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [unique("one_list_per_player", "event", "player_key")]
        verbose_name = _("handed army list")
        verbose_name_plural = _("handed army lists")

    def __str__(self) -> str:
        return f"{self.event} / {self.player}"

    @staticmethod
    def key(name: str) -> str:
        # As the roster's key: case and spaces only, a list handed as
        # "Íñigo Pérez" was not found for the pairing typed "Inigo Perez".
        return name_key(name)


class EventPlayer(models.Model):
    """A player on an event's roster, registered once (issue 21). `key` is
    the name folded (case, accents, spaces) so "Íñigo  Pérez" and "inigo
    perez" are one player; pairings and results find the player by it. The
    list link is private: the organizer hands it to the player, who submits
    the event's army list through it without an account."""

    event = models.ForeignKey(TournamentEvent, on_delete=models.CASCADE, related_name="roster")
    name = models.CharField(_("name"), max_length=60)
    key = models.CharField(max_length=60)
    faction = models.CharField(_("faction"), max_length=60)
    club = models.CharField(_("club"), max_length=60, blank=True)
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    # Dropped after this round: paired no more from the next one.
    dropped_after = models.PositiveSmallIntegerField(
        _("dropped after round"), null=True, blank=True
    )
    list_token = models.CharField(max_length=64, unique=True, default=new_token)
    # The organizer takes this player's list after the lock, once: their link
    # (or their match's hand-in) accepts one list while they have none.
    late_list = models.BooleanField(_("late list accepted"), default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # By the folded name: "Álvaro" among the A's, not after "Z" as the
        # bytes of "name" would put him.
        ordering = ["key", "pk"]
        verbose_name = _("event player")
        verbose_name_plural = _("event players")
        constraints = [unique("one_roster_entry_per_name", "event", "key")]

    def __str__(self) -> str:
        return f"{self.event} / {self.name}"

    @property
    def dropped(self) -> bool:
        return self.dropped_after is not None


class EventRound(models.Model):
    """A round of an event's Swiss (issue 21): drawn, swapped by the
    organizer, then published (which creates its matches), and its clock."""

    event = models.ForeignKey(TournamentEvent, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    seed = models.BigIntegerField(default=0)
    # [[player id, player id], ...] in table order, and the bye's player id.
    pairs = models.JSONField(default=list)
    bye = models.IntegerField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    # The clock: minutes allowed, seconds run before the current start,
    # when it was (re)started if running, when time was called.
    minutes = models.PositiveSmallIntegerField(_("minutes"), default=120)
    clock_elapsed = models.FloatField(default=0)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    time_called_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("event round")
        verbose_name_plural = _("event rounds")
        constraints = [unique("one_round_per_number", "event", "number")]

    def __str__(self) -> str:
        return f"{self.event} / {self.number}"


class EventReceipt(models.Model):
    """A receipt a player's phone kept (a seq of a match and the code of its
    head hash), read out to the organizer and typed on the event's audit
    (issue 21). The phones hold the receipts; this is the organizer's record
    of having checked one, checked again against the log on every audit. It
    is only as safe as this database: the phone's own copy stays the proof."""

    event = models.ForeignKey(TournamentEvent, on_delete=models.CASCADE, related_name="receipts")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="receipts")
    seq = models.PositiveIntegerField()
    code = models.CharField(max_length=80)
    checked_by = models.CharField(max_length=150, blank=True)
    checked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "seq", "pk"]
        verbose_name = _("receipt on record")
        verbose_name_plural = _("receipts on record")

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq}"

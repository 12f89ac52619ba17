"""The phones' receipts on the event's audit (issue 21).

A receipt (tracker/audit.py, receipt_code) is kept by each player's phone:
the server keeps no copy, on purpose, since a copy kept beside the log could
be rewritten with it. So the event's audit cannot check receipts it was never
given. At the end of a round the organizer asks each table for the code its
phones show and types or pastes them here; each is checked against the log
at once and kept on record (EventReceipt), and every later audit checks the
records again, so a log rewritten after its receipt was read out no longer
agrees. The record is the organizer's note; the phones' copies stay the proof.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tracker import audit
from tracker.models import EventReceipt, Match, TournamentEvent

MAX_LINES = 200
# Fields of a pasted line. Not "-" or spaces: a code is typed in groups.
_SEPARATOR = re.compile(r"[,;:\t]")


@dataclass(frozen=True)
class Typed:
    """One receipt as the organizer typed it, matched to its match."""

    match: Match
    seq: int
    code: str


def _seq(text: str) -> int | None:
    text = text.strip().lstrip("#")
    # ASCII digits: str.isdigit() also takes "²", which int() refuses.
    return int(text) if re.fullmatch(r"[0-9]{1,20}", text) and 0 < int(text) < 10**9 else None


def parse_receipts(text: str, matches: list[Match]) -> tuple[list[Typed], list[str]]:
    """Lines of `round, table, event #, code` or `match code, event #, code`.
    Every line is read; any error refuses the whole paste (nothing recorded),
    each error naming its line."""
    by_table = {(m.event_round, m.table_number): m for m in matches}
    by_code = {m.code.casefold(): m for m in matches}
    typed, errors = [], []
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) > MAX_LINES:
        return [], [gettext("At most %(count)s receipts at once.") % {"count": MAX_LINES}]
    for number, line in lines:
        parts = [part.strip() for part in _SEPARATOR.split(line)]
        where = {"line": number}
        if len(parts) == 4:
            round_, table = _seq(parts[0]), _seq(parts[1])
            match = by_table.get((round_, table))
            if match is None:
                errors.append(
                    gettext("Line %(line)s: this event has no table %(table)s in round %(round)s.")
                    % {**where, "round": parts[0], "table": parts[1]}
                )
                continue
        elif len(parts) == 3:
            match = by_code.get(parts[0].casefold())
            if match is None:
                errors.append(
                    gettext("Line %(line)s: no match of this event has the code %(code)s.")
                    % {**where, "code": parts[0]}
                )
                continue
        else:
            errors.append(
                gettext(
                    "Line %(line)s: write round, table, event number and code (or the match "
                    "code, event number and code), separated by commas."
                )
                % where
            )
            continue
        seq, code = _seq(parts[-2]), parts[-1]
        if seq is None:
            errors.append(
                gettext(
                    "Line %(line)s: the event number is the whole number the phone shows (#57)."
                )
                % where
            )
            continue
        refused = audit.receipt_refusal(code)
        if refused:
            # The reason is a sentence of its own, capital and all: after a
            # colon Spanish goes on in lowercase (organizer/refusals.py).
            errors.append(
                gettext("Line %(line)s: the code cannot be checked. %(why)s")
                % {**where, "why": refused}
            )
            continue
        typed.append(Typed(match, seq, code))
    return typed, errors


class ReceiptsForm(forms.Form):
    receipts = forms.CharField(
        label=_("Receipts read from the players' phones"),
        max_length=40_000,
        widget=forms.Textarea(attrs={"rows": 5, "placeholder": "2, 3, 57, 9F3A-…"}),
        help_text=_(
            "One receipt per line: round, table, event number and the 32-digit code the phone "
            "shows (or the match code, event number and code), separated by commas."
        ),
    )

    def __init__(self, *args, event: TournamentEvent, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_receipts(self) -> list[Typed]:
        matches = list(Match.objects.filter(event=self.event))
        typed, errors = parse_receipts(self.cleaned_data["receipts"], matches)
        if errors:
            raise forms.ValidationError(errors)
        if not typed:
            raise forms.ValidationError(_("Write at least one receipt."))
        return typed


def record(event: TournamentEvent, typed: list[Typed], organizer: str) -> list[EventReceipt]:
    """Keep the typed receipts on record; one already on record (the same
    match, event number and digits, however grouped) is kept once."""
    kept = {
        (r.match_id, r.seq, audit.receipt_digits(r.code))
        for r in EventReceipt.objects.filter(event=event)
    }
    new = []
    for t in typed:
        key = (t.match.pk, t.seq, audit.receipt_digits(t.code))
        if key not in kept:
            kept.add(key)
            new.append(
                EventReceipt(
                    event=event, match=t.match, seq=t.seq, code=t.code, checked_by=organizer
                )
            )
    return EventReceipt.objects.bulk_create(new)


def disagreeing(typed: list[Typed], rows_by_match: dict[int, list]) -> list[Typed]:
    """The typed receipts that do not match their logs now."""
    return [
        t
        for t in typed
        if not audit.check_receipt(rows_by_match.get(t.match.pk, []), t.seq, t.code).ok
    ]


@dataclass(frozen=True)
class OnRecord:
    """A receipt on record, checked against the log as it is now."""

    receipt: EventReceipt
    check: audit.ReceiptCheck

    @property
    def agrees(self) -> bool:
        return self.check.ok


def checked(event: TournamentEvent, rows_by_match: dict[int, list]) -> dict[int, list[OnRecord]]:
    """Every receipt on record for the event, by match id, each checked
    against that match's rows now."""
    found: dict[int, list[OnRecord]] = {}
    for receipt in EventReceipt.objects.filter(event=event):
        rows = rows_by_match.get(receipt.match_id, [])
        check = audit.check_receipt(rows, receipt.seq, receipt.code)
        found.setdefault(receipt.match_id, []).append(OnRecord(receipt, check))
    return found

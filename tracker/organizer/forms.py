"""Organizer forms: events, bulk pairings, and the match history filters."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tracker.folding import name_key
from tracker.forms import MatchSettingsForm
from tracker.models import Match, TournamentEvent
from tracker.organizer.pasted import pasted_cells
from tracker.rules.text import one_line

MAX_PAIRINGS = 500
MAX_TABLE = 999
MAX_NAME = 60
STANDALONE = "none"
_HEADER_WORDS = {"table", "tables", "mesa", "mesas", "#"}


def date_picker() -> forms.DateInput:
    """A browser's date picker. Its value must be ISO (YYYY-MM-DD) whatever
    the language: Spanish's localized 02/12/2026 is no date to the browser,
    which then shows the field empty (and refuses a required one)."""
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class EventForm(forms.ModelForm):
    class Meta:
        model = TournamentEvent
        fields = ["name", "date", "location"]
        widgets = {"date": date_picker()}

    def clean_name(self) -> str:
        # As a player's name is: one line, no bidirectional controls.
        name = one_line(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Write the event's name."))
        return name

    def clean_location(self) -> str:
        return one_line(self.cleaned_data["location"])

    def clean(self):
        """One event per name and date: the same form sent again (a tap
        repeated after a stalled answer, Back and send) made a second,
        empty event of the same name, and the organizer ran the night on
        one of two look-alikes in the list."""
        cleaned = super().clean()
        name, date = one_line(cleaned.get("name")), cleaned.get("date")
        if name and date:
            twin = TournamentEvent.objects.filter(name__iexact=name, date=date).first()
            if twin is not None:
                raise forms.ValidationError(
                    _(
                        "The event %(name)s on %(date)s already exists: open it from the "
                        "list below, or give this one another name."
                    )
                    % {"name": twin.name, "date": date_format(date, "DATE_FORMAT")}
                )
        return cleaned


@dataclass(frozen=True)
class Pairing:
    line: int
    table: int
    player_a: str
    player_b: str


def parse_pairings(text: str) -> tuple[list[Pairing], list[str]]:
    """Pairings pasted from a spreadsheet or typed: one table per line, the
    table number then the two players, separated by tabs, semicolons or
    commas. Returns the pairings and every problem found (line by line)."""
    pairings, errors, seen = [], [], {}
    playing: dict[str, int] = {}  # a player's name (case-folded) -> the line they play on
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        cells = pasted_cells(line)
        if not pairings and not errors and cells[0].lower() in _HEADER_WORDS:
            continue  # a header row pasted with the sheet
        if len(cells) != 3:
            errors.append(
                _("Line %(line)s: write the table number, then the two players' names.")
                % {"line": number}
            )
            continue
        table, player_a, player_b = cells
        # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
        if not re.fullmatch(r"[0-9]{1,6}", table) or not 1 <= int(table) <= MAX_TABLE:
            errors.append(
                _("Line %(line)s: the table number must be a whole number from 1 to %(max)s.")
                % {"line": number, "max": MAX_TABLE}
            )
            continue
        if not player_a or not player_b:
            errors.append(_("Line %(line)s: a player's name is missing.") % {"line": number})
            continue
        if len(player_a) > MAX_NAME or len(player_b) > MAX_NAME:
            errors.append(
                _("Line %(line)s: a player's name is too long (at most %(max)s characters).")
                % {"line": number, "max": MAX_NAME}
            )
            continue
        if int(table) in seen:
            errors.append(
                _("Line %(line)s: table %(table)s is already on line %(first)s.")
                % {"line": number, "table": int(table), "first": seen[int(table)]}
            )
            continue
        twice = _players_twice(number, player_a, player_b, playing)
        if twice:
            errors.extend(twice)
            continue
        seen[int(table)] = number
        pairings.append(Pairing(number, int(table), player_a, player_b))
    if len(pairings) > MAX_PAIRINGS:
        errors.append(_("At most %(max)s tables at once.") % {"max": MAX_PAIRINGS})
    return pairings, errors


def _players_twice(number: int, player_a: str, player_b: str, playing: dict) -> list[str]:
    """A player plays one match per round: the same name on two lines (or
    twice on one line) is refused, naming both lines. Names are compared
    as the roster compares them (folding.name_key), as an organizer typing
    "ana" and "Ana" means one person."""
    if name_key(player_a) == name_key(player_b):
        return [
            _("Line %(line)s: %(name)s cannot play against themselves.")
            % {"line": number, "name": player_a}
        ]
    errors = []
    for name in (player_a, player_b):
        first = playing.get(name_key(name))
        if first is not None:
            errors.append(
                _("Line %(line)s: %(name)s already plays on line %(first)s.")
                % {"line": number, "name": name, "first": first}
            )
    if not errors:
        playing[name_key(player_a)] = playing[name_key(player_b)] = number
    return errors


class PairingsForm(MatchSettingsForm):
    field_order = ["event_round", "points_limit", "rounds", "mission", "pairings"]

    event_round = forms.IntegerField(
        label=_("Round of the event"), min_value=1, max_value=99, required=False
    )
    pairings = forms.CharField(
        label=_("Pairings"),
        max_length=60_000,
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "1, Alice, Bob\n2, Carla, Dani"}),
        help_text=_(
            "One table per line: table number, player A, player B "
            "(separated by commas, semicolons or tabs, as pasted from a spreadsheet)."
        ),
    )

    def clean_pairings(self) -> list[Pairing]:
        pairings, errors = parse_pairings(self.cleaned_data["pairings"])
        if errors:
            raise forms.ValidationError(errors)
        if not pairings:
            raise forms.ValidationError(_("Write at least one table."))
        return pairings


class TablesTaken(Exception):
    """Pairings name tables their round of the event already has."""

    def __init__(self, tables: list[int]):
        super().__init__(tables)
        self.tables = tables

    @property
    def message(self) -> str:
        return gettext("This round of the event already has a match at table %(tables)s.") % {
            "tables": ", ".join(str(t) for t in self.tables)
        }


def tables_taken(event: TournamentEvent, event_round: int | None, pairings) -> list[int]:
    """The tables of `pairings` that round `event_round` of `event` already has."""
    return sorted(
        Match.objects.filter(
            event=event, event_round=event_round, table_number__in=[p.table for p in pairings]
        ).values_list("table_number", flat=True)
    )


class MatchFilterForm(forms.Form):
    event = forms.ChoiceField(label=_("Event"), required=False)
    player = forms.CharField(label=_("Player"), max_length=MAX_NAME, required=False)
    date_from = forms.DateField(label=_("From"), required=False, widget=date_picker())
    date_to = forms.DateField(label=_("To"), required=False, widget=date_picker())
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("Any")), *Match.Status.choices]
    )

    def __init__(self, *args, events=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = [
            ("", _("All")),
            (STANDALONE, _("No event (stand-alone matches)")),
            *[(str(pk), f"{name} ({date:%Y-%m-%d})") for pk, name, date in events],
        ]

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date is before the start date."))
        return cleaned


class SettleForm(forms.Form):
    """An organizer's ruling on a disputed result. The bounds are checked
    again by the rules (tracker.rules.results.settle), against the match's
    own points limit."""

    objective_a = forms.IntegerField(label=_("Objective points, seat A"), min_value=0, max_value=10)
    objective_b = forms.IntegerField(label=_("Objective points, seat B"), min_value=0, max_value=10)
    army_a = forms.IntegerField(label=_("Army points alive, seat A"), min_value=0, max_value=1000)
    army_b = forms.IntegerField(label=_("Army points alive, seat B"), min_value=0, max_value=1000)
    reason = forms.CharField(
        label=_("Reason (both players read it)"),
        max_length=200,
        widget=forms.TextInput(attrs={"maxlength": 200}),
    )

    def __init__(
        self,
        *args,
        names: dict[str, str] | None = None,
        points_limit: int | None = None,
        **kwargs,
    ):
        """`names`: each seat's player (exports.player_names), named beside
        the seat's letter, as the players' own result form names them: with
        "seat A" alone, one player's points went in the other's field.
        `points_limit`: the match's, the rules' bound on army points alive;
        the boxes said 1000 and the rules then refused 301 after the send."""
        super().__init__(*args, **kwargs)
        if points_limit is not None:
            # The box's bound only: past it (a forged post) the rules refuse
            # with their own words, "between 0 and N" (results.settle).
            for seat in "ab":
                self.fields[f"army_{seat}"].widget.attrs["max"] = points_limit
        for letter, name in (names or {}).items():
            if not name:
                continue
            words = {"name": name, "seat": letter}
            seat = letter.lower()
            self.fields[f"objective_{seat}"].label = (
                _("Objective points, %(name)s (seat %(seat)s)") % words
            )
            self.fields[f"army_{seat}"].label = (
                _("Army points alive, %(name)s (seat %(seat)s)") % words
            )

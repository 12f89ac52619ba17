"""Organizer forms for running an event (issue 21): the roster, the
scoring table, the lists deadline and the Swiss rounds."""

from __future__ import annotations

from datetime import UTC

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tracker.event_running import MAX_ROSTER, player_key
from tracker.models import EventPlayer, TournamentEvent
from tracker.organizer.pasted import pasted_cells
from tracker.rules.text import one_line
from tracker.tournament.scoring import DEFAULT_SCORING, scoring_table

MAX_NAME = 60
_HEADER_WORDS = {"name", "nombre", "player", "jugador"}


class PlayerForm(forms.ModelForm):
    class Meta:
        model = EventPlayer
        fields = ["name", "faction", "club"]

    def __init__(self, *args, event: TournamentEvent, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_name(self) -> str:
        name = one_line(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Write the player's name."))
        twin = self.event.roster.filter(key=player_key(name)).first()
        if twin is not None:
            raise forms.ValidationError(
                _("%(name)s is already on the roster (as %(listed)s).")
                % {"name": name, "listed": twin.name}
            )
        return name

    def clean(self):
        # As a paste is (parse_roster): the add form let a 501st player in.
        cleaned = super().clean()
        if self.event.roster.count() >= MAX_ROSTER:
            raise forms.ValidationError(
                _("At most %(max)s players in an event.") % {"max": MAX_ROSTER}
            )
        return cleaned


def parse_roster(text: str, taken: dict[str, str]) -> tuple[list[dict], list[str]]:
    """Players pasted from a spreadsheet: one per line, name, faction and
    an optional club, separated by tabs, semicolons or commas. `taken` maps
    the keys already on the roster to their names. Returns the players and
    every problem, line by line (duplicates in the paste or on the roster
    included)."""
    players, errors, seen = [], [], dict(taken)
    lines: dict[str, int] = {}  # each name of this paste: its line
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        cells = pasted_cells(line)
        if not players and not errors and cells[0].casefold() in _HEADER_WORDS:
            continue
        if len(cells) not in (2, 3) or not cells[0] or not cells[1]:
            errors.append(
                _("Line %(line)s: write the player's name, their faction and, if any, their club.")
                % {"line": number}
            )
            continue
        name, faction, club = (*cells, "")[:3]
        # Which cell: "a name is too long" for a long club sent organizers
        # looking at the player's name.
        too_long = [
            message
            for cell, message in (
                (name, _("Line %(line)s: the name is too long (at most %(max)s characters).")),
                (
                    faction,
                    _("Line %(line)s: the faction is too long (at most %(max)s characters)."),
                ),
                (club, _("Line %(line)s: the club is too long (at most %(max)s characters).")),
            )
            if len(cell) > MAX_NAME
        ]
        if too_long:
            errors.append(too_long[0] % {"line": number, "max": MAX_NAME})
            continue
        key = player_key(name)
        if key in lines:
            errors.append(
                _("Line %(line)s: %(name)s repeats line %(first)s (%(listed)s).")
                % {"line": number, "name": name, "first": lines[key], "listed": seen[key]}
            )
            continue
        if key in seen:
            errors.append(
                _("Line %(line)s: %(name)s is already on the roster (as %(listed)s).")
                % {"line": number, "name": name, "listed": seen[key]}
            )
            continue
        seen[key], lines[key] = name, number
        players.append({"name": name, "faction": faction, "club": club, "key": key})
    if len(seen) > MAX_ROSTER:
        errors.append(_("At most %(max)s players in an event.") % {"max": MAX_ROSTER})
    return players, errors


class RosterPasteForm(forms.Form):
    players = forms.CharField(
        label=_("Players"),
        max_length=60_000,
        widget=forms.Textarea(
            attrs={"rows": 8, "placeholder": "Ana Pérez, PanOceania, Club Norte"}
        ),
        help_text=_(
            "One player per line: name, faction and, if any, club "
            "(separated by commas, semicolons or tabs)."
        ),
    )

    def __init__(self, *args, event: TournamentEvent, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_players(self) -> list[dict]:
        taken = dict(self.event.roster.values_list("key", "name"))
        players, errors = parse_roster(self.cleaned_data["players"], taken)
        if errors:
            raise forms.ValidationError(errors)
        if not players:
            raise forms.ValidationError(_("Write at least one player."))
        return players


SCORING_LABELS = {
    "win": _("Tournament Points for a win"),
    "draw": _("Tournament Points for a draw"),
    "loss": _("Tournament Points for a loss"),
    "offensive_bonus": _("Offensive bonus (Tournament Points)"),
    "offensive_at": _("Offensive bonus from this many Objective Points"),
    "defensive_bonus": _("Defensive bonus (Tournament Points)"),
    "defensive_within": _("Defensive bonus when losing by at most this many Objective Points"),
    "bye_tp": _("Tournament Points for a bye"),
    "bye_op": _("Objective Points for a bye"),
    "bye_vp": _("Victory Points for a bye"),
}


class ScoringForm(forms.Form):
    """The event's scoring table; every field starts at the event's value
    (the default of tracker/tournament/scoring.py until changed)."""

    def __init__(self, *args, event: TournamentEvent, shown_mark: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # The table the values were typed on (the page's hidden "shown"): an
        # invalid form shown again keeps it, so that its next save is still
        # checked against the table it was typed on, not the table of now.
        self.shown_mark = shown_mark if shown_mark is not None else self.data.get("shown")
        current = scoring_table(event.scoring)
        for key in DEFAULT_SCORING:
            high = 1000 if key.endswith("vp") else 20
            self.fields[key] = forms.IntegerField(
                label=SCORING_LABELS[key], min_value=0, max_value=high, initial=current[key]
            )


class ListsDeadlineForm(forms.Form):
    deadline = forms.DateTimeField(
        label=_("Army lists lock at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )

    def clean_deadline(self):
        # A date slip (yesterday for tomorrow) locked every list at once,
        # with none of the question "Lock the lists now" asks first, and
        # the page offers no unlock.
        deadline = self.cleaned_data["deadline"]
        try:
            # The last minute of year 9999 west of UTC is past the last day
            # UTC has: saving it was a 500 with its traceback.
            deadline.astimezone(UTC)
        except OverflowError:
            raise forms.ValidationError(
                self.fields["deadline"].error_messages["invalid"], code="invalid"
            ) from None
        if deadline <= timezone.now():
            raise forms.ValidationError(
                _(
                    "That time has already passed: every list would lock at once. "
                    "Choose a time to come, or use “Lock the lists now”."
                )
            )
        return deadline


class DrawRoundForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed of the draw (round 1; empty: a new random one)"),
        min_value=0,
        max_value=2**31 - 1,
        required=False,
    )


class SwapForm(forms.Form):
    """Two players of the drawn round trade places (either may be the bye)."""

    one = forms.TypedChoiceField(label=_("Player"), coerce=int)
    two = forms.TypedChoiceField(label=_("trades places with"), coerce=int)

    def __init__(self, *args, choices: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["one"].choices = choices
        self.fields["two"].choices = choices

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("one") is not None and cleaned.get("one") == cleaned.get("two"):
            raise forms.ValidationError(_("Pick two different players."))
        return cleaned


class PublishRoundForm(forms.Form):
    """The match settings of the round's matches (as the pairings form's)."""

    points_limit = forms.IntegerField(
        label=_("Points limit"), min_value=50, max_value=1000, initial=300
    )
    rounds = forms.IntegerField(label=_("Game Rounds"), min_value=1, max_value=6, initial=3)
    mission = forms.CharField(label=_("Mission"), max_length=80, required=False)
    minutes = forms.IntegerField(
        label=_("Minutes on the round's clock"), min_value=10, max_value=600, initial=120
    )


class ListSubmitForm(forms.Form):
    text = forms.CharField(
        label=_("Your army list, as the army builder exports it"),
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 14}),
    )

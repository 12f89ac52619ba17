"""From a POST to a rules Command, or a clear refusal.

Most commands are built field by field from their dataclass annotations. The
few whose data the server must choose (secret ids, nonces) or keep (the army
list draft) have a builder of their own in BUILDERS.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import secrets
import types
import typing
from collections.abc import Callable
from dataclasses import fields

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tracker import rules
from tracker.form_errors import PlayerForm
from tracker.models import Match, Seat
from tracker.rules.classified import DEFAULT_DECK, DEFAULT_DRAWN, DEFAULT_KEPT, clean_config
from tracker.rules.i18n import _ as mark
from tracker.rules.state import (
    HD_POSITION,
    HOLOECHO,
    HOLOMASK_TYPE,
    TRAITS,
    MatchSettings,
)
from tracker.rules.text import BIDI_CONTROLS, one_line
from tracker.templatetags.tracker_tags import draft_digest, marker_names

MAX_FIELD = 2000


def new_id() -> str:
    return secrets.token_hex(6)


def new_nonce() -> str:
    return secrets.token_hex(16)


def _coerce(name: str, hint, post) -> object:
    origin = typing.get_origin(hint)
    if hint is list or origin is list:
        return [str(v)[:MAX_FIELD] for v in post.getlist(name)][:50]
    if origin in (typing.Union, types.UnionType):
        options = [h for h in typing.get_args(hint) if h is not type(None)]
        if post.get(name) in (None, ""):
            return None
        return _coerce(name, options[0], post)
    raw = post.get(name)
    if hint is bool:
        return raw in ("1", "true", "on", "yes")
    if raw is None:
        raise rules.InvalidInput(mark("Some information is missing; reload the page."))
    if hint is int:
        try:
            return int(raw)
        except ValueError:
            if name not in NUMBER_BOXES:  # a hidden or chosen value: no box to correct
                raise rules.InvalidInput(
                    mark("Some information is missing; reload the page.")
                ) from None
            raise rules.InvalidInput(
                mark("%(field)s must be a whole number."), field=NUMBER_BOXES[name]
            ) from None
    return str(raw)[:MAX_FIELD]


# The number boxes a player types into, by what their labels say (result.html,
# without the player's name the label adds): a refusal named the box by its
# field name ("objective_a must be a whole number.") when a browser without
# the required check sent one empty.
NUMBER_BOXES = {
    "objective_a": mark("Objective points"),
    "objective_b": mark("Objective points"),
    "army_a": mark("Army points alive"),
    "army_b": mark("Army points alive"),
}


def _has_default(field: dataclasses.Field) -> bool:
    return (
        field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
    )


@functools.cache
def _hints(command_type: type[rules.Command]) -> dict:
    """A command class's field types, read once per class: get_type_hints
    evaluates every annotation's text again on each call (the rules write
    them as strings), a sixtieth of a served tap (issue 18)."""
    return typing.get_type_hints(command_type)


def generic_command(command_type: type[rules.Command], post) -> rules.Command:
    """A command from the POST. A field the page did not send takes the
    command's own default, so "the form does not render it" and "it has a
    default" can never disagree (issue 8: the ARO form renders no
    target_element against a trooper without Holoechoes). Only a field with
    no default is missing information. An unticked checkbox is not sent: a
    bool the page did not send is False (every command's bools default to
    False; tests/web/test_forms_and_commands.py holds them to it)."""
    hints = _hints(command_type)
    values = {}
    for field in fields(command_type):
        if not field.init:
            continue
        hint = hints[field.name]
        if field.name not in post and _has_default(field) and hint is not bool:
            continue
        values[field.name] = _coerce(field.name, hint, post)
    return command_type(**values)


def _lock_list(post, match: Match, seat: Seat) -> rules.Command:
    from tracker.rules.setup import LockArmyList

    seen = post.get("draft_seen")
    if seen is not None and seen != draft_digest(seat.draft):
        raise rules.NotAllowed(
            mark(
                "Your list changed on another screen since this page showed it: "
                "check it below and lock it again."
            )
        )
    return LockArmyList(troopers=list(seat.draft))


def _seal_deployment(post, match: Match, seat: Seat) -> rules.Command:
    """Secrets from the deployment form; ids and nonces chosen here, never by
    the phone, so a weak or repeated nonce cannot be smuggled in."""
    from tracker.rules.sealing import SECRET_KINDS, SealDeployment

    def sealed(kind: str, **raw) -> dict:
        return {"id": new_id(), "nonce": new_nonce(), "kind": kind, **raw}

    # One select per trooper-choice kind (seal.html), named by its kind.
    chosen = [
        sealed(kind.kind, trooper_id=post.get(kind.kind, ""))
        for kind in SECRET_KINDS.values()
        if kind.trooper_choice and (kind.required or post.get(kind.kind))
    ]
    for key in post:
        if key.startswith("hd_position_"):
            trooper_id = key.removeprefix("hd_position_")
            chosen.append(
                sealed(
                    HD_POSITION,
                    trooper_id=trooper_id,
                    position=post.get(key, ""),
                    x=post.get(f"hd_x_{trooper_id}") or None,
                    y=post.get(f"hd_y_{trooper_id}") or None,
                )
            )
        elif key.startswith("holoecho_"):
            trooper_id = key.removeprefix("holoecho_")
            positions = {
                element: post.get(f"he_pos_{element}_{trooper_id}", "")
                for element in ("model", "marker1", "marker2")
            }
            chosen.append(
                sealed(HOLOECHO, trooper_id=trooper_id, real=post.get(key), positions=positions)
            )
    for key in post:
        if key.startswith("holomask_") and not key.startswith("holomask_cost_"):
            # HoloMask (HE-9): the troop type shown to the opponent, and its points.
            trooper_id = key.removeprefix("holomask_")
            chosen.append(
                sealed(
                    HOLOMASK_TYPE,
                    trooper_id=trooper_id,
                    masked_as=post.get(key, ""),
                    masked_cost=post.get(f"holomask_cost_{trooper_id}", ""),
                )
            )
    return SealDeployment(secrets=chosen)


def _seal_note(post, match: Match, seat: Seat) -> rules.Command:
    from tracker.rules.sealing import SealNote

    return SealNote(
        secret_id=new_id(),
        nonce=new_nonce(),
        label=str(post.get("label", ""))[:MAX_FIELD],
        text=str(post.get("text", ""))[:MAX_FIELD],
    )


def _activate_holoecho(post, match: Match, seat: Seat) -> rules.Command:
    """HE-A2/HE-A3 seal a new real-Holoecho choice: id and nonce chosen here."""
    from tracker.rules.holoecho import ActivateHoloecho

    return ActivateHoloecho(
        trooper_id=str(post.get("trooper_id", ""))[:MAX_FIELD],
        real=str(post.get("real", ""))[:MAX_FIELD],
        secret_id=new_id(),
        nonce=new_nonce(),
    )


def _draw_classified(post, match: Match, seat: Seat) -> rules.Command:
    """CL-2: the seed is server randomness chosen now; nothing in the post
    (a forged "seed" field included) is read."""
    from tracker.rules.classified import DrawClassified

    return DrawClassified(seed=secrets.token_hex(32), secret_id=new_id(), nonce=new_nonce())


def _keep_classified(post, match: Match, seat: Seat) -> rules.Command:
    from tracker.rules.classified import MAX_DRAWN, KeepClassified

    cards = [str(v)[:4] for v in post.getlist("keep")][:MAX_DRAWN]
    return KeepClassified(
        cards=cards,
        secret_ids=[new_id() for _ in cards],
        nonces=[new_nonce() for _ in cards],
    )


def _exchange_classified(post, match: Match, seat: Seat) -> rules.Command:
    from tracker.rules.classified import ExchangeClassified

    return ExchangeClassified(
        secret_id=str(post.get("secret_id", ""))[:MAX_FIELD],
        seed=secrets.token_hex(32),
        new_secret_id=new_id(),
        nonce=new_nonce(),
    )


Builder = Callable[[typing.Any, Match, Seat], rules.Command]
BUILDERS: dict[str, Builder] = {
    "LockArmyList": _lock_list,
    "SealDeployment": _seal_deployment,
    "SealNote": _seal_note,
    "ActivateHoloecho": _activate_holoecho,
    "DrawClassified": _draw_classified,
    "KeepClassified": _keep_classified,
    "ExchangeClassified": _exchange_classified,
}
# Commands only the web layer issues itself (seat moves follow a PIN check).
INTERNAL = {"MoveSeat", "ClaimSeat"}


# What no player types and every post is cleaned of: U+0000, which
# PostgreSQL refuses in text and jsonb columns (a dispute reason with one
# was a 500 there, Match.result being jsonb; Django's own form fields refuse
# it too), and the bidirectional controls (rules/text.py), which turn round
# what the opponent's phone shows after them (a note's label, a reason).
_UNTYPED = frozenset({"\x00"}) | BIDI_CONTROLS
_DROP_UNTYPED = dict.fromkeys(map(ord, _UNTYPED))


def _without_untyped(post):
    """The post without those characters in any key or value. Dropped here,
    every command (builders included) is clean."""
    if all(
        _UNTYPED.isdisjoint(key) and all(map(_UNTYPED.isdisjoint, values))
        for key, values in post.lists()
    ):
        return post
    clean = QueryDict(mutable=True)
    for key, values in post.lists():
        clean.setlist(key.translate(_DROP_UNTYPED), [v.translate(_DROP_UNTYPED) for v in values])
    return clean


def build_command(name: str, post, match: Match, seat: Seat) -> rules.Command:
    command_type = rules.COMMAND_TYPES.get(name)
    if command_type is None or name in INTERNAL:
        raise rules.InvalidInput(mark("Unknown action."))
    post = _without_untyped(post)
    if name in BUILDERS:
        return BUILDERS[name](post, match, seat)
    return generic_command(command_type, post)


# ------------------------------------------------------------ Django forms


class ClassifiedSettingsForm(PlayerForm):
    """CL-1, for the match creator and for the organizer's rounds. Absent
    fields (an old form, a script) mean no Classified Objectives; `clean`
    leaves one `classified` entry: the settings, or None."""

    classified_drawn = forms.IntegerField(
        label=_("Classified Objectives drawn (0: none)"),
        min_value=0,
        max_value=10,
        initial=DEFAULT_DRAWN,
        required=False,
    )
    classified_kept = forms.IntegerField(
        label=_("Classified Objectives kept"),
        min_value=0,
        max_value=10,
        initial=DEFAULT_KEPT,
        required=False,
    )
    classified_exchanges = forms.IntegerField(
        label=_("Exchanges allowed"), min_value=0, max_value=10, initial=0, required=False
    )
    classified_points = forms.IntegerField(
        label=_("Objective points per Classified accomplished"),
        min_value=0,
        max_value=10,
        initial=1,
        required=False,
    )
    classified_deck = forms.CharField(
        label=_("Classified deck (one card per line)"),
        max_length=4000,
        required=False,
        initial=lambda: "\n".join(gettext(card) for card in DEFAULT_DECK),
        widget=forms.Textarea(attrs={"rows": 6}),
    )

    def clean(self):
        cleaned = super().clean()
        values = [cleaned.pop(f"classified_{key}", None) for key in CLASSIFIED_KEYS]
        if self.errors:
            return cleaned
        values[4] = default_cards_by_name(values[4] or "")
        try:
            cleaned["classified"] = (
                clean_config(*[v or 0 for v in values[:4]], values[4] or "") if values[0] else None
            )
        except rules.RuleViolation as error:
            message = gettext(error.message)
            raise forms.ValidationError(
                message % marker_names(error.params) if error.params else message
            ) from None
        return cleaned


CLASSIFIED_KEYS = ("drawn", "kept", "exchanges", "points", "deck")


def default_cards_by_name(deck: str) -> str:
    """The deck as written, each default card named in the reader's language
    (as the field offered it) put back to its identity: the default deck's
    names are the cards (rules.classified.DEFAULT_DECK), and a Spanish phone
    that kept the offered deck must draw the same cards as an English one,
    each shown later in its reader's language (tracker_tags.card_name)."""
    cards = {gettext(card): card for card in DEFAULT_DECK}
    return "\n".join(cards.get(" ".join(line.split()), line) for line in deck.splitlines())


class MatchSettingsForm(ClassifiedSettingsForm):
    """The match settings, one field set for the home page's new match and the
    organizer's pairings (#20); `match_settings` makes the value the creation
    events carry (setup.MatchSettings)."""

    points_limit = forms.IntegerField(
        label=_("Points limit"), min_value=50, max_value=1000, initial=300
    )
    rounds = forms.IntegerField(label=_("Game Rounds"), min_value=1, max_value=6, initial=3)
    mission = forms.CharField(label=_("Mission"), max_length=80, required=False)

    def match_settings(self) -> MatchSettings:
        # Every field named like a setting is one: nothing listed again here.
        return MatchSettings.from_data(self.cleaned_data)


class CreateMatchForm(MatchSettingsForm):
    name = forms.CharField(label=_("Match name"), max_length=80)
    table = forms.CharField(label=_("Table"), max_length=40, required=False)
    # New with every page: the same form sent twice creates one match
    # (Match.created_by_form).
    form_token = forms.CharField(
        widget=forms.HiddenInput,
        max_length=32,
        required=False,
        initial=lambda: secrets.token_hex(16),
    )
    field_order = ["name", "points_limit", "rounds", "mission", "table"]

    def clean_table(self) -> str:
        """The table's name or number, without the word the page puts before
        it: "Mesa 3" typed in the box read "Mesa Mesa 3"."""
        table = self.cleaned_data["table"]
        return _TABLE_WORD.sub("", table) or table


# "Table", "Mesa", "Table nº", "Mesa #", "table:" before a table's number.
_TABLE_WORD = re.compile(r"^\s*(?:table|mesa)\b\s*(?:n[º°o]\.?|#|:)?\s*", re.IGNORECASE)


PIN_PATTERN = r"^\d{6,8}$"


def random_pin() -> str:
    """Six digits drawn by the server (issue 22): the claim form offers one,
    so the PIN an opponent must guess is uniform among a million unless its
    player types another."""
    while True:
        pin = f"{secrets.randbelow(10**6):06d}"
        if not easy_pin(pin):
            return pin


def easy_pin(pin: str) -> bool:
    """The PINs guessed first: one digit repeated (000000), a run up or down
    (123456, 987654), a block repeated (121212, 123123, 12341234)."""
    steps = {int(b) - int(a) for a, b in zip(pin, pin[1:], strict=False)}
    if len(steps) == 1 and steps <= {-1, 0, 1}:
        return True
    return any(
        len(pin) % size == 0 and pin == pin[:size] * (len(pin) // size) for size in (1, 2, 3, 4)
    )


class ClaimSeatForm(PlayerForm):
    name = forms.CharField(label=_("Your name"), max_length=60)
    pin = forms.RegexField(
        label=_("PIN (6 to 8 digits)"),
        regex=PIN_PATTERN,
        error_messages={"invalid": _("The PIN is 6 to 8 digits.")},
        help_text=_(
            "Chosen at random for you: note it down, or type 6 to 8 digits of your own "
            "that your opponent cannot guess."
        ),
        # Shown, not masked: the player must read it to note it down.
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": "8"}
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pin"].initial = random_pin()

    def clean_pin(self) -> str:
        pin = self.cleaned_data["pin"]
        if easy_pin(pin):
            raise forms.ValidationError(
                gettext("That PIN is too easy to guess (a repeated digit, a run or a pattern).")
            )
        return pin

    def clean_name(self) -> str:
        # Kept as the match shows it (rules/text.py): the seat's row names
        # the player on the organizer's pages and in the exports.
        name = one_line(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Write your name."))
        return name


class MoveSeatForm(PlayerForm):
    # Up to 8 digits: PINs set before issue 22 may have 4 or 5.
    pin = forms.CharField(
        label=_("PIN"),
        max_length=8,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


class TrooperForm(forms.Form):
    """One row of the army list draft."""

    # row_ids.py's 8 hex digits; 12 from a page loaded before they were cut.
    row_id = forms.RegexField(regex=r"^[a-f0-9]{8}([a-f0-9]{4})?$", widget=forms.HiddenInput)
    name = forms.CharField(label=_("Trooper"), max_length=60)
    cost = forms.IntegerField(label=_("Points"), min_value=0, max_value=200)
    combat_group = forms.IntegerField(label=_("Group"), min_value=1, max_value=5, initial=1)
    silhouette = forms.IntegerField(label=_("S"), min_value=1, max_value=8, initial=2)
    traits = forms.MultipleChoiceField(
        label=_("Traits"),
        required=False,
        choices=[(t, t) for t in TRAITS],
        widget=forms.CheckboxSelectMultiple,
    )

"""Army lists in a minute: paste the builder's text into the draft, fix per
row what the text does not carry, and (at events) hand the list to the
organizer once. Drafts stay on the seat, outside the match log, private to
the player (and to the organizer for a handed list) until locked."""

from __future__ import annotations

from django import forms
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tracker import army_text, handed_lists, rules, seats
from tracker.errors import not_a_player
from tracker.list_suggestions import suggestions
from tracker.models import Match, Seat
from tracker.row_ids import row_id
from tracker.rules.state import LIEUTENANT_CANDIDATE, TRAITS
from tracker.templatetags.tracker_tags import draft_digest
from tracker.views import _draft_open, _match, _respond, late_refusal, rule_message


def problem_text(problem: army_text.Problem) -> str:
    reason = _(problem.reason) % problem.params if problem.params else _(problem.reason)
    if not problem.line:
        return reason
    # The reason is a sentence of its own: after a colon Spanish goes on in
    # lowercase, and the reason begins with a capital (organizer/refusals.py).
    return _("Line %(line)s, “%(text)s”, left out. %(reason)s") % {
        "line": problem.line,
        "text": problem.text[:80],
        "reason": reason,
    }


def _row_id(seat: Seat, text: str, index: int) -> str:
    """Derived, not random: the same paste gives the same rows (a retried
    import changes nothing), and no two seats share an id."""
    return row_id(seat.token, str(index), text)


def draft_rows(seat: Seat, text: str, parsed: army_text.ParsedList) -> list[dict]:
    suggested = suggestions(row.name for row in parsed.rows)
    rows = []
    for index, row in enumerate(parsed.rows):
        hint = suggested.get(row.name.casefold())
        traits = set(row.traits)
        if hint:
            traits |= set(hint["traits"])
        rows.append(
            {
                "id": _row_id(seat, text, index),
                "name": row.name,
                "cost": row.cost,
                "combat_group": row.combat_group,
                "silhouette": hint["silhouette"] if hint else 2,
                "traits": sorted(traits),
                # Shown beside the row until the player saves it themselves.
                "suggested": bool(hint),
                "options": list(row.options)[:8],
            }
        )
    return rows


def _player(request, match: Match) -> str | None:
    return seats.seat_of(request.session, match)


@require_POST
def draft_import(request, code: str):
    """Fill the draft with every trooper line of the builder's pasted text and
    list the lines left out with why; import nothing only when no trooper
    line reads."""
    match = _match(code)
    letter = _player(request, match)
    if letter is None:
        return not_a_player(request)
    # A browser sends the box's line breaks as CR LF, but counts each as one
    # character against its maxlength (MAX_TEXT): a paste that fit the box
    # was refused as too long. Counted here as the box counts them.
    text = str(request.POST.get("text", "")).replace("\x00", "")
    text = text.replace("\r\n", "\n")[: army_text.MAX_TEXT + 1]
    if (late := late_refusal(request, match, letter)) is not None:
        return late
    parsed = army_text.parse(text)
    if not parsed.ok:
        problems = [problem_text(p) for p in parsed.skipped]
        return _respond(
            request,
            match,
            letter,
            _("Nothing was imported: fix the lines below and import again."),
            extra={"import_text": text, "import_problems": problems},
        )
    with transaction.atomic():
        seat = Seat.objects.select_for_update().get(match=match, letter=letter)
        if not _draft_open(match, letter):
            return _respond(request, match, letter, _("Your army list is locked."))
        # A tab rendered before troopers were added on another asked no
        # "Replace the troopers…?" (its draft was empty, or other rows):
        # the import would replace what it never showed. Refused, the
        # pasted text kept, the list as it is shown (the next import asks).
        seen = request.POST.get("draft_seen")
        if seen is not None and seat.draft and seen != draft_digest(seat.draft):
            return _respond(
                request,
                match,
                letter,
                _(
                    "Your list changed on another screen since this page showed it: "
                    "check it below, then import the pasted list again to replace it."
                ),
                extra={"import_text": text},
            )
        seat.draft = draft_rows(seat, text, parsed)
        seat.save(update_fields=["draft"])
    notice = ngettext(
        "Imported %(count)s trooper (%(points)s points).",
        "Imported %(count)s troopers (%(points)s points).",
        len(parsed.rows),
    ) % {"count": len(parsed.rows), "points": parsed.points}
    if parsed.points > match.points_limit:
        notice += " " + _(
            "That is over the %(limit)s points limit: remove troopers before locking."
        ) % {"limit": match.points_limit}
    if not any(LIEUTENANT_CANDIDATE in row.traits for row in parsed.rows):
        notice += " " + _("No trooper has the Lieutenant option.")
    skipped = [problem_text(p) for p in parsed.skipped]
    return _respond(
        request, match, letter, extra={"import_notice": notice, "import_skipped": skipped}
    )


class DraftRowForm(forms.Form):
    """What the builder's text does not carry, picked per row."""

    trooper_id = forms.CharField(max_length=32)
    combat_group = forms.IntegerField(min_value=1, max_value=5)
    silhouette = forms.IntegerField(min_value=1, max_value=8)
    traits = forms.MultipleChoiceField(choices=[(t, t) for t in TRAITS], required=False)


@require_POST
def draft_edit(request, code: str):
    match = _match(code)
    letter = _player(request, match)
    if letter is None:
        return not_a_player(request)
    form = DraftRowForm(request.POST)
    if (late := late_refusal(request, match, letter)) is not None:
        return late
    if not form.is_valid():
        return _respond(
            request, match, letter, _("Check the row: group 1 to 5, silhouette 1 to 8.")
        )
    data = form.cleaned_data
    with transaction.atomic():
        seat = Seat.objects.select_for_update().get(match=match, letter=letter)
        if not _draft_open(match, letter):
            return _respond(request, match, letter, _("Your army list is locked."))
        rows = []
        for row in seat.draft:
            if row.get("id") == data["trooper_id"]:
                row = {
                    **row,
                    "combat_group": data["combat_group"],
                    "silhouette": data["silhouette"],
                    "traits": sorted(set(data["traits"])),
                    "suggested": False,
                }
            rows.append(row)
        seat.draft = rows
        seat.save(update_fields=["draft"])
    return _respond(request, match, letter)


@require_POST
def draft_hand(request, code: str):
    """Hand this draft to the organizer of the match's event, once."""
    match = _match(code)
    letter = _player(request, match)
    if letter is None:
        return not_a_player(request)
    seat = Seat.objects.select_related("match").get(match=match, letter=letter)
    if (late := late_refusal(request, match, letter)) is not None:
        return late
    try:
        handed_lists.hand_in(seat, request.session)
    except rules.RuleViolation as error:
        return _respond(request, match, letter, rule_message(error))
    return _respond(
        request,
        match,
        letter,
        extra={
            "import_notice": _(
                "Your list is with the organizer: every round of this event starts with it."
            )
        },
    )

"""Public pages of an event (issue 21): the standings and the published
pairings for anyone (no secret: no list, no seat link, no PIN), and each
player's private list link, through which a player without an account
submits the event's army list until the lists lock."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from tracker import army_text, event_running, handed_lists
from tracker.errors import event_or_404
from tracker.handed_lists import ROW_KEYS
from tracker.list_suggestions import suggestions
from tracker.list_views import problem_text
from tracker.models import EventPlayer, HandedList
from tracker.organizer.event_forms import ListSubmitForm
from tracker.rules.state import LIEUTENANT_CANDIDATE


@require_GET
def event_page(request, pk: int):
    event = event_or_404(pk)
    names = {p.pk: p for p in event.roster.all()}
    rounds = []
    for r in event.rounds.filter(published_at__isnull=False):
        rounds.append(
            {
                "number": r.number,
                "pairs": [
                    {"table": n, "a": names[a].name, "b": names[b].name}
                    for n, (a, b) in enumerate(r.pairs, start=1)
                ],
                "bye": names[r.bye].name if r.bye in names else None,
            }
        )
    return render(
        request,
        "tracker/event_public.html",
        {
            "event": event,
            "standings": event_running.standings(event),
            "players": names,
            "rounds": rounds,
        },
    )


def list_rows(parsed: army_text.ParsedList) -> list[dict]:
    """The handed list's rows (tracker/handed_lists.py ROW_KEYS), with the
    silhouette and traits this server's earlier lists suggest."""
    suggested = suggestions(row.name for row in parsed.rows)
    rows = []
    for row in parsed.rows:
        hint = suggested.get(row.name.casefold())
        traits = set(row.traits) | set(hint["traits"] if hint else ())
        values = {
            "name": row.name,
            "cost": row.cost,
            "combat_group": row.combat_group,
            "silhouette": hint["silhouette"] if hint else 2,
            "traits": sorted(traits),
        }
        rows.append({key: values[key] for key in ROW_KEYS})
    return rows


@require_http_methods(["GET", "POST"])
def list_submit(request, token: str):
    player = get_object_or_404(EventPlayer.objects.select_related("event"), list_token=token)
    event = player.event
    # This browser is the player's: a seat of theirs it holds (or claims
    # later) is given their handed list (tracker/handed_lists.py).
    handed_lists.prove_player(request.session, event.pk, HandedList.key(player.name))
    if handed_lists.fill_held_seats(request.session, event.pk, HandedList.key(player.name)):
        event_running.redraw_matches_of(event.pk, player.name)
    locked = not event_running.list_open_for(player)
    handed = event_running.handed_list(player)
    form = ListSubmitForm(request.POST or None)
    problems, status = [], 200
    if request.method == "POST":
        if locked:
            # The page says the lists are locked (list_submit.html): a
            # message as well said it twice.
            status = 400
        elif form.is_valid():
            parsed = army_text.parse(form.cleaned_data["text"].replace("\x00", ""))
            taken = False
            if parsed.ok:
                try:
                    event_running.submit_list(player, list_rows(parsed), request.session)
                    taken = True
                except event_running.ListsLocked:
                    # Locked meanwhile, or its one late list taken by another
                    # send: the page says so, the text typed kept.
                    locked, handed = True, event_running.handed_list(player)
                    status = 400
            if taken:
                notice = ngettext(
                    "Your list is in: %(count)s trooper (%(points)s points).",
                    "Your list is in: %(count)s troopers (%(points)s points).",
                    len(parsed.rows),
                ) % {"count": len(parsed.rows), "points": parsed.points}
                if not any(LIEUTENANT_CANDIDATE in row.traits for row in parsed.rows):
                    notice += " " + _("No trooper has the Lieutenant option.")
                messages.success(request, notice)
                for line in parsed.skipped:
                    messages.info(request, problem_text(line))  # it says "left out"
                return redirect("event-list-submit", token=token)
            if not parsed.ok:
                problems = [problem_text(p) for p in parsed.skipped] or [
                    _("No trooper could be read in the pasted text.")
                ]
                status = 400
        else:
            status = 400
    return render(
        request,
        "tracker/list_submit.html",
        {
            "player": player,
            "event": event,
            "locked": locked,
            # Open after the lock: the organizer took this player's late list.
            "late": not locked and event_running.lists_locked(event),
            "handed": handed,
            "form": form,
            "problems": problems,
            # Sent once the lists had locked (they locked while it was being
            # pasted): shown back to copy, not dropped with the form.
            "not_taken": form.data.get("text", "").strip() if locked else "",
        },
        status=status,
    )

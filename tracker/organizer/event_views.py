"""Running an event (issue 21), organizer side: one page per event with the
roster, the army lists, the scoring table, the Swiss rounds and their
clocks, and the standings (its audit is event_audit_views.py). Thin: forms
and calls into tracker/event_running.py (rows) and tracker/tournament/
(pure pairing and scoring). Publishing a round goes through the same code
path as pasted pairings (views.create_pairings)."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tracker import event_running, links
from tracker.errors import event_or_404
from tracker.event_clock import announce_clock
from tracker.models import EventPlayer, EventRound, HandedList, Match, TournamentEvent
from tracker.organizer.access import organizer_required
from tracker.organizer.event_forms import (
    SCORING_LABELS,
    DrawRoundForm,
    ListsDeadlineForm,
    PlayerForm,
    PublishRoundForm,
    RosterPasteForm,
    ScoringForm,
    SwapForm,
)
from tracker.organizer.refusals import refusals_on_top
from tracker.organizer.views import create_pairings, event_matches, lock_event, whole_number
from tracker.rules.results import CONFIRMED, SETTLED
from tracker.tournament.scoring import DEFAULT_SCORING, scoring_table

CLOCK_ACTIONS = ("start", "pause", "call")


def _event(pk: int) -> TournamentEvent:
    return event_or_404(pk)


def _pending(event: TournamentEvent) -> EventRound | None:
    return event.rounds.filter(published_at__isnull=True).first()


def _swap_choices(event_round: EventRound, names: dict[int, str]) -> list[tuple[int, str]]:
    ids = [p for pair in event_round.pairs for p in pair]
    if event_round.bye is not None:
        ids.append(event_round.bye)
    return [(pid, names[pid]) for pid in ids]


def _drawn(event, pending: EventRound | None, names: dict[int, str]) -> dict:
    """The drawn round's tables and bye, each marked if the round repeats
    what an earlier one did (a swap can make a rematch or a second bye;
    the draw never does)."""
    if pending is None:
        return {"pending_pairs": [], "pending_bye": None, "pending_bye_again": False}
    met, byes = event_running.played_before(event, pending.number)
    pairs = [
        {"table": n, "a": names[a], "b": names[b], "rematch": frozenset((a, b)) in met}
        for n, (a, b) in enumerate(pending.pairs, start=1)
    ]
    bye = pending.bye
    return {
        "pending_pairs": pairs,
        "pending_bye": names.get(bye) if bye else None,
        "pending_bye_again": bool(bye) and bye in byes,
    }


def _round_item(event_round, names: dict, now, tables: list[Match]) -> dict:
    """A published round on the run page, with its clock as the phones show
    it: minutes and seconds, counted down in the browser by app.js while it
    runs (data-ends-at), and "time is called" at zero; and its tables, each
    with its players, its result and a link to its audit."""
    left = event_running.clock_left(event_round, now)
    return {
        "round": event_round,
        "state": event_running.clock_state(event_round, now),
        "left": left,
        "minutes": left // 60,
        "seconds": f"{left % 60:02d}",
        "ends_at": event_running.clock_ends_at(event_round, now),
        "bye": names.get(event_round.bye),
        "tables": tables,
    }


def _live(event: TournamentEvent, names: dict, now) -> dict:
    """What the run page shows that changes from other devices: the
    published rounds' clocks, their tables' results and the standings
    (event_run_live). The tables are the event page's (event_matches): the
    players' names and results, nothing sealed."""
    published = event.rounds.filter(published_at__isnull=False)
    tables: dict[int, list[Match]] = {}
    for match in event_matches(event):
        tables.setdefault(match.event_round, []).append(match)
    return {
        "rounds": [_round_item(r, names, now, tables.get(r.number, [])) for r in published],
        "standings": event_running.standings(event),
    }


def _list_states(event: TournamentEvent, roster: list[EventPlayer]) -> dict:
    """Who has handed a list in, per roster row, and how many have not:
    the run page's poll swaps these in too (event_run_live), so a list
    handed in through a player's link shows without a reload, and the
    organizer does not lock the lists on a count that is no longer true."""
    # Each list's points: a list over the event's points shows before round
    # 1 (nothing checks it at hand-in: the limit comes with each round).
    handed_lists = list(event.handed_lists.all())
    points = {
        handed.player_key: sum(int(row.get("cost") or 0) for row in handed.rows)
        for handed in handed_lists
    }
    # Which list each row showed: its corrected list's button carries it.
    handed_at = {handed.player_key: handed_mark(handed) for handed in handed_lists}
    missing = {p.pk for p in roster if event_running.needs_list(p, points)}
    return {
        "missing_lists": missing,
        "lists_locked": event_running.lists_locked(event),
        "list_links": [
            {
                "player": p,
                "missing": p.pk in missing,
                "points": points.get(HandedList.key(p.name)),
                "handed": handed_at.get(HandedList.key(p.name), ""),
            }
            for p in roster
        ],
    }


def handed_mark(handed: HandedList | None) -> str:
    """The list a page showed for a player: when it was handed in."""
    return handed.handed_at.isoformat() if handed is not None else ""


def _run_page(request, event: TournamentEvent, status: int = 200, **bound):
    now = timezone.now()
    if status == 400:
        refusals_on_top(request, bound.values())
    roster = list(event.roster.all())
    names = {p.pk: p.name for p in roster}
    pending = _pending(event)
    context = {
        "event": event,
        "roster": roster,
        **_list_states(event, roster),
        "player_form": bound.get("player_form") or PlayerForm(event=event),
        "paste_form": bound.get("paste_form") or RosterPasteForm(event=event),
        "scoring_form": bound.get("scoring_form") or ScoringForm(event=event),
        "deadline_form": bound.get("deadline_form")
        or ListsDeadlineForm(
            initial={"deadline": timezone.localtime(event.lists_deadline)}
            if event.lists_deadline
            else None
        ),
        "draw_form": _draw_form(event, pending, bound.get("draw_form")),
        "pending": pending,
        **_drawn(event, pending, names),
        "pending_mark": event_running.pairing_mark(pending) if pending else "",
        "swap_form": bound.get("swap_form")
        or (SwapForm(choices=_swap_choices(pending, names)) if pending else None),
        "publish_form": bound.get("publish_form") or PublishRoundForm(),
        "scoring_mark": scoring_mark(event),
        **_live(event, names, now),
        # Handed to the player's phone, like a seat link: the address phones reach.
        "list_url": lambda player: links.phone_url(
            request, reverse("event-list-submit", args=[player.list_token])
        ),
    }
    context["live_ids"] = ",".join(
        [
            *(
                f"#{part}-{item['round'].number}"
                for item in context["rounds"]
                for part in ("clock", "tables")
            ),
            "#standings-live",
            "#run-newer",
            "#lists-missing",
            *(f"#list-{p.pk}" for p in roster),
        ]
    )
    for link in context["list_links"]:
        link["url"] = context["list_url"](link["player"])
    return render(request, "organizer/run.html", context, status=status)


def _joining_round(event: TournamentEvent) -> int:
    """A player added now plays from the drawn round, or the next one."""
    pending = _pending(event)
    return pending.number if pending else event_running.next_round_number(event)


def _redraw_pending(request, event: TournamentEvent) -> None:
    """The roster changed under a drawn round: draw it again (round 1 from
    the same seed), so nobody is paired who left and nobody is missing."""
    pending = _pending(event)
    if pending is None:
        return
    event_running.draw_round(event, pending.seed if pending.number == 1 else None)
    messages.info(request, _("The roster changed: the drawn round was drawn again."))


def run_form(form_class, name: str, of_event: bool = False):
    """A POST of one of the run page's forms: the view gets the event and
    its form, bound and valid. An invalid form renders the page again with
    the form's errors under its own name (400), and nothing is saved.
    `of_event`: the form checks against the event (the roster, its table)."""

    def wrap(view):
        @wraps(view)
        @require_POST
        @organizer_required
        def handle(request, pk: int, **kwargs):
            event = _event(pk)
            form = form_class(request.POST, event=event) if of_event else form_class(request.POST)
            if not form.is_valid():
                return _run_page(request, event, 400, **{name: form})
            return view(request, event, form, **kwargs)

        return handle

    return wrap


@require_GET
@organizer_required
def event_run(request, pk: int):
    return _run_page(request, _event(pk))


@require_GET
@organizer_required
def event_run_live(request, pk: int):
    """The run page's clocks, round tables and standings alone, which it
    fetches every 10 s and swaps in by id: a clock started, paused or called
    on another device, or a result proposed, disputed or confirmed at a
    table, shows without a reload. Not
    the run page itself: that would lose nothing typed (only these ids are
    swapped) but would take the messages meant for the page's next load."""
    event = _event(pk)
    roster = list(event.roster.all())
    names = {p.pk: p.name for p in roster}
    live = _live(event, names, timezone.now())
    return render(
        request,
        "organizer/_run_live.html",
        {
            "event": event,
            "newer_round": _newer_round(request, live["rounds"]),
            **live,
            **_list_states(event, roster),
        },
    )


def _newer_round(request, rounds: list[dict]):
    """The last published round, if the polling page was loaded with fewer
    (its `rounds`: how many it shows). A new round brings new tables, links
    and forms the poll does not swap in: the page says so and offers a
    reload, rather than reloading under what the organizer is typing. An
    unreadable count says nothing."""
    shown = whole_number(request.GET.get("rounds", ""))
    if shown is None or not rounds or shown >= len(rounds):
        return None
    return rounds[-1]["round"]


def _checked_again(form_class, request, event: TournamentEvent):
    """The posted form checked against the roster as it is now (it names
    the player added meanwhile)."""
    form = form_class(request.POST, event=event)
    form.is_valid()
    return form


@run_form(PlayerForm, "player_form", of_event=True)
def roster_add(request, event: TournamentEvent, form: PlayerForm):
    player = form.save(commit=False)
    player.event, player.key = event, event_running.player_key(player.name)
    player.joined_round = _joining_round(event)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        # Another laptop added the same player between this form's check
        # and its write (one roster entry per name): the form, checked
        # again, says so, rather than a 500.
        return _run_page(
            request, event, 400, player_form=_checked_again(PlayerForm, request, event)
        )
    _redraw_pending(request, event)
    messages.success(request, _("%(name)s is on the roster.") % {"name": player.name})
    return redirect("organizer-event-run", pk=event.pk)


@run_form(RosterPasteForm, "paste_form", of_event=True)
def roster_paste(request, event: TournamentEvent, form: RosterPasteForm):
    joined = _joining_round(event)
    try:
        with transaction.atomic():
            EventPlayer.objects.bulk_create(
                [
                    EventPlayer(event=event, joined_round=joined, **p)
                    for p in form.cleaned_data["players"]
                ]
            )
    except IntegrityError:
        # As roster_add: a name added elsewhere meanwhile; nothing is added.
        return _run_page(
            request, event, 400, paste_form=_checked_again(RosterPasteForm, request, event)
        )
    _redraw_pending(request, event)
    count = len(form.cleaned_data["players"])
    messages.success(
        request,
        ngettext(
            "%(count)s player added to the roster.", "%(count)s players added to the roster.", count
        )
        % {"count": count},
    )
    return redirect("organizer-event-run", pk=event.pk)


def _drop_already_done(request, entry: EventPlayer) -> bool:
    """The one button both drops and brings back: what the page showed
    (`dropped`) says which the organizer meant. A second laptop's page from
    before a drop, or a tap sent again through a stalled link, would
    otherwise undo the drop it repeats; it is told the player already is so."""
    shown = request.POST.get("dropped")
    if shown not in ("0", "1") or (shown == "1") == entry.dropped:
        return False
    if entry.dropped:
        text = _("%(name)s has already dropped: not paired from round %(round)s on.") % {
            "name": entry.name,
            "round": entry.dropped_after + 1,
        }
    else:
        text = _("%(name)s is already in the event.") % {"name": entry.name}
    messages.info(request, text)
    return True


@require_POST
@organizer_required
def roster_drop(request, pk: int, player: int):
    """A player drops (paired no more from the next round) or comes back."""
    event = _event(pk)
    entry = get_object_or_404(EventPlayer, event=event, pk=player)
    played = event.rounds.filter(published_at__isnull=False).count()
    if _drop_already_done(request, entry):
        return redirect("organizer-event-run", pk=event.pk)
    if entry.dropped:
        entry.dropped_after = None
        messages.success(request, _("%(name)s is back in the event.") % {"name": entry.name})
    else:
        entry.dropped_after = played
        messages.success(
            request,
            _("%(name)s dropped: not paired from round %(round)s on.")
            % {"name": entry.name, "round": played + 1},
        )
    entry.save(update_fields=["dropped_after"])
    _redraw_pending(request, event)
    return redirect("organizer-event-run", pk=event.pk)


@require_POST
@organizer_required
def roster_late_list(request, pk: int, player: int):
    """Take one player's list after the lock: their link (or, for a late
    list, their match's hand-in) accepts one list; the others stay locked.
    A late list for a player without one; a corrected list for one whose
    list the organizer found wrong (over the points): the form says which
    its page offered, so a late list's button from a page from before the
    player's list came in (Back, a second laptop) reopens nothing."""
    event = _event(pk)
    entry = get_object_or_404(EventPlayer, event=event, pk=player)
    corrected = request.POST.get("corrected") == "1"
    if event_running.handed_list(entry) is not None and not corrected:
        messages.error(request, _("%(name)s has already submitted a list.") % {"name": entry.name})
        return redirect("organizer-event-run", pk=event.pk)
    shown = request.POST.get("handed")
    if corrected and shown is not None and shown != handed_mark(event_running.handed_list(entry)):
        # A page from before the corrected list came in: its button would
        # let the player replace the list just taken, unasked.
        messages.error(
            request,
            _(
                "%(name)s has handed in a list since this page was shown: nothing reopened. "
                "Check it, then take a corrected list if it still needs one."
            )
            % {"name": entry.name},
        )
        return redirect("organizer-event-run", pk=event.pk)
    entry.late_list = True
    entry.save(update_fields=["late_list"])
    # Their match pages offer the hand-in again, without a reload.
    event_running.redraw_matches_of(event.pk, entry.name)
    if corrected:
        done = _(
            "%(name)s may submit one corrected list through their link, despite the lock. "
            "It replaces theirs for the rounds to come."
        )
    else:
        done = _("%(name)s may submit one list through their link, despite the lock.")
    messages.success(request, done % {"name": entry.name})
    return redirect("organizer-event-run", pk=event.pk)


def scoring_mark(event: TournamentEvent) -> str:
    """The scoring table as the run page shows it, in one line: the form
    carries it, so a form from a page behind the table is seen to be."""
    table = scoring_table(event.scoring)
    return ",".join(str(table[key]) for key in DEFAULT_SCORING)


def _scoring_changed(event: TournamentEvent, form: ScoringForm) -> str | None:
    """A table saved on another device (a second tab, a co-organizer's
    laptop) since this page showed it: saving the whole form would put back
    every value the page showed, silently undoing that change. Unless the
    form asks for the table as it is now (a save sent twice), it is not
    saved and the page names what changed."""
    shown = form.shown_mark
    if shown is None or shown == scoring_mark(event):
        return None
    current = scoring_table(event.scoring)
    if dict(form.cleaned_data) == current:
        return None
    before = dict(zip(DEFAULT_SCORING, shown.split(","), strict=False))
    changes = "; ".join(
        f"{SCORING_LABELS[key]}: {current[key]}"
        for key in DEFAULT_SCORING
        if before.get(key) != str(current[key])
    )
    return _(
        "The scoring table was changed on another device since this page showed it "
        "(%(changes)s): nothing was saved. Check it, then save."
    ) % {"changes": changes}


def _scoring_merged(event: TournamentEvent, form: ScoringForm) -> ScoringForm:
    """The refused form shown again as this organizer meant it on the table
    as it is now: each value changed on the other device as it is now, each
    other one as typed, and the mark of now. Shown with the values typed
    over the other device's and the mark of now, "Save" sent again put them
    back, the very undo the refusal was for."""
    before = dict(zip(DEFAULT_SCORING, (form.shown_mark or "").split(","), strict=False))
    current = scoring_table(event.scoring)
    data = {
        key: current[key] if before.get(key) != str(current[key]) else form.cleaned_data[key]
        for key in DEFAULT_SCORING
    }
    merged = ScoringForm(data, event=event, shown_mark=scoring_mark(event))
    merged.is_valid()
    return merged


@run_form(ScoringForm, "scoring_form", of_event=True)
def event_scoring(request, event: TournamentEvent, form: ScoringForm):
    changed = _scoring_changed(event, form)
    if changed:
        form = _scoring_merged(event, form)
        form.add_error(None, changed)
        return _run_page(request, event, 400, scoring_form=form)
    event.scoring = dict(form.cleaned_data)
    event.save(update_fields=["scoring"])
    messages.success(request, _("Scoring table saved; the standings use it."))
    return redirect("organizer-event-run", pk=event.pk)


@require_POST
@organizer_required
def lists_deadline(request, pk: int):
    event = _event(pk)
    if event_running.lists_locked(event):
        # The page offers no unlock once the lists lock: a deadline form from
        # a page before the lock (a second laptop, Back) would reopen every
        # list after the pairings are out, and "Lock now" tapped twice would
        # move the moment they locked.
        messages.error(
            request,
            _(
                "The army lists are already locked: nothing changed. "
                "For a player without a list, use “Take a late list”."
            ),
        )
        return redirect("organizer-event-run", pk=event.pk)
    if "now" in request.POST:
        event.lists_deadline = timezone.now()
    else:
        form = ListsDeadlineForm(request.POST)
        if not form.is_valid():
            return _run_page(request, event, 400, deadline_form=form)
        event.lists_deadline = form.cleaned_data["deadline"]
    event.save(update_fields=["lists_deadline"])
    if event_running.lists_locked(event):
        messages.success(request, _("The army lists are locked."))
    else:
        messages.success(request, _("The army lists lock at the deadline."))
    return redirect("organizer-event-run", pk=event.pk)


def _unfinished(event: TournamentEvent, number: int) -> list[Match]:
    """The round's tables whose result is neither confirmed nor settled. By
    the table's own result, not by the standings' results: a pasted pairing
    may name a guest who is not on the roster (or a name since changed),
    whose table the standings cannot count but which is finished all the
    same, and must not hold every later round back."""
    matches = Match.objects.filter(event=event, event_round=number).order_by("table_number")
    return [m for m in matches if (m.result or {}).get("status") not in (CONFIRMED, SETTLED)]


def _draw_form(event, pending, bound: DrawRoundForm | None) -> DrawRoundForm:
    """The draw's form, its seed only where the draw uses one: round 1 is
    drawn at random from it (swiss.first_round), later rounds by the
    standings, whatever the field held."""
    form = bound or DrawRoundForm()
    number = pending.number if pending else event_running.next_round_number(event)
    if number > 1:
        form.fields.pop("seed", None)
    return form


def _already_published(number: int) -> str:
    return _("Round %(round)s is already published.") % {"round": number}


def _drawn_elsewhere(number: int) -> str:
    return _(
        "Round %(round)s is already drawn (by a tap sent twice, or on another device): "
        "check its pairings before drawing it again."
    ) % {"round": number}


def _draw_refusal(request, event: TournamentEvent) -> str | None:
    """The draw button both draws the next round and draws a drawn one
    again: the form names the drawn round its page showed (`drawn`, empty
    for none). A page from before another laptop drew (or published) must
    not throw away a round drawn and swapped there, nor draw a round after
    the one it meant."""
    if "drawn" not in request.POST:
        return None
    shown, pending = request.POST["drawn"], _pending(event)
    if shown == (str(pending.number) if pending else ""):
        return None
    published = _published_number(event, shown)
    if published is not None:
        return _already_published(published)
    if pending is not None:
        return _drawn_elsewhere(pending.number)
    return _("The rounds changed on another device: check the page, then draw.")


@run_form(DrawRoundForm, "draw_form")
def round_draw(request, event: TournamentEvent, form: DrawRoundForm):
    stale = _draw_refusal(request, event)
    if stale:
        messages.error(request, stale)
        return redirect("organizer-event-run", pk=event.pk)
    number = _pending(event).number if _pending(event) else event_running.next_round_number(event)
    if number > 1:
        left = _unfinished(event, number - 1)
        if left:
            form.add_error(
                None,
                _("Round %(round)s still has tables without a confirmed result: %(tables)s.")
                % {"round": number - 1, "tables": ", ".join(str(m.table_number) for m in left)},
            )
            return _run_page(request, event, 400, draw_form=form)
    if len(event_running.active_for(event, number)) < 2:
        form.add_error(
            None,
            _(
                "A round needs at least two players still in the event "
                "(dropped players are not drawn)."
            ),
        )
        return _run_page(request, event, 400, draw_form=form)
    try:
        with transaction.atomic():
            drawn = event_running.draw_round(event, form.cleaned_data.get("seed"))
    except IntegrityError:
        # Another laptop drew this round between this request's read and
        # its write (a round's number is unique in its event): theirs is
        # kept, and this one is told so rather than answered a 500.
        messages.error(request, _drawn_elsewhere(number))
        return redirect("organizer-event-run", pk=event.pk)
    messages.success(
        request,
        _("Round %(round)s is drawn. Swap players if needed, then publish it.")
        % {"round": drawn.number},
    )
    return redirect("organizer-event-run", pk=event.pk)


def _drawn_round_locked(event: TournamentEvent) -> EventRound | None:
    """The drawn, unpublished round, row-locked until the transaction ends:
    a second tap (or laptop) waits for the first and then sees what it did."""
    return (
        EventRound.objects.select_for_update()
        .filter(event=event, published_at__isnull=True)
        .first()
    )


@require_POST
@organizer_required
def round_swap(request, pk: int):
    event = _event(pk)
    with transaction.atomic():
        # Locked: a swap sent twice (a double tap, a stalled answer) is
        # checked against the first one's pairings, not read beside it.
        pending = _drawn_round_locked(event)
        stale = _swap_refusal(request, event, pending)
        if stale:
            messages.error(request, stale)
            return redirect("organizer-event-run", pk=event.pk)
        names = dict(event.roster.values_list("pk", "name"))
        form = SwapForm(request.POST, choices=_swap_choices(pending, names))
        if not form.is_valid():
            return _run_page(request, event, 400, swap_form=form)
        event_running.swap_players(pending, form.cleaned_data["one"], form.cleaned_data["two"])
    messages.success(request, _("Swapped. Check the pairings, then publish the round."))
    return redirect("organizer-event-run", pk=event.pk)


def _swap_refusal(request, event: TournamentEvent, pending: EventRound | None) -> str | None:
    """Why the swap the page showed cannot be made: a swap trades two
    players wherever they stand, so the same swap sent again (a double tap,
    a tap sent again after a stalled answer, Back) would trade them back,
    and one from a page behind a redraw would trade them in pairings the
    organizer never saw. The form names the round and the pairings it
    showed (as the publish form does)."""
    published = _published_number(event, request.POST.get("round"))
    if published is not None:
        return _already_published(published)
    if pending is None:
        return _("There is no drawn round to change.")
    shown = request.POST.get("pairing")
    if shown is not None and shown != event_running.pairing_mark(pending):
        return _(
            "The pairings of round %(round)s changed since this page showed them "
            "(a swap sent twice, or another device): nothing was swapped. "
            "Check them, then swap."
        ) % {"round": pending.number}
    return None


@run_form(PublishRoundForm, "publish_form")
def round_publish(request, event: TournamentEvent, form: PublishRoundForm):
    """Create the round's matches (with their seat sheets), exactly as
    pasted pairings do."""
    with transaction.atomic():
        # Locked: a second laptop's publish waits for this one and then
        # finds the round published (rather than creating its tables twice).
        pending = _drawn_round_locked(event)
        stale = _publish_refusal(request, event, pending)
        if stale:
            messages.error(request, stale)
            return redirect("organizer-event-run", pk=event.pk)
        response, ended = _publish(request, event, form, pending)
    for event_round in ended:
        announce_clock(event_round)
    return response


def _published_number(event: TournamentEvent, posted: str | None) -> int | None:
    """The round a page's form named (hidden field), if it is published."""
    number = whole_number(posted)
    if number is None:
        return None
    published = event.rounds.filter(number=number, published_at__isnull=False).exists()
    return number if published else None


def _publish_refusal(request, event: TournamentEvent, pending: EventRound | None) -> str | None:
    """Why the round the page showed cannot be published as shown: it is
    published already (a tap sent again after a stalled answer, Back after
    publishing, another laptop), or its pairings changed on another laptop
    since the page was drawn: publishing then would create tables the
    organizer never saw. The form names the round and its pairings."""
    published = _published_number(event, request.POST.get("round"))
    if published is not None:
        return _already_published(published)
    if pending is None:
        return _("Draw the round before publishing it.")
    shown = request.POST.get("pairing")
    if shown is not None and shown != event_running.pairing_mark(pending):
        return _(
            "The pairings of round %(round)s changed on another device: check them, then publish."
        ) % {"round": pending.number}
    return None


def _publish(request, event: TournamentEvent, form: PublishRoundForm, pending: EventRound):
    """The page's answer, and the earlier rounds whose clocks publishing
    ended (announced once committed)."""
    # The event held as pasted pairings hold it (views.create_pairings):
    # none can add this round's tables between this check and its own.
    lock_event(event)
    if Match.objects.filter(event=event, event_round=pending.number).exists():
        form.add_error(
            None,
            _("Round %(round)s already has matches (from pasted pairings).")
            % {"round": pending.number},
        )
        return _run_page(request, event, 400, publish_form=form), []
    data = {
        **form.cleaned_data,
        "pairings": event_running.round_pairings(pending),
        "event_round": pending.number,
        "classified": None,
    }
    create_pairings(event, data)
    pending.published_at = timezone.now()
    pending.minutes = form.cleaned_data["minutes"]
    pending.save(update_fields=["published_at", "minutes"])
    ended = event_running.end_earlier_clocks(event, pending.number, pending.published_at)
    messages.success(
        request,
        _("Round %(round)s is published: print its seat sheets.") % {"round": pending.number},
    )
    return redirect("organizer-event-run", pk=event.pk), ended


@require_POST
@organizer_required
def round_clock(request, pk: int, number: int, action: str):
    """Start, pause or call time on a round's clock; every phone of the
    round is told at once (tracker/event_clock.py)."""
    event = _event(pk)
    if action not in CLOCK_ACTIONS:
        raise Http404
    with transaction.atomic():
        event_round = get_object_or_404(
            EventRound.objects.select_for_update(),
            event=event,
            number=number,
            published_at__isnull=False,
        )
        now = timezone.now()
        state = event_running.clock_state(event_round, now)
        if state == "called":
            messages.error(request, _("Time is already called in this round."))
            return redirect("organizer-event-run", pk=event.pk)
        if action == "start" and state == "paused" and request.POST.get("shown") == "ready":
            # A Start from a page from before the clock ran (a second
            # laptop, Back) would resume a clock another device paused.
            messages.error(
                request,
                _(
                    "The clock of round %(round)s was started and paused since this page "
                    "showed it: it stays paused. Check it, then resume it."
                )
                % {"round": number},
            )
            return redirect("organizer-event-run", pk=event.pk)
        if action == "start" and state != "running":
            event_round.clock_started_at = now
        elif action == "pause" and state == "running":
            event_round.clock_elapsed += (now - event_round.clock_started_at).total_seconds()
            event_round.clock_started_at = None
        elif action == "call":
            if event_round.clock_started_at:
                event_round.clock_elapsed += (now - event_round.clock_started_at).total_seconds()
            event_round.clock_started_at = None
            event_round.time_called_at = now
        else:
            # A page behind the clock (another laptop, a tap sent twice
            # through a stalled link): say what the clock does now.
            already = {
                "running": _("The clock of round %(round)s is already running."),
                "paused": _("The clock of round %(round)s is already paused."),
                "ready": _("The clock of round %(round)s has not started yet."),
            }[state]
            messages.error(request, already % {"round": number})
            return redirect("organizer-event-run", pk=event.pk)
        event_round.save()
    announce_clock(event_round)
    messages.success(
        request,
        {
            "start": _("The clock of round %(round)s runs."),
            "pause": _("The clock of round %(round)s is paused."),
            "call": _("Time is called in round %(round)s."),
        }[action]
        % {"round": number},
    )
    return redirect("organizer-event-run", pk=event.pk)

"""Organizer pages. Thin: access checks, forms, and calls into actions (the
one write path), audit (verify, timeline, replay) and exports."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from django.contrib import messages
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tracker import (
    actions,
    audit,
    event_clock,
    event_running,
    exports,
    links,
    rules,
    seats,
)
from tracker.errors import event_or_404, forbidden
from tracker.folding import Folded, fold
from tracker.models import Match, MatchEvent, Seat, TournamentEvent
from tracker.organizer.access import organizer_required
from tracker.organizer.forms import (
    STANDALONE,
    EventForm,
    MatchFilterForm,
    PairingsForm,
    SettleForm,
    TablesTaken,
    tables_taken,
)
from tracker.organizer.refusals import refusals_on_top
from tracker.reading import load_state
from tracker.rules import classified
from tracker.rules.results import OrganizerViewedSecrets, result_of, settle
from tracker.rules.state import FINISHED, MatchSettings

PAGE_SIZE = 50
SEATS_FOR_LISTS = Prefetch(
    "seats",
    queryset=Seat.objects.only("id", "match_id", "letter", "name", "listed_name").order_by(
        "letter"
    ),
)


def whole_number(text: str) -> int | None:
    """A whole number from a query string, or None. ASCII digits only, and
    short: str.isdigit() also accepts "²" (which int() refuses), and a long
    run of digits is refused by int() or overflows the database column."""
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text or "") else None


def _day_start(day: dt.date) -> dt.datetime | None:
    """Midnight of `day` here; None where UTC has no such moment (the first
    day a date has, east of UTC): nothing is earlier, so no bound."""
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min))
    try:
        start.astimezone(dt.UTC)
    except OverflowError:
        return None
    return start


def filtered_matches(form: MatchFilterForm):
    """The match history query for valid filters (invalid ones are ignored
    and shown as errors on the form). Fixed query count: the page's rows with
    their event, plus one query for all their seats."""
    matches = Match.objects.select_related("event").prefetch_related(SEATS_FOR_LISTS)
    data = form.cleaned_data if form.is_bound and form.is_valid() else {}
    if form.is_bound and not form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k not in form.errors}
    event = data.get("event")
    if event == STANDALONE:
        matches = matches.filter(event__isnull=True)
    elif event:
        matches = matches.filter(event_id=int(event))
    if data.get("player"):
        wanted = fold(" ".join(data["player"].split()))
        # Accent- and case-insensitive on SQLite and PostgreSQL alike:
        # "martinez" finds "Martínez", "íñigo" finds "Íñigo" (tracker/folding.py).
        named = Seat.objects.annotate(
            folded_name=Folded("name"), folded_listed=Folded("listed_name")
        ).filter(Q(folded_name__contains=wanted) | Q(folded_listed__contains=wanted))
        matches = matches.filter(Exists(named.filter(match=OuterRef("pk"))))
    if data.get("date_from") and (start := _day_start(data["date_from"])) is not None:
        matches = matches.filter(created_at__gte=start)
    # To the last day a date has, nothing is later: the day after it was an
    # OverflowError (a 500 with its traceback).
    if data.get("date_to") and data["date_to"] < dt.date.max:
        matches = matches.filter(created_at__lt=_day_start(data["date_to"] + dt.timedelta(days=1)))
    if data.get("status"):
        matches = matches.filter(status=data["status"])
    return matches.order_by("-created_at", "-pk")


def _events_for_filter():
    return list(TournamentEvent.objects.values_list("pk", "name", "date"))


@require_GET
@organizer_required
def match_list(request):
    form = MatchFilterForm(request.GET or None, events=_events_for_filter())
    page = Paginator(filtered_matches(form), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    disputed = Match.objects.filter(status=Match.Status.DISPUTED).count()
    return render(
        request,
        "organizer/matches.html",
        {"form": form, "page": page, "query": query.urlencode(), "disputed": disputed},
    )


@require_http_methods(["GET", "POST"])
@organizer_required
def event_list(request):
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = form.save()
        # Most events are run here (roster, lists, Swiss rounds); pairings
        # made elsewhere are pasted on the event page below.
        messages.success(
            request,
            _(
                "Event created. Add its players and draw its Swiss rounds on its run page, "
                "or paste pairings made elsewhere below."
            ),
        )
        return redirect("organizer-event", pk=event.pk)
    events = TournamentEvent.objects.all()[:200]
    return render(
        request,
        "organizer/events.html",
        {"form": form, "events": events},
        status=400 if form.errors else 200,
    )


def _event(pk: int) -> TournamentEvent:
    return event_or_404(pk)


def event_matches(event: TournamentEvent):
    """The event's tables, each with its players and result: the event page
    lists them all, the run page each round's under its clock."""
    return (
        Match.objects.filter(event=event)
        .select_related("event")
        .prefetch_related(SEATS_FOR_LISTS)
        .order_by("event_round", "table_number", "pk")
    )


@require_http_methods(["GET", "POST"])
@organizer_required
def event_detail(request, pk: int):
    event = _event(pk)
    form = PairingsForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        try:
            created = create_pairings(event, form.cleaned_data)
        except TablesTaken as taken:
            form.add_error(None, taken.message)
    if created is not None:
        messages.success(
            request,
            ngettext(
                "%(count)s match created. Print the seat sheet for its table.",
                "%(count)s matches created. Print the seat sheets for the tables.",
                len(created),
            )
            % {"count": len(created)},
        )
        return redirect("organizer-event", pk=event.pk)
    if form.errors:
        refusals_on_top(request, [form])
    return render(
        request,
        "organizer/event.html",
        {
            "event": event,
            "form": form,
            "matches": event_matches(event),
            "handed_lists": event.handed_lists.order_by("player_key", "pk"),
        },
        status=400 if form.errors else 200,
    )


def lock_event(event: TournamentEvent) -> None:
    """Hold the event's row until the transaction ends: a second request
    that creates the event's tables (the same pairings sent twice through a
    stalled link, another laptop) waits, then sees the first one's. SQLite's
    IMMEDIATE transactions (settings.py) already serialize every writer."""
    list(TournamentEvent.objects.select_for_update().filter(pk=event.pk).values_list("pk"))


def create_pairings(event: TournamentEvent, data: dict) -> list[Match]:
    """One match per pairing, all or none (TablesTaken if its round has any
    of its tables already). Each is created through the one write path; its
    event, round, table and the paired names are organizer facts kept
    beside the log (the log's MatchCreated names the table)."""
    # One value for every table (#20): the form's settings, each its own table.
    settings = MatchSettings.from_data(data)
    created = []
    with transaction.atomic():
        # Checked with the event locked, not in the form: two posts of the
        # same pairings at once both passed a check made before either wrote.
        lock_event(event)
        taken = tables_taken(event, data.get("event_round"), data["pairings"])
        if taken:
            raise TablesTaken(taken)
        for pairing in data["pairings"]:
            # The event's name as the organizer typed it, in no language:
            # each page adds the round and table in its reader's
            # (tracker_tags.match_title). Composed here, "Ronda 1 · Mesa 2"
            # stood in the log of every English phone.
            match = actions.create_match(
                name=event.name[:80], settings=replace(settings, table=str(pairing.table))
            )
            Match.objects.filter(pk=match.pk).update(
                event=event, event_round=data.get("event_round"), table_number=pairing.table
            )
            Seat.objects.filter(match=match, letter="A").update(listed_name=pairing.player_a)
            Seat.objects.filter(match=match, letter="B").update(listed_name=pairing.player_b)
            # No handed list goes into a seat yet: it is given to the player's
            # own browser once it claims the seat (tracker/handed_lists.py).
            created.append(match)
    return created


def _sheets(request, matches) -> list[dict]:
    # The addresses phones reach, not the one this page was opened at (issue 17).
    return [
        {
            "match": match,
            "links": links.seat_links(request, match),
            "watch": links.watch_url(request, match),
        }
        for match in matches
    ]


@require_GET
@organizer_required
def event_sheets(request, pk: int):
    """Seat links and QR codes, one printed sheet per table."""
    event = _event(pk)
    matches = Match.objects.filter(event=event).prefetch_related("seats")
    chosen_round = whole_number(request.GET.get("round", ""))
    if chosen_round is not None:
        matches = matches.filter(event_round=chosen_round)
    matches = matches.order_by("event_round", "table_number", "pk")
    return render(
        request,
        "organizer/sheets.html",
        {
            "event": event,
            "sheets": _sheets(request, matches),
            "address_notice": links.address_notice(request),
        },
    )


def _match(code: str) -> Match:
    return get_object_or_404(Match.objects.select_related("event"), code=code)


@require_GET
@organizer_required
def match_sheet(request, code: str):
    match = _match(code)
    return render(
        request,
        "organizer/sheets.html",
        {
            "event": match.event,
            "sheets": _sheets(request, [match]),
            "address_notice": links.address_notice(request),
        },
    )


def _rows(match: Match) -> list[MatchEvent]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq"))


@require_GET
@organizer_required
def match_audit(request, code: str):
    return _audit_page(request, code)


def _audit_page(request, code: str, settle_form: SettleForm | None = None):
    match = _match(code)
    rows = _rows(match)
    final = audit.replay(rows)
    upto = audit.open_upto(final, request.user.get_username(), rows)
    at = whole_number(request.GET.get("at", ""))
    chosen = at if at is not None and 0 < at <= len(rows) else None
    shown = audit.replay(rows, upto=chosen) if chosen else final
    full = upto is None or shown.seq <= upto
    secrets = audit.secrets(final.state, final.times, upto)
    receipt_seq = whole_number(request.GET.get("receipt_seq", ""))
    receipt_code = request.GET.get("receipt_code", "")[:80]
    receipt = (
        audit.check_receipt(rows, receipt_seq, receipt_code)
        if receipt_seq is not None and receipt_code
        else None
    )
    return render(
        request,
        "organizer/audit.html",
        {
            "match": match,
            "players": exports.player_names(match),
            "check": audit.verify_match(match, rows),
            "timeline": audit.timeline(rows, upto),
            "secrets": secrets,
            # Whether anything is withheld, never how much: a count of sealed
            # secrets would count hidden troopers.
            "withheld": any(s.sealed for s in secrets)
            or any(r.private_to and upto is not None and r.seq > upto for r in rows),
            "in_play": upto is not None,
            "open_upto": upto,
            "opened_at": final.times.get(upto) if upto else None,
            "replay": shown,
            "chosen": chosen,
            "snapshot": audit.snapshot(shown.state, full=full),
            "view": audit.snapshot(final.state, full=False).view,
            "times": final.times,
            "exportable": upto is None or upto == match.seq,
            "classified_draws": _classified_draws(final.state, upto),
            "receipt": receipt,
            "settle_form": settle_form
            or (
                SettleForm(
                    initial=_settle_initial(match),
                    names=exports.player_names(match),
                    points_limit=match.points_limit,
                )
                if _disputed(match) or _unresolved_at_time(match)
                else None
            ),
            "disputed": _disputed(match),
            "settle_shown": _result_shown(match.result),
        },
        status=400 if settle_form is not None else 200,
    )


def _classified_draws(state, upto: int | None) -> list[dict]:
    """CL-2/CL-4 per seat that drew: do the cards held match the seeds? Only
    once the draw is open to this organizer (after the match, or opened)."""
    draws = []
    for letter in ("A", "B"):
        draw_id = classified.hand_of(state, letter).get("draw")
        if not draw_id:
            continue
        secret = state.secrets[draw_id]
        if upto is not None and secret.sealed_seq > upto:
            draws.append({"seat": letter, "sealed": True})
            continue
        ok, why = classified.check_draw(state, letter)
        draws.append(
            {"seat": letter, "sealed": False, "ok": ok, "why": why, "payload": secret.payload}
        )
    return draws


def _disputed(match: Match) -> bool:
    return match.status == Match.Status.DISPUTED


def _time_called(match: Match) -> bool:
    """The match's event round is over on the clock (rules.results.settle)."""
    event_round = event_clock.round_of(match)
    return event_round is not None and event_running.clock_state(event_round) == "called"


def _unresolved_at_time(match: Match) -> bool:
    """Time is called and the table has no agreed result: the organizer
    records one (a table that never reached play cannot propose it)."""
    status = (match.result or {}).get("status")
    return status not in ("confirmed", "settled") and _time_called(match)


def _result_shown(result: dict | None) -> str:
    """Which result a ruling's page showed: its status and the seq of its
    last change (the proposal, or the dispute of it). The players may move
    the result on while the organizer types (propose again, dispute again
    with another reason): a ruling from that page would replace what it
    never showed."""
    if not result:
        return "none"
    return f"{result.get('status')}-{result.get('disputed_seq') or result.get('proposal_seq')}"


def _settle_initial(match: Match) -> dict:
    """The disputed proposal's numbers, as a starting point for the ruling."""
    result = match.result or {}
    op, ap = result.get("objective_points") or {}, result.get("army_points") or {}
    return {
        "objective_a": op.get("A"),
        "objective_b": op.get("B"),
        "army_a": ap.get("A"),
        "army_b": ap.get("B"),
    }


@require_POST
@organizer_required
def match_settle(request, code: str):
    """Settle a disputed result: an event in the match's log (through the one
    write path), shown on both phones; the match leaves the dispute list."""
    match = _match(code)
    form = SettleForm(
        request.POST, names=exports.player_names(match), points_limit=match.points_limit
    )
    if not form.is_valid():
        return _audit_page(request, code, settle_form=form)
    data, organizer = form.cleaned_data, request.user.get_username()
    shown = request.POST.get("shown")

    time_called = _time_called(match)

    def decide(state):
        if shown is not None and shown != _result_shown(result_of(state)):
            raise rules.NotAllowed(
                gettext_noop("The result changed since this page was shown: check it, then rule.")
            )
        return settle(
            state,
            organizer,
            (data["objective_a"], data["objective_b"]),
            (data["army_a"], data["army_b"]),
            data["reason"],
            time_called=time_called,
        )

    try:
        actions.append(match.pk, "organizer", decide)
    except (rules.RuleViolation, actions.Busy) as error:
        from tracker.views import rule_message

        refused = (
            rule_message(error)
            if isinstance(error, rules.RuleViolation)
            else _("The tracker is busy; try again.")
        )
        if _disputed(match) or _unresolved_at_time(match):
            # The page offers the ruling: answered with the form as typed and
            # the refusal above it (a redirect showed the reason over an
            # empty form, the ruling's reason and numbers lost).
            form.add_error(None, refused)
            return _audit_page(request, code, settle_form=form)
        messages.error(request, refused)  # a page that offers no ruling
        return redirect("organizer-audit", code=match.code)
    messages.success(request, _("The result is settled; both players' phones show it."))
    return redirect("organizer-audit", code=match.code)


@require_POST
@organizer_required
def match_open(request, code: str):
    """Open the sealed information of a match still in play: recorded in the
    match's log, and both players' phones say when."""
    match = _match(code)
    organizer = request.user.get_username()
    if audit.open_upto(audit.replay(_rows(match)), organizer, []) is None:
        # Over (or its log cannot be replayed): everything is open, nothing to record.
        return redirect("organizer-audit", code=match.code)

    def decide(state):
        if state.phase == FINISHED:
            return []  # over: everything is open already, nothing to record
        return [OrganizerViewedSecrets(organizer=organizer)]

    try:
        actions.append(match.pk, "organizer", decide)
    except actions.Busy:
        messages.error(request, _("The tracker is busy; try again."))
    return redirect("organizer-audit", code=match.code)


def _download(content: str, content_type: str, filename: str) -> HttpResponse:
    if content_type == "text/csv":
        # UTF-8 with a byte order mark: Excel opens a CSV without one in the
        # computer's legacy code page, so a Spanish organizer's sheet read
        # "JosÃ©" for "José". Spreadsheets, and Python's "utf-8-sig", drop it.
        content, content_type = "\ufeff" + content, "text/csv; charset=utf-8"
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@organizer_required
def match_export_json(request, code: str):
    match = _match(code)
    rows = _rows(match)
    upto = audit.open_upto(audit.replay(rows), request.user.get_username(), rows)
    if upto is not None and upto != match.seq:
        messages.error(
            request,
            _(
                "This match is still in play: open its sealed information first "
                "(both players will be told), then export it."
            ),
        )
        return redirect("organizer-audit", code=match.code)
    return _download(
        exports.dumps(exports.match_audit(match, rows)),
        "application/json",
        f"match-{match.code}.json",
    )


@require_GET
@organizer_required
def match_export_csv(request, code: str):
    match = get_object_or_404(
        Match.objects.select_related("event").prefetch_related(SEATS_FOR_LISTS), code=code
    )
    return _download(exports.matches_csv([match]), "text/csv", f"match-{match.code}.csv")


def _finished(match: Match) -> bool:
    """Over, so its sealed information is open (a disputed match may not be)."""
    if match.status == Match.Status.FINISHED:
        return True
    return match.status == Match.Status.DISPUTED and load_state(match).phase == FINISHED


@require_GET
@organizer_required
def event_export_json(request, pk: int):
    event = _event(pk)
    matches = list(event_matches(event))
    return _download(
        exports.dumps(exports.event_audit(event, matches, _finished)),
        "application/json",
        f"event-{event.pk}.json",
    )


@require_GET
@organizer_required
def event_export_csv(request, pk: int):
    event = _event(pk)
    return _download(exports.matches_csv(event_matches(event)), "text/csv", f"event-{event.pk}.csv")


# ------------------------------------------------------------ player side


@require_GET
def player_export(request, code: str):
    """A player's own match as JSON, redacted exactly as their own view.
    Anyone who does not hold a seat of this match gets 403."""
    match = get_object_or_404(Match.objects.select_related("event"), code=code)
    letter = seats.seat_of(request.session, match)
    if letter is None:
        return forbidden(request, _("Only the two players can export this match."))
    return _download(
        exports.dumps(exports.player_export(match, letter)),
        "application/json",
        f"match-{match.code}-{letter}.json",
    )

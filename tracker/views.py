"""Player-facing views. Thin: they find who is asking, call the one write path
(actions) or the read path (reading/rendering), and render."""

from __future__ import annotations

import hashlib
import json
import re

import segno
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tracker import actions, rules, seats
from tracker.errors import forbidden
from tracker.forms import ClaimSeatForm, CreateMatchForm, MoveSeatForm, TrooperForm, build_command
from tracker.models import Match, Seat
from tracker.reading import load_state, seen_by
from tracker.rendering import (
    changed_frame,
    parse_shown,
    peek_blocks,
    render_blocks,
    viewer_blocks,
)
from tracker.rules.setup import MAX_TROOPERS, ClaimSeat, MoveSeat, clean_trooper_row
from tracker.rules.state import SETUP
from tracker.templatetags.tracker_tags import marker_names

ACTION_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
HOSTED_KEY = "hosted_matches"


def rule_message(error: rules.RuleViolation) -> str:
    """A refusal in the player's language, naming the rule it enforces."""
    try:
        params = marker_names(error.params)
        text = _(error.message) % params if params else _(error.message)
    except (KeyError, TypeError, ValueError):
        text = _(error.message)
    if error.rule and not cites(text, error.rule):
        text = f"{text} ({error.rule})"
    return text


def cites(text: str, rule: str) -> bool:
    """Whether `text` already names `rule` anywhere, "(HD-2, TM-E2)" included:
    the suffix is added once, only to a message that does not cite it."""
    return re.search(rf"(?<![\w-]){re.escape(rule)}(?![\w-])", text) is not None


def _match(code: str) -> Match:
    return get_object_or_404(Match, code=code)


def _seat_obj(match: Match, letter: str | None) -> Seat | None:
    return match.seats.get(letter=letter) if letter else None


def _hosts(request, match: Match) -> bool:
    return match.code in request.session.get(HOSTED_KEY, [])


@require_GET
def home(request):
    hosted = Match.objects.filter(code__in=request.session.get(HOSTED_KEY, []))[:20]
    return render(request, "tracker/home.html", {"form": CreateMatchForm(), "hosted": hosted})


@require_POST
def create_match(request):
    form = CreateMatchForm(request.POST)
    if not form.is_valid():
        hosted = Match.objects.filter(code__in=request.session.get(HOSTED_KEY, []))[:20]
        return render(request, "tracker/home.html", {"form": form, "hosted": hosted}, status=400)
    match = actions.create_match(
        name=form.cleaned_data["name"],
        settings=form.match_settings(table=form.cleaned_data.get("table") or ""),
    )
    request.session[HOSTED_KEY] = [match.code, *request.session.get(HOSTED_KEY, [])][:50]
    return redirect("match-host", code=match.code)


def _qr(url: str) -> str:
    return segno.make(url, error="m").svg_data_uri(scale=5, border=2)


@require_GET
def match_host(request, code: str):
    """The creator's page: two seat links with QR codes, until both are taken;
    then a way to hand a seat to a new phone."""
    match = _match(code)
    if not _hosts(request, match):
        raise Http404
    links = []
    for seat in match.seats.order_by("letter"):
        url = request.build_absolute_uri(reverse("seat-link", args=[match.code, seat.token]))
        links.append(
            {
                "seat": seat,
                "url": url,
                "qr": None if seat.claimed else _qr(url),
                "wrong_pins": seats.wrong_pins(seat),
            }
        )
    watch = request.build_absolute_uri(reverse("match", args=[match.code]))
    waiting = any(not link["seat"].claimed for link in links)
    return render(
        request,
        "tracker/host.html",
        {"match": match, "links": links, "watch": watch, "waiting": waiting},
    )


@require_POST
def seat_hand_off(request, code: str, letter: str):
    """The match's host or an organizer gives a seat to a new phone: a new
    seat link (shown on their page with its QR code), the old link, PIN and
    phone out."""
    from tracker.organizer.access import is_organizer

    match = _match(code)
    seat = get_object_or_404(Seat, match=match, letter=letter)
    organizer = is_organizer(request.user)
    if not (organizer or _hosts(request, match)):
        raise Http404
    seats.hand_off(seat)
    messages.success(
        request,
        _("Seat %(seat)s has a new link: open it (or scan its code) on the new phone.")
        % {"seat": seat.letter},
    )
    if organizer and not _hosts(request, match):
        return redirect("organizer-match-sheet", code=match.code)
    return redirect("match-host", code=match.code)


def seat_link(request, code: str, token: str):
    """Claim a seat, or move a claimed one here with its PIN."""
    if seats.guesses_exhausted(request, "seat"):
        # While the window lasts even a right link is not looked at, so a
        # guesser learns nothing from which links answer.
        return render(
            request,
            "tracker/message.html",
            {"message": _("Too many wrong links. Wait a few minutes and try again.")},
            status=429,
        )
    match = _match(code)
    seat = Seat.objects.filter(match=match, token=token).first()
    if seat is None:
        seats.too_many_guesses(request, "seat")
        raise Http404
    if seats.seat_of(request.session, match) == seat.letter:
        return redirect("match", code=match.code)
    if not seat.claimed:
        form = ClaimSeatForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            if seats.claim(request.session, seat, form.cleaned_data["pin"]):
                if load_state(match).seat(seat.letter).claimed:
                    # A seat handed to a new phone by the host or an organizer:
                    # the same player on a new phone, recorded as a move.
                    actions.perform(match, seat.letter, MoveSeat())
                    return redirect("match", code=match.code)
                try:
                    actions.perform(match, seat.letter, ClaimSeat(name=form.cleaned_data["name"]))
                except rules.RuleViolation as error:
                    messages.error(request, rule_message(error))
                Seat.objects.filter(pk=seat.pk).update(name=form.cleaned_data["name"][:60])
                return redirect("match", code=match.code)
            messages.error(request, _("Someone else took this seat a moment ago."))
            return redirect("seat-link", code=match.code, token=token)
        return render(request, "tracker/claim.html", {"match": match, "seat": seat, "form": form})
    form = MoveSeatForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if seats.guesses_exhausted(request, "pin"):
            form.add_error(None, _("Too many wrong PINs. Wait a few minutes and try again."))
            status = 429
        elif form.is_valid() and seats.move(request.session, seat, form.cleaned_data["pin"]):
            actions.perform(match, seat.letter, MoveSeat())
            return redirect("match", code=match.code)
        else:
            seats.too_many_guesses(request, "pin")
            form.add_error("pin", _("That PIN is not right."))
            status = 403
    return render(
        request, "tracker/move.html", {"match": match, "seat": seat, "form": form}, status=status
    )


@require_GET
def match_page(request, code: str):
    match = _match(code)
    seat = seats.held_seat(request.session, match)
    letter = seat.letter if seat is not None else None
    seq, blocks = viewer_blocks(match, letter, seat)
    return render(
        request,
        "tracker/match.html",
        {
            "match": match,
            # Only what match.html reads of the view: the blocks carry the rest.
            "view": {"seq": seq, "viewer": letter},
            "blocks": blocks,
            "hosts": _hosts(request, match),
        },
    )


def _respond(
    request,
    match: Match,
    letter: str | None,
    error: str = "",
    status: int = 200,
    extra: dict | None = None,
    seat: Seat | None = None,
    before: dict[str, str] | None = None,
):
    """After an action: the fresh blocks for htmx, or back to the page.
    `extra`: what only this answer shows (a pasted list and its problems).
    `seat`: the viewer's Seat row if the caller holds a current one (its
    draft unchanged by this request); read again otherwise. `before`: this
    viewer's blocks as rendered before the action (rendering.peek_blocks).

    A phone names the blocks it shows (X-Tracker-Shown, static/tracker/app.js):
    the answer then leaves those out and sends a changed block's rows only,
    as its socket does. Without the header, every block goes."""
    if request.htmx:
        match.refresh_from_db()
        if seat is None or seat.letter != letter:
            seat = _seat_obj(match, letter)
        if extra:
            # Only this answer shows it (a pasted list and its problems): no cache.
            seen = seen_by(match, letter)
            seq, blocks = seen.view.seq, render_blocks(seen, seat, request, error, extra)
        else:
            # The same render this viewer's sockets push for this seq (rendering.py).
            seq, blocks = viewer_blocks(match, letter, seat, error)
        # Nothing named (no header): every block goes, whole.
        shown = parse_shown(request.headers.get("X-Tracker-Shown", ""))
        frame = changed_frame(blocks, seq, shown, before or {})
        return HttpResponse(frame, status=status if status < 500 else 200)
    if error:
        messages.error(request, error)
    for problem in (extra or {}).get("import_problems", ()):
        messages.error(request, problem)
    return redirect("match", code=match.code)


@require_POST
def act(request, code: str, command: str):
    """Every player action of the match page posts here."""
    match = _match(code)
    seat = seats.held_seat(request.session, match)
    if seat is None:
        return forbidden(request, _("Only the two players can act in this match."))
    letter = seat.letter
    action_id = request.POST.get("action_id", "")
    if not ACTION_ID.match(action_id):
        action_id = ""
    # Only a phone that names its blocks can be sent rows instead of blocks.
    names_blocks = request.htmx and "X-Tracker-Shown" in request.headers
    before = peek_blocks(match, letter, seat) if names_blocks else {}
    try:
        built = build_command(command, request.POST, match, seat)
        actions.perform(match, letter, built, action_id)
    except rules.RuleViolation as error:
        return _respond(request, match, letter, rule_message(error), seat=seat, before=before)
    except actions.Busy:
        busy = _("The tracker is busy; tap again.")
        return _respond(request, match, letter, busy, seat=seat, before=before)
    # No command changes a seat's draft: the row read above is still current.
    return _respond(request, match, letter, seat=seat, before=before)


@require_POST
def draft_add(request, code: str):
    """Add a trooper to this seat's private army list draft."""
    match = _match(code)
    letter = seats.seat_of(request.session, match)
    if letter is None:
        return forbidden(request, _("Only the two players can act in this match."))
    form = TrooperForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(
            f"{form.fields[f].label if f in form.fields else ''}: {e[0]}".lstrip(": ")
            for f, e in form.errors.items()
        )
        return _respond(request, match, letter, errors)
    row = {
        "id": form.cleaned_data["row_id"],
        "name": form.cleaned_data["name"],
        "cost": form.cleaned_data["cost"],
        "combat_group": form.cleaned_data["combat_group"],
        "silhouette": form.cleaned_data["silhouette"],
        "traits": sorted(form.cleaned_data["traits"]),
    }
    try:
        clean_trooper_row(row)
        with transaction.atomic():
            seat = Seat.objects.select_for_update().get(match=match, letter=letter)
            if not _draft_open(match, letter):
                raise rules.NotAllowed("Your army list is locked.")
            if not any(existing.get("id") == row["id"] for existing in seat.draft):
                if len(seat.draft) >= MAX_TROOPERS:
                    raise rules.InvalidInput(
                        "An army list holds at most %(max)s troopers.", max=MAX_TROOPERS
                    )
                seat.draft = [*seat.draft, row]
                seat.save(update_fields=["draft"])
    except rules.RuleViolation as error:
        return _respond(request, match, letter, rule_message(error))
    return _respond(request, match, letter)


@require_POST
def draft_remove(request, code: str):
    match = _match(code)
    letter = seats.seat_of(request.session, match)
    if letter is None:
        return forbidden(request, _("Only the two players can act in this match."))
    trooper_id = request.POST.get("trooper_id", "")
    with transaction.atomic():
        seat = Seat.objects.select_for_update().get(match=match, letter=letter)
        locked = not _draft_open(match, letter)
        if not locked:
            seat.draft = [row for row in seat.draft if row.get("id") != trooper_id]
            seat.save(update_fields=["draft"])
    # Rendered after the transaction: the write lock is not held for a render.
    return _respond(request, match, letter, _("Your army list is locked.") if locked else "")


def _draft_open(match: Match, letter: str) -> bool:
    """Whether `letter` may still edit its draft: the state, not a whole view."""
    state = load_state(match)
    return state.phase == SETUP and not state.seat(letter).list_locked


@require_GET
def blocks_partial(request, code: str):
    """The current blocks, for a phone that wants to resync over HTTP."""
    match = _match(code)
    return _respond(request, match, seats.seat_of(request.session, match))


# What the service worker precaches: the files every page needs.
PRECACHE = (
    "vendor/htmx-2.0.11.min.js",
    "vendor/htmx-ext-ws-2.0.4.min.js",
    "tracker/sha256.js",
    "tracker/app.js",
    "tracker/app.css",
    "tracker/manifest.webmanifest",
    "tracker/icons/icon.svg",
    "tracker/icons/icon-192.png",
)


@require_GET
def service_worker(request):
    """The service worker, at the site's root so that its scope is the site.
    Its version changes with the static files' contents, so phones update."""
    urls = [static(name) for name in PRECACHE]
    digest = hashlib.sha256()
    for name in PRECACHE:
        found = finders.find(name)
        if found:
            with open(found, "rb") as handle:
                digest.update(handle.read())
    body = render_to_string(
        "tracker/pwa/sw.js",
        {
            # JSON of our own static URLs (no user input): a valid JS literal.
            "precache_json": json.dumps(urls),
            "version": digest.hexdigest()[:12],
            "static_prefix_json": json.dumps(static("")),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response

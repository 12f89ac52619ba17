"""Player-facing views. Thin: they find who is asking, call the one write path
(actions) or the read path (reading/rendering), and render."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re

from django.conf import settings
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tracker import actions, handed_lists, offline_copy, rules, seats
from tracker import links as links_for_phones
from tracker.busy import busy_response
from tracker.errors import forbidden, not_a_player
from tracker.event_clock import render_clock
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
from tracker.rules.i18n import Plural
from tracker.rules.setup import (
    BY_HOST,
    BY_ORGANIZER,
    MAX_TROOPERS,
    ClaimSeat,
    MoveSeat,
    clean_trooper_row,
)
from tracker.rules.state import SETUP
from tracker.taps import (
    LATE_HEADER,
    already_applied,
    deadline_of,
    is_late,
    moved_on_refusal,
    moved_on_since,
    note_refused,
    refusal,
)
from tracker.templatetags.tracker_tags import marker_names

ACTION_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
HOSTED_KEY = "hosted_matches"
RECENT_COOKIE = "tracker_recent"

log = logging.getLogger(__name__)


def rule_message(error: rules.RuleViolation) -> str:
    """A refusal in the player's language, naming the rule it enforces."""
    message = _(error.message)
    if isinstance(error.message, Plural):  # one or several, by its number
        try:
            number = int(error.params[error.message.key])
        except (KeyError, TypeError, ValueError):
            number = 2
        message = ngettext(error.message.singular, str(error.message), number)
    try:
        params = marker_names(error.params)
        text = message % params if params else message
    except (KeyError, TypeError, ValueError):
        text = message
    if error.rule and not cites(text, error.rule):
        text = f"{text} ({error.rule})"
    return text


def cites(text: str, rule: str) -> bool:
    """Whether `text` already names `rule` anywhere, "(HD-2, TM-E2)" included:
    the suffix is added once, only to a message that does not cite it."""
    return re.search(rf"(?<![\w-]){re.escape(rule)}(?![\w-])", text) is not None


def _match(code: str) -> Match:
    return get_object_or_404(Match, code=code)


def _match_and_seat(request, code: str) -> tuple[Match, Seat | None]:
    """The match and the Seat row this browser holds in it (one query)."""
    match, seat = seats.match_and_seat(request.session, code)
    if match is None:
        raise Http404
    return match, seat


def _seat_obj(match: Match, letter: str | None) -> Seat | None:
    return match.seats.get(letter=letter) if letter else None


def _moved_away(request, match: Match, letter: str | None) -> bool:
    """A spectator's page on a phone that held a seat here (seats.has_sat):
    its seat moved to another phone, and its header says so."""
    return letter is None and seats.has_sat(request.session, match)


def _hosts(request, match: Match) -> bool:
    return match.code in request.session.get(HOSTED_KEY, [])


@require_GET
def home(request):
    hosted = Match.objects.filter(code__in=request.session.get(HOSTED_KEY, []))[:20]
    return render(request, "tracker/home.html", {"form": CreateMatchForm(), "hosted": hosted})


def _form_token(request, sent: str) -> str | None:
    """The home page form's token, bound to this browser's CSRF secret: sent
    again from this browser it finds the match it made; from any other (were
    the token seen there) it is another token, and makes a match of its own,
    never handing this one over."""
    secret = request.META.get("CSRF_COOKIE", "")
    if not sent or not secret:
        return None
    return hmac.new(secret.encode(), sent.encode(), hashlib.sha256).hexdigest()[:32]


@require_POST
def create_match(request):
    form = CreateMatchForm(request.POST)
    if not form.is_valid():
        hosted = Match.objects.filter(code__in=request.session.get(HOSTED_KEY, []))[:20]
        return render(request, "tracker/home.html", {"form": form, "hosted": hosted}, status=400)
    token = _form_token(request, form.cleaned_data["form_token"])
    try:
        match = actions.create_match(
            name=form.cleaned_data["name"], settings=form.match_settings(), form_token=token
        )
    except IntegrityError:
        # This form created its match already (a double tap, or the same
        # form sent again after a stalled answer): that match's host page.
        match = Match.objects.filter(created_by_form=token).first() if token else None
        if match is None:
            raise
    request.session[HOSTED_KEY] = [match.code, *request.session.get(HOSTED_KEY, [])][:50]
    return redirect("match-host", code=match.code)


@require_GET
def match_host(request, code: str):
    """The creator's page: two seat links with QR codes, until both are taken;
    then a way to hand a seat to a new phone, for a host seated nowhere in
    the match (issue 22).

    A seat never claimed shows its link to any host: that is how seats are
    given out, and nothing is sealed in a seat before it is claimed. A link
    minted by a hand-off (the log says the seat was claimed) is the way into
    a player's secrets: it shows only to a host who may hand seats off, so a
    host who plays never sees the other seat's new link an organizer made."""
    match = _match(code)
    if not _hosts(request, match):
        raise Http404
    may_hand_off = not seats.has_sat(request.session, match)
    links = links_for_phones.seat_links(
        request, match, state=load_state(match), may_hand_off=may_hand_off
    )
    waiting = any(not link.seat.claimed for link in links)
    return render(
        request,
        "tracker/host.html",
        {
            "match": match,
            "links": links,
            "watch": links_for_phones.watch_url(request, match),
            "waiting": waiting,
            # Opened on the server's own computer: say which address the codes use.
            "address_notice": links_for_phones.address_notice(request),
            "may_hand_off": may_hand_off,
        },
    )


def _refuse(request, message: str, status: int):
    return render(request, "tracker/message.html", {"message": message}, status=status)


@require_POST
def seat_hand_off(request, code: str, letter: str):
    """An organizer, or the match's host seated nowhere in it, gives a seat
    to a new phone: a new seat link (shown on their page with its QR code),
    the old link, PIN and phone out, and the log says who did it.

    Refused to any browser that holds or has held a seat of the match
    (issue 22): in a casual match the host is often a player, and the other
    seat's new link would be the other player's secrets. Such a host hands
    off no seat, not even their own: they move it with its PIN."""
    from tracker.organizer.access import is_organizer

    match = _match(code)
    seat = get_object_or_404(Seat, match=match, letter=letter)
    organizer = is_organizer(request.user)
    hosts = _hosts(request, match)
    if not (organizer or hosts):
        raise Http404
    if seats.has_sat(request.session, match):
        return _refuse(
            request,
            _(
                "This browser has held a seat in this match, so it cannot hand a seat to a "
                "new phone: a player moves their own seat with its PIN. If a PIN is lost, an "
                "organizer, or a host who plays in neither seat, hands the seat over."
            ),
            403,
        )
    back = "organizer-match-sheet" if organizer and not hosts else "match-host"
    shown = request.POST.get("shown")
    if shown is not None and not constant_time_compare(shown, seats.holder_mark(seat)):
        # A page from before the seat was handed off or taken since: its
        # button would throw the player's new phone out mid-match.
        messages.error(
            request,
            _(
                "Seat %(seat)s changed since this page was shown (handed to a new phone, or "
                "taken on one): nothing changed. Check it, then hand it over if it still needs it."
            )
            % {"seat": seat.letter},
        )
        return redirect(back, code=match.code)
    by = BY_ORGANIZER if organizer else BY_HOST
    by_name = request.user.get_username() if organizer else ""
    try:
        # Logged first: if the log is busy, nothing has changed yet.
        actions.record_hand_off(match, seat.letter, by, by_name)
    except actions.Busy:
        return _refuse(request, _("The tracker is busy; tap again."), 503)
    seats.hand_off(seat)
    messages.success(
        request,
        _("Seat %(seat)s has a new link: open it (or scan its code) on the new phone.")
        % {"seat": seat.letter},
    )
    return redirect(back, code=match.code)


def seat_link(request, code: str, token: str):
    """Claim a seat, or move a claimed one here with its PIN."""
    match = _match(code)
    seat = Seat.objects.filter(match=match, token=token).first()
    if seat is None:
        if seats.too_many_guesses(request, "seat"):
            # Only wrong links are refused: a right one is always answered,
            # since a venue is one address (issue 22) and a 256-bit link is
            # not found by guessing; the limit only stops a scan.
            return _refuse(
                request, _("Too many wrong links. Wait a few minutes and try again."), 429
            )
        # The match is there (its page is public): saying there is none
        # sent a player whose seat was handed to a new phone looking for a
        # wrong code.
        message = _(
            "This seat link is not (or no longer) this match's: a seat handed to a new "
            "phone gets a new link. Ask whoever handed it over (the host or the "
            "organizer) for it."
        )
        follow = reverse("match", kwargs={"code": match.code})
        context = {"message": message, "follow": follow}
        return render(request, "tracker/message.html", context, status=404)
    if seats.seat_of(request.session, match) == seat.letter:
        return redirect("match", code=match.code)
    claimed_before = load_state(match).seat(seat.letter).claimed
    if (seat.claimed or claimed_before) and seats.sat_elsewhere(request.session, seat):
        # Issue 22: a player never takes the other seat once its player has it.
        return _refuse(
            request,
            _(
                "This browser has held the other seat of this match: it cannot take this "
                "seat too. Open this link on its player's phone."
            ),
            403,
        )
    if not seat.claimed:
        # A paired seat offers the name the organizer's pairing gave it, so the
        # history, the audit and the exports name the player as the roster does.
        form = ClaimSeatForm(request.POST or None, initial={"name": seat.listed_name})
        if request.method == "POST" and form.is_valid():
            # Only this browser holds its CSRF cookie: its own claim sent again
            # is known by it (seats.repeated_claim).
            browser = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
            if seats.claim(request.session, seat, form.cleaned_data["pin"], browser):
                if claimed_before:
                    # A seat handed to a new phone: the same player on a new
                    # phone. The hand-off was logged when it was made, with
                    # who made it (actions.record_hand_off).
                    return redirect("match", code=match.code)
                try:
                    actions.perform(match, seat.letter, ClaimSeat(name=form.cleaned_data["name"]))
                except rules.RuleViolation as error:
                    messages.error(request, rule_message(error))
                Seat.objects.filter(pk=seat.pk).update(name=form.cleaned_data["name"][:60])
                # An event's player who opened their list link in this
                # browser starts with the list they handed in.
                if match.event_id:
                    held = Seat.objects.select_related("match").get(pk=seat.pk)
                    handed_lists.prefill(held, session=request.session)
                return redirect("match", code=match.code)
            # Both taps read the seat free: the first took it meanwhile.
            if (again := _same_claim_again(request, match, seat)) is not None:
                return again
            messages.error(request, _("Someone else took this seat a moment ago."))
            return redirect("seat-link", code=match.code, token=token)
        if not form.is_bound:
            # The PIN drawn for this form (seats._pin_hash: kept as drawn, it
            # is hashed for what it is, a random PIN used nowhere else).
            seats.offer(request.session, form.fields["pin"].initial)
        return render(
            request,
            "tracker/claim.html",
            # Its address answers GET too: Back to this answer loads it again (base.html).
            {"match": match, "seat": seat, "form": form, "address_answers_get": True},
        )
    # The claim form's post (it has a name): the first tap took the seat
    # before this one was read.
    claim_again = request.method == "POST" and "name" in request.POST
    if claim_again and (again := _same_claim_again(request, match, seat)) is not None:
        return again
    form = MoveSeatForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid() and form.cleaned_data["pin"].isdigit():
            outcome = seats.move(request.session, seat, form.cleaned_data["pin"])
        else:
            outcome = seats.WRONG  # not a PIN at all: nothing to check or count
        if outcome == seats.MOVED:
            try:
                actions.perform(match, seat.letter, MoveSeat())
            except rules.RuleViolation:
                # The seat's row was claimed a moment ago and its claim's line
                # is still on its way to the log (a round's start keeps it
                # waiting for the write lock): there is no claim to move yet.
                # This phone holds the seat; the claim's line, when it lands,
                # is the log's first word on it.
                log.info("seat %s of %s moved before its claim was logged", seat.letter, match.code)
            return redirect("match", code=match.code)
        if outcome == seats.SPENT:
            form.add_error(
                None,
                _(
                    "Too many wrong PINs were tried on this seat: its PIN no longer moves it. "
                    "Ask an organizer, or a host who plays in neither seat, to hand the seat "
                    "to your new phone."
                ),
            )
            status = 429
        else:
            form.add_error("pin", _("That PIN is not right."))
            status = 403
    return render(
        request,
        "tracker/move.html",
        {
            "match": match,
            "seat": seat,
            "form": form,
            "spent": seats.pins_spent(seat),
            "address_answers_get": True,
        },
        status=status,
    )


def _same_claim_again(request, match: Match, seat: Seat):
    """The claim form sent again by the browser whose first send took the
    seat (seats.repeated_claim): a player who tapped "Take this seat" twice
    while a round's start kept the first tap waiting, whose browser dropped
    the first answer. She was told someone else took her seat (or, the
    first tap done before this one was read, her PIN "moved" it to another
    phone, in the log both phones read). Now her phone holds it, with no
    line of its own. None for anyone else's claim."""
    browser = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    pin = request.POST.get("pin", "")
    if seats.sat_elsewhere(request.session, seat) or not seats.repeated_claim(
        request.session, seat, pin, browser
    ):
        return None
    messages.success(
        request, _("Your first tap had already taken this seat: it is yours, on this phone.")
    )
    return redirect("match", code=match.code)


# Never in the browser's HTTP cache: Back took the page from there as it was
# first loaded (the state of the match then, with no word that it was old)
# when the network was down, and the cache kept the seat's sealed
# information on disk. On a phone with the service worker (a secure
# origin), its kept copy stays the only offline copy (tracker/offline_copy.py).
@never_cache
@require_GET
def match_page(request, code: str):
    match, seat = _match_and_seat(request, code)
    letter = seat.letter if seat is not None else None
    hosts = _hosts(request, match)
    seq, blocks = viewer_blocks(match, letter, seat, _moved_away(request, match, letter))
    response = render(
        request,
        "tracker/match.html",
        {
            "match": match,
            # Only what match.html reads of the view: the blocks carry the rest.
            "view": {"seq": seq, "viewer": letter},
            "blocks": blocks,
            "hosts": hosts,
            # The event round's clock (issue 21), when the match has one.
            "round_clock": render_clock(match, letter),
        },
    )
    if seat is not None or hosts:
        _opened(request, response, match)
    # The one kind of page the service worker may keep for offline use, and
    # only while this browser's session is the one it was rendered for.
    return offline_copy.may_keep(response, letter)


def _recent(request) -> list[str]:
    return [c for c in request.COOKIES.get(RECENT_COOKIE, "").split(".") if c][:20]


def _opened(request, response, match: Match) -> None:
    """Remember the match this browser opened last (the start page lists it
    first), in a cookie of its own: written from a page load, the session
    could overwrite a seat claimed at the same moment in another tab."""
    recent = _recent(request)
    if recent[:1] != [match.code]:
        codes = [match.code, *(c for c in recent if c != match.code)][:20]
        response.set_cookie(
            RECENT_COOKIE,
            ".".join(codes),  # match codes are [A-Za-z0-9_-]
            max_age=settings.SESSION_COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )


@require_GET
def start_page(request):
    """Where the installed app opens (the manifest's start_url, issue 17):
    the matches this browser plays or hosts, the last one opened first, so a
    player who is not the host finds her match again."""
    holders = request.session.get(seats.SESSION_KEY) or {}
    seat_ids = [int(pk) for pk in holders if str(pk).isdigit()]
    hosted = request.session.get(HOSTED_KEY, [])
    matches = (
        Match.objects.filter(Q(seats__pk__in=seat_ids) | Q(code__in=hosted))
        .distinct()
        .prefetch_related("seats")
    )
    recent = {code: i for i, code in enumerate(_recent(request))}
    entries = []
    for match in matches:
        seat = seats.held_seat(request.session, match, list(match.seats.all()))
        if seat is None and match.code not in hosted:
            continue  # a seat this browser held once and lost: not its match any more
        entries.append({"match": match, "seat": seat, "hosts": match.code in hosted})
    entries.sort(key=lambda e: (recent.get(e["match"].code, len(recent)), -e["match"].pk))
    return render(request, "tracker/start.html", {"entries": entries[:30]})


@require_GET
def offline_page(request):
    """What the service worker shows when there is no network and no kept
    copy this browser may still see (precached at install)."""
    return render(request, "tracker/offline.html")


def _respond(
    request,
    match: Match,
    letter: str | None,
    error: str = "",
    status: int = 200,
    extra: dict | None = None,
    seat: Seat | None = None,
    before: dict[str, str] | None = None,
    current: bool = False,
):
    """After an action: the fresh blocks for htmx, or back to the page.
    `extra`: what only this answer shows (a pasted list and its problems).
    `seat`: the viewer's Seat row if the caller holds a current one (its
    draft unchanged by this request); read again otherwise. `before`: this
    viewer's blocks as rendered before the action (rendering.peek_blocks).
    `current`: `match` holds the row as the write path left it
    (actions.Outcome.bring_up_to_date): not read again.

    A phone names the blocks it shows (X-Tracker-Shown, static/tracker/app.js):
    the answer then leaves those out and sends a changed block's rows only,
    as its socket does. Without the header, every block goes."""
    if request.htmx:
        if not current:
            match.refresh_from_db()
        if seat is None or seat.letter != letter:
            seat = _seat_obj(match, letter)
        if extra:
            # Only this answer shows it (a pasted list and its problems): no cache.
            seen = seen_by(match, letter)
            seq, blocks = seen.view.seq, render_blocks(seen, seat, request, error, extra)
            error = ""  # drawn into these controls already
        else:
            # The same render this viewer's sockets push for this seq (rendering.py).
            moved = _moved_away(request, match, letter)
            seq, blocks = viewer_blocks(match, letter, seat, moved)
        # Nothing named (no header): every block goes, whole.
        shown = parse_shown(request.headers.get("X-Tracker-Shown", ""))
        frame = changed_frame(blocks, seq, shown, before or {})
        # A refusal goes atop the controls as they are: the shared render is
        # not drawn again for one answer's message.
        return HttpResponse(frame + error_fragment(error), status=status if status < 500 else 200)
    if error:
        messages.error(request, error)
    for problem in (extra or {}).get("import_problems", ()):
        messages.error(request, problem)
    return redirect("match", code=match.code)


@require_POST
def act(request, code: str, command: str):
    """Every player action of the match page posts here."""
    match, seat = _match_and_seat(request, code)
    if seat is None:
        return not_a_player(request)
    letter = seat.letter
    action_id = request.POST.get("action_id", "")
    if not ACTION_ID.match(action_id):
        action_id = ""
    if is_late(request) and not already_applied(match, action_id):
        # Refused before the write path: a late tap does not wait for the
        # match's lock (and the database's write lock) just to be refused.
        # A repeat of one that did land goes on, and is answered as it was.
        note_refused(match.code, action_id)
        return refused_alone(request, match, refusal())
    if moved_on_since(request, match, letter) and not already_applied(match, action_id):
        # "Send it again" of a tap made on an older page: the player decides
        # again on the page as it is (another seal, the opponent's newer
        # proposal, an Order spent meanwhile may make it a different tap).
        return _respond(request, match, letter, moved_on_refusal(), seat=seat)
    # Only a phone that names its blocks can be sent rows instead of blocks.
    names_blocks = request.htmx and "X-Tracker-Shown" in request.headers
    before = peek_blocks(match, letter, seat) if names_blocks else {}
    try:
        built = build_command(command, request.POST, match, seat)
        outcome = actions.perform(match, letter, built, action_id, deadline_of(request))
    except rules.RuleViolation as error:
        return _respond(request, match, letter, rule_message(error), seat=seat, before=before)
    except actions.TooLate:
        # Nobody may wait for this answer: the phone gave up, said "not saved".
        note_refused(match.code, action_id)
        return refused_alone(request, match, refusal())
    except actions.Busy:
        # Shed as the server sheds a tap it cannot take (tracker/http.py):
        # 503 with Retry-After, which app.js sends again with the same id.
        return busy_response(request)
    # No command changes a seat's draft: the row read above is still current;
    # the match row is as the write path left it.
    outcome.bring_up_to_date(match)
    return _respond(request, match, letter, seat=seat, before=before, current=True)


def late_refusal(request, match: Match, letter: str):
    """For a tap outside the write path (a draft's edits): the refusal of a
    tap past its deadline (tracker/taps.py), nothing applied, or None to go
    on. The write path checks its own under the match's lock."""
    if not is_late(request):
        return None
    note_refused(match.code, request.POST.get("action_id", ""))
    return refused_alone(request, match, refusal())


def error_fragment(error: str) -> str:
    """A refusal's message, put atop the controls the phone shows (where
    app.js looks for it and clears it once the page moves on)."""
    if not error:
        return ""
    return format_html(
        '<div hx-swap-oob="afterbegin:#blk-controls"><p class="error" role="alert">{}</p></div>',
        error,
    )


def refused_alone(request, match: Match, error: str):
    """A tap refused unapplied (past its deadline, issue 17) answered on its
    own: its message only, no block rendered and no log read, so a process
    behind on its work spends next to nothing on taps nobody waits for."""
    if request.htmx:
        response = HttpResponse(error_fragment(error))
        # A phone that is still waiting (its send landed between the deadline
        # and its giving up) takes this as a send that did not land and sends
        # the tap again, as after no answer (static/tracker/app.js).
        response[LATE_HEADER] = "1"
        return response
    messages.error(request, error)
    return redirect("match", code=match.code)


@require_POST
def draft_add(request, code: str):
    """Add a trooper to this seat's private army list draft."""
    match = _match(code)
    letter = seats.seat_of(request.session, match)
    if letter is None:
        return not_a_player(request)
    form = TrooperForm(request.POST)
    if (late := late_refusal(request, match, letter)) is not None:
        return late
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
            same_id = next((r for r in seat.draft if r.get("id") == row["id"]), None)
            if same_id is not None and _row_fields(same_id) != _row_fields(row):
                # The add form names its new row by the list it was rendered
                # for: another screen of this seat (a second tab, an old page)
                # added a row to that list first. Said, not dropped in silence.
                raise rules.NotAllowed(
                    gettext_noop(
                        "Your list changed before this trooper arrived (another screen, or a "
                        "tap that landed late): it was not added. Check the list and add it again."
                    )
                )
            if same_id is None:  # else the same row sent again (a repeated tap)
                if len(seat.draft) >= MAX_TROOPERS:
                    raise rules.InvalidInput(
                        "An army list holds at most %(max)s troopers.", max=MAX_TROOPERS
                    )
                seat.draft = [*seat.draft, row]
                seat.save(update_fields=["draft"])
    except rules.RuleViolation as error:
        return _respond(request, match, letter, rule_message(error))
    return _respond(request, match, letter)


def _row_fields(row: dict) -> tuple:
    """What a list row says, its id apart."""
    return tuple(row.get(k) for k in ("name", "cost", "combat_group", "silhouette", "traits"))


@require_POST
def draft_remove(request, code: str):
    match = _match(code)
    letter = seats.seat_of(request.session, match)
    if letter is None:
        return not_a_player(request)
    trooper_id = request.POST.get("trooper_id", "")
    if (late := late_refusal(request, match, letter)) is not None:
        return late
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


@require_GET
def csrf_token(request):
    """This browser's CSRF token, for a page whose token a login in another
    tab renewed (app.js asks when a tap is refused for it, then sends the
    tap again). Same-origin scripts only can read it; nothing is cached."""
    response = HttpResponse(get_token(request), content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def tap_status(request, code: str, action_id: str):
    """Whether this browser's seat applied the tap `action_id`: {"applied":
    true|false}. A tap whose answers a stalled link held back is shown "not
    saved" although it landed; once the link is back app.js asks here and
    takes its "not saved" back (issue 18, a venue's Wi-Fi). Asked after the
    tap's deadline has passed, the answer is final: a send of it that
    reaches the tracker later is refused unapplied (taps.py). Only the
    seat's own taps: a spectator, or another seat, is told nothing."""
    match, seat = _match_and_seat(request, code)
    if seat is None:
        return forbidden(request, _("Only a player of this match can ask about their taps."))
    applied = bool(ACTION_ID.match(action_id)) and already_applied(match, action_id, seat.letter)
    response = JsonResponse({"applied": applied})
    response["Cache-Control"] = "no-store"
    return response


# What the service worker precaches: the files every page needs.
PRECACHE = (
    "vendor/htmx-2.0.11.min.js",
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
    Its version changes with the static files' contents, so phones update.

    The URLs come from the static storage as the pages name them: hashed
    names after collectstatic (`make run`), plain ones otherwise. The prefix
    is STATIC_URL itself: `static("")` asks the manifest storage for a file
    named "" and fails (issue 17: /sw.js was a 500 under `make run`)."""
    urls = [static(name) for name in PRECACHE]
    digest = hashlib.sha256("\n".join(urls).encode())
    for name in PRECACHE:
        found = finders.find(name)
        if found:
            with open(found, "rb") as handle:
                digest.update(handle.read())
    # The offline page is precached too: a new wording is a new worker.
    digest.update((settings.BASE_DIR / "templates/tracker/offline.html").read_bytes())
    body = render_to_string(
        "tracker/pwa/sw.js",
        {
            # JSON of our own URLs (no user input): valid JS literals.
            "precache_json": json.dumps(urls),
            "offline_url_json": json.dumps(reverse("offline")),
            "version": digest.hexdigest()[:12],
            "static_prefix_json": json.dumps(settings.STATIC_URL),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response

"""The event's audit pages (issue 21): every match verified, the phones'
receipts checked and kept on record (tracker/organizer/event_receipts.py),
and the standings and results as CSV. Thin: the report is
tracker/organizer/event_audit.py."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tracker import audit
from tracker.models import TournamentEvent
from tracker.organizer import event_audit, event_receipts
from tracker.organizer.access import organizer_required
from tracker.organizer.event_receipts import ReceiptsForm
from tracker.organizer.event_views import _event
from tracker.organizer.views import _download


def _audit_page(request, event: TournamentEvent, form=None, status: int = 200, **extra):
    context = {
        **event_audit.report(event),
        "receipts_form": form or ReceiptsForm(event=event),
        **extra,
    }
    return render(request, "organizer/event_audit.html", context, status=status)


@require_GET
@organizer_required
def event_audit_page(request, pk: int):
    return _audit_page(request, _event(pk))


@require_POST
@organizer_required
def event_receipts_check(request, pk: int):
    """Receipts read out from the phones: checked now and kept on record
    (tracker/organizer/event_receipts.py); a paste with any bad line
    records nothing and says which line; one that does not agree with its
    log waits for the organizer to read it back (_not_yet_recorded)."""
    event = _event(pk)
    form = ReceiptsForm(request.POST, event=event)
    if not form.is_valid():
        return _audit_page(request, event, form, status=400)
    typed = form.cleaned_data["receipts"]
    rows = event_audit.rows_of_matches(event)
    wrong = event_receipts.disagreeing(typed, rows)
    if wrong and request.POST.get("confirmed") != "1":
        return _not_yet_recorded(request, event, typed, wrong, rows)
    event_receipts.record(event, typed, request.user.get_username())
    if wrong:
        messages.error(
            request,
            ngettext(
                "%(count)s receipt does NOT agree with its match's log: see below.",
                "%(count)s receipts do NOT agree with their matches' logs: see below.",
                len(wrong),
            )
            % {"count": len(wrong)},
        )
    else:
        _say_recorded(request, typed)
    return redirect("organizer-event-audit", pk=event.pk)


def _say_recorded(request, typed: list) -> None:
    messages.success(
        request,
        ngettext(
            "%(count)s receipt recorded: it agrees with the log.",
            "%(count)s receipts recorded: each agrees with its log.",
            len(typed),
        )
        % {"count": len(typed)},
    )


def _not_yet_recorded(request, event, typed, wrong, rows):
    """A receipt that does not agree is most often a code mistyped: one kept
    on record said "NOT agree" on the event's audit for good. So those are
    not recorded yet: the box holds them again to be corrected, and a button
    records them as typed once the organizer has read them back from the
    phone. The ones that agree are recorded now."""
    agreeing = [t for t in typed if t not in wrong]
    if agreeing:
        event_receipts.record(event, agreeing, request.user.get_username())
        _say_recorded(request, agreeing)
    again = "\n".join(f"{t.match.code}, {t.seq}, {t.code}" for t in wrong)
    unconfirmed = [(t, audit.check_receipt(rows.get(t.match.pk, []), t.seq, t.code)) for t in wrong]
    form = ReceiptsForm(event=event, initial={"receipts": again})
    return _audit_page(request, event, form, unconfirmed=unconfirmed, unconfirmed_text=again)


@require_GET
@organizer_required
def standings_csv(request, pk: int):
    event = _event(pk)
    return _download(
        event_audit.standings_csv(event), "text/csv", f"event-{event.pk}-standings.csv"
    )


@require_GET
@organizer_required
def results_csv(request, pk: int):
    event = _event(pk)
    return _download(event_audit.results_csv(event), "text/csv", f"event-{event.pk}-results.csv")

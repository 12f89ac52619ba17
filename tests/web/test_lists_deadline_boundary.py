"""An event's army lists lock at the organizer's deadline itself (issue 21):
at that very moment a list is no longer taken, a moment before it still is."""

import datetime as dt

import pytest
from django.utils import timezone

from tracker.event_running import list_open_for, lists_locked
from tracker.models import EventPlayer, TournamentEvent

pytestmark = pytest.mark.django_db


def test_the_lists_lock_at_the_deadline_itself():
    deadline = timezone.now().replace(microsecond=0)
    event = TournamentEvent.objects.create(name="Spring Open", lists_deadline=deadline)
    ana = EventPlayer.objects.create(event=event, name="Ana", key="ana", joined_round=1)
    before = deadline - dt.timedelta(microseconds=1)
    assert not lists_locked(event, now=before) and list_open_for(ana, now=before)
    assert lists_locked(event, now=deadline) and not list_open_for(ana, now=deadline)

"""CL-3: Classified Objectives are chosen before the first turn, and the two
deployment seals start it. Two players at a venue sealed their deployments
without ever drawing (Classified is on by default), play began, and no card
could be drawn any more; nothing on either phone had said so. Until a player
has kept their cards, the deployment card says so above the seal, in the
phone's language. Through the rendered forms only."""

from __future__ import annotations

import pytest
from django.utils import translation

from tracker.models import Match
from tracker.reading import load_state
from tracker.rules.classified import config_of

from .phone_flows import lists_locked, seated

pytestmark = pytest.mark.django_db

WARNING = (
    "Your Classified Objectives are not kept yet: draw and keep them first (below). "
    "Once both deployments are sealed, no card can be drawn."
)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_seal_says_the_cards_come_first_until_they_are_kept(language):
    a, b = seated(language, language)
    lists_locked(a, b)
    a.submit("SetInitiative")
    with translation.override(language):
        warning = translation.gettext(WARNING)
    assert language == "en" or warning != WARNING
    for phone in (a, b):
        phone.open()
        assert phone.can("SealDeployment") and warning in phone.text

    a.submit("DrawClassified")
    kept = int(config_of(load_state(Match.objects.get(code=a.code)))["kept"])
    a.submit("KeepClassified", keep=[str(n) for n in range(kept)])
    assert a.error is None
    a.open()
    assert warning not in a.text and a.can("SealDeployment")
    b.open()
    assert warning in b.text  # Bob has not drawn yet

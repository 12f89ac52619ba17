"""A template naming something that does not resolve fails its test (#20)."""

import pytest
from django.template import Context, Engine, TemplateSyntaxError, engines

from tests.web.organizer_table import playing


def test_the_test_engine_raises_on_a_name_it_cannot_resolve():
    engine = engines["django"].engine
    with pytest.raises(TemplateSyntaxError, match="retreat_threshold"):
        engine.from_string("Retreat! at {{ view.retreat_threshold }}%").render(
            Context({"view": object()})
        )
    # A plain engine (what a server runs) renders the same as "Retreat! at %".
    assert Engine().from_string("Retreat! at {{ x.y }}%").render(Context({})) == "Retreat! at %"


class _WithoutName:
    """A player view that lost one attribute (as one removed from PlayerView would)."""

    def __init__(self, view):
        self._view = view

    def __getattr__(self, name):
        if name == "name":
            raise AttributeError(name)
        return getattr(self._view, name)


@pytest.mark.django_db
def test_a_real_block_naming_an_attribute_the_view_lost_fails(alice, bob):
    """The header block (templates/tracker/blocks/header.html) with the
    view it is given, then with a view that has no `name`: the first
    renders, the second raises instead of printing nothing."""
    from tracker.models import Match
    from tracker.reading import seen_by
    from tracker.rendering import context_for

    a, _b = playing(alice, bob)
    match = Match.objects.get(pk=a.match.pk)
    seat = match.seats.get(letter="A")
    context = context_for(seen_by(match, "A"), seat)
    template = engines["django"].get_template("tracker/blocks/header.html")
    assert 'id="blk-header"' in template.render({**context, "block": "header", "letter": None})
    context["view"] = _WithoutName(context["view"])
    with pytest.raises(TemplateSyntaxError, match="view.name"):
        template.render({**context, "block": "header", "letter": None})

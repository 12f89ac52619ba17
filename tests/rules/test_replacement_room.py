"""RP-3: what lacks room is an element the rules had to replace."""

import pytest

from tracker.rules.errors import NotAllowed
from tracker.rules.replacement import ReportNoRoom
from tracker.rules.state import ORDERS

from .hidden_games import started, to_phase


def test_equipment_lacks_room_only_where_the_rules_replaced_something_rp_3():
    """RP-3: only an element the rules had to replace can lack room, a piece
    of equipment included."""
    game = started()
    to_phase(game, ORDERS)
    with pytest.raises(NotAllowed) as refused:
        game.do("A", ReportNoRoom(trooper_id=game.id("Kaplan"), equipment=True))
    assert refused.value.rule == "RP-3"
    assert not [e for e in game.events if e.kind == "NoRoomReported"]

"""HoloMask (HE-9, RT-5): the troop type the opponent reads is a mask.

A trooper with the HoloMask trait seals, with its deployment, the troop type
shown to the opponent ("masked_as") beside its true one. The seal is private
and so is its existence (a fingerprint would say "this one is masked"); the
opponent's view names the trooper by the masked type (identity.py) until
HoloMask ends, then the seal is revealed with its proof:

- RT-5: an army entering Retreat! loses HoloMask (unless the trooper ignores
  Retreat!, RT-X1);
- its own cancellation: the seed (holoeco.es.txt) only says HoloMask
  combines with Holoecho and leaves automatic skills alone; when HoloMask
  ends otherwise is decided at the table, and its owner reveals it then
  (its registration's `ends`).

HE-9: combined with Holoecho, the first time the trooper activates in its
Active Turn a Holoecho token goes beside one of its models: the Order cannot
end until the owner has placed it (holoecho.PlaceHoloechoToken).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidInput, NotAllowed
from .events import Event
from .evolve import applies, evolve_all
from .i18n import _
from .identity import holomask_secret
from .orders import END_ORDER
from .retreat import RETREAT_ENTERED, ignores_retreat
from .sealing import (
    ONE_PER_TROOPER,
    OWNER,
    TEXT,
    SecretKind,
    _clean_text,
    _own_trooper,
    register_kind,
    reveal,
)
from .state import HOLOMASK, HOLOMASK_TYPE, MatchState, Secret

MAX_COST = 200  # as an army list row (setup.py)


@dataclass(frozen=True, kw_only=True)
class HoloMaskEnded(Event):
    """Public, after the reveal: the opponent now reads the true troop type."""

    trooper_id: str
    trooper_name: str
    seat: str
    masked_as: str

    def describe(self) -> tuple[str, dict]:
        if self.rule == "RT-5":
            message = _(
                "Retreat! ends HoloMask (RT-5): the trooper shown as %(masked_as)s is "
                "%(trooper_name)s, as sealed."
            )
        else:
            message = _(
                "HoloMask ends: the trooper shown as %(masked_as)s is %(trooper_name)s, as sealed."
            )
        return message, self.to_data()


def _seal_mask(state: MatchState, seat: str, raw: dict) -> tuple[dict, str | None, bool]:
    trooper = _own_trooper(state, seat, raw.get("trooper_id"))
    if not trooper.has(HOLOMASK):
        raise InvalidInput(_("%(name)s has no HoloMask."), name=trooper.name)
    masked_as = _clean_text(raw.get("masked_as"), _("The troop type shown"))[:60]
    try:
        masked_cost = int(raw.get("masked_cost"))
    except (TypeError, ValueError):
        raise InvalidInput(_("Write the points of the troop type shown (HE-9).")) from None
    if not 0 <= masked_cost <= MAX_COST:
        raise InvalidInput(_("Write the points of the troop type shown (HE-9)."))
    payload = {
        "trooper_id": trooper.id,
        "name": trooper.name,
        "cost": trooper.cost,
        "masked_as": masked_as,
        # Shown in place of its cost: a masked line without points would
        # single the masked trooper out.
        "masked_cost": masked_cost,
    }
    # Private, existence included: a fingerprint would tell which one is masked.
    return payload, trooper.id, False


def _ended(state: MatchState, secret: Secret, rule: str) -> list[Event]:
    """REVEAL_CONSEQUENCES[HOLOMASK_TYPE]."""
    return [
        HoloMaskEnded(
            trooper_id=str(secret.trooper_id),
            trooper_name=str(secret.payload.get("name", "")),
            seat=secret.seat,
            masked_as=str(secret.payload.get("masked_as", "")),
            rule=rule,
        )
    ]


def _retreat(state: MatchState, seat: str) -> list[Event]:
    """RT-5: HoloMask ends with Retreat!."""
    events: list[Event] = []
    after = state
    for trooper in state.troopers_of(seat):
        secret = holomask_secret(after, trooper.id)
        if secret is None or ignores_retreat(trooper) or trooper.out_of_action:
            continue
        more = reveal(after, secret, "RT-5")
        events += more
        after = evolve_all(after, more)
    return events


def _token_before_end(state: MatchState) -> list[Event]:
    """HE-9: with HoloMask and Holoecho, the Holoecho token must be on the
    table by the end of the trooper's first Order in its Active Turn."""
    turn = state.turn
    assert turn is not None and turn.order is not None
    trooper = state.troopers.get(turn.order.trooper_id)
    if (
        trooper is not None
        and trooper.seat == turn.seat
        and trooper.has(HOLOMASK)
        and trooper.holoechoes
        and not trooper.holoecho_token
    ):
        raise NotAllowed(
            _(
                "Place the Holoecho token beside one of the models first: it goes down the "
                "first time this trooper activates in your Active Turn (HE-9)."
            ),
            rule="HE-9",
        )
    return []


@applies(HoloMaskEnded)
def _mask_off(state: MatchState, event: HoloMaskEnded) -> MatchState:
    return state  # the reveal itself closed the seal; identity.py reads that


register_kind(
    SecretKind(
        kind=HOLOMASK_TYPE,
        names=TEXT,  # the troop type shown
        per_seat=ONE_PER_TROOPER,
        seal=_seal_mask,
        required_for=lambda trooper: trooper.has(HOLOMASK),
        missing=_("Write the troop type %(name)s shows your opponent (HoloMask, HE-9)."),
        missing_rule="HE-9",
        ends=("RT-5", OWNER),
        on_reveal=_ended,
    )
)
RETREAT_ENTERED.append(_retreat)
END_ORDER.insert(0, _token_before_end)

"""TM — Command Tokens: 4 per player per game; spending one is public.

Every use goes through `spend_token`, which checks the use's window (TM-0 and
the windows of TM-S1, TM-S2, TM-E, TM-T), the once-per-game Strategic Use and
the TM-S2 limit in one place. `open_uses` asks the same question for the
phone, so what a phone offers and what the server accepts cannot drift apart.

The uses themselves live in token_uses.py (TM-S2, TM-E1/E2) and
token_tactical.py (TM-T1..T6); the reserve of TM-S1 is sealed in sealing.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidInput, NotAllowed, RuleViolation
from .events import Event
from .evolve import applies
from .i18n import _
from .state import DEPLOYMENT, PLAYING, TACTICAL, MatchState, other_seat

STRATEGIC = ("TM-S1", "TM-S2")
EXECUTIVE = ("TM-E1", "TM-E2")
TACTICAL_USES = ("TM-T1", "TM-T2", "TM-T3", "TM-T4", "TM-T5", "TM-T6")
USES = STRATEGIC + EXECUTIVE + TACTICAL_USES

# Public keys of Turn.extra written by TM-S2 (visibility reads them by name).
STRATEGIC_USED = "strategic"  # the TM-S2 option used this Turn
TOKEN_LIMIT = "token_limit"  # noqa: S105 (not a password: most tokens spendable this Turn)
CANCELLED = "cancelled"  # {"group": Regular Orders cancelled}
# Public keys of Turn.extra for the steps of the Tactical Phase: the Order
# Count was made (the Executive Use step is over), and the second player let
# the TM-S2 moment at its end pass.
ORDERS_COUNTED = "orders_counted"
S2_DECLINED = "s2_declined"
# Order.extra key: the ids of the troopers taking part in a Coordinated Order
# (TM-T1); the first one carries the Order in orders.py.
COORDINATED = "coordinated"


@dataclass(frozen=True, kw_only=True)
class CommandTokenSpent(Event):
    seat: str
    use: str  # the rule ID of the use, e.g. "TM-S1"
    describe_as = _("%(seat_name)s spent a Command Token (%(use)s).")


def check_window(state: MatchState, seat: str, use: str) -> None:
    """Refuse, naming the rule, when `seat` may not spend a token on `use` now."""
    if use not in USES:
        raise InvalidInput(_("Unknown Command Token use."))
    if use == "TM-S1":
        _check_reserve_window(state, seat)
    else:
        _check_play_window(state, seat, use)
    mine = state.seat(seat)
    if mine.command_tokens <= 0:
        raise NotAllowed(_("You have no Command Tokens left."), rule=use)
    if use in STRATEGIC and mine.strategic_used:
        raise NotAllowed(
            _("The Strategic Use of Command Tokens is made only once per game (%(use)s)."),
            rule=use,
            use=use,
        )
    turn = state.turn
    limit = turn.extra.get(TOKEN_LIMIT) if turn is not None and turn.seat == seat else None
    if limit is not None and turn.tokens_spent >= limit:
        raise NotAllowed(
            _("Your opponent limited you to %(limit)s Command Token this Turn (TM-S2)."),
            rule="TM-S2",
            limit=limit,
        )


def _check_reserve_window(state: MatchState, seat: str) -> None:
    # TM-S1: the player with the first Player Turn, during its Deployment.
    if state.phase != DEPLOYMENT:
        raise NotAllowed(_("The reserve is made during deployment (TM-S1)."), rule="TM-S1")
    if state.first_turn != seat:
        raise NotAllowed(
            _("Only the player with the first Player Turn may reserve an extra trooper (TM-S1)."),
            rule="TM-S1",
        )


def _check_play_window(state: MatchState, seat: str, use: str) -> None:
    turn = state.turn
    if state.phase != PLAYING or turn is None:
        raise NotAllowed(_("Command Tokens are used while the match is in play."), rule=use)
    if use == "TM-S2":
        _check_s2_window(state, seat)
        return
    if turn.seat != seat:
        raise NotAllowed(
            _("Command Tokens cannot be used in the Reactive Turn (TM-0)."), rule="TM-0"
        )
    if use in EXECUTIVE:
        if turn.phase != TACTICAL:
            raise NotAllowed(
                _("Executive Use is made in the Tactical Phase of your Player Turn (%(use)s)."),
                rule=use,
                use=use,
            )
        if turn.extra.get(ORDERS_COUNTED):
            # The Executive Use step comes before the Order Count.
            raise NotAllowed(
                _("The Executive Use step ended with your Order Count (%(use)s)."),
                rule=use,
                use=use,
            )
    if s2_deciding(state) not in (None, seat):
        # TM-S2 is taken "al final del Recuento de Órdenes": nothing of the
        # active player's comes between her count and the opponent's choice,
        # or she could spend past a limit he is about to set.
        raise NotAllowed(
            _(
                "Your opponent is deciding whether to use a Command Token strategically "
                "at the end of your Order Count (TM-S2)."
            ),
            rule="TM-S2",
        )


def _check_s2_window(state: MatchState, seat: str) -> None:
    # TM-S2 is the one use spent in the opponent's Turn: an exception to TM-0.
    turn = state.turn
    assert turn is not None
    first = state.first_turn
    if first is None or seat != other_seat(first):
        raise NotAllowed(
            _("Only the player with the second Player Turn may use this (TM-S2)."), rule="TM-S2"
        )
    at_count_end = turn.extra.get(ORDERS_COUNTED) and not turn.extra.get(S2_DECLINED)
    if turn.round != 1 or turn.seat != first or turn.phase != TACTICAL or not at_count_end:
        raise NotAllowed(
            _(
                "This Strategic Use is made in the Tactical Phase of your opponent's first "
                "Player Turn, after their Order Count (TM-S2)."
            ),
            rule="TM-S2",
        )
    if STRATEGIC_USED in turn.extra:
        raise NotAllowed(_("Only one Strategic Use option may be chosen (TM-S2)."), rule="TM-S2")


def s2_deciding(state: MatchState) -> str | None:
    """The seat that has yet to decide on TM-S2 now, or None. The moment is
    the end of the first player's Order Count in its first Tactical Phase;
    the second player uses one option or lets it pass, and until then the
    Tactical Phase cannot end (the choice stays with her)."""
    turn = state.turn
    first = state.first_turn
    if state.phase != PLAYING or turn is None or first is None:
        return None
    if turn.round != 1 or turn.seat != first or turn.phase != TACTICAL:
        return None
    if not turn.extra.get(ORDERS_COUNTED) or turn.extra.get(S2_DECLINED):
        return None
    if STRATEGIC_USED in turn.extra:
        return None
    second = state.seat(other_seat(first))
    if second.command_tokens <= 0 or second.strategic_used:
        return None
    return second.seat


def spend_token(state: MatchState, seat: str, use: str) -> CommandTokenSpent:
    """The event for spending one token on `use`, or a refusal naming the rule."""
    check_window(state, seat, use)
    return CommandTokenSpent(seat=seat, use=use, rule=use)


def open_uses(state: MatchState, seat: str | None) -> tuple[str, ...]:
    """The uses whose window is open for `seat` now (targets are checked on use)."""
    if seat is None:
        return ()
    found = []
    for use in USES:
        try:
            check_window(state, seat, use)
        except RuleViolation:
            continue
        found.append(use)
    return tuple(found)


@applies(CommandTokenSpent)
def _spent(state: MatchState, event: CommandTokenSpent) -> MatchState:
    seat = state.seat(event.seat)
    state = state.with_seat(event.seat, command_tokens=seat.command_tokens - 1)
    if event.use in STRATEGIC:
        state = state.with_seat(event.seat, strategic_used=True)
    if state.turn is not None and state.turn.seat == event.seat:
        state = state.with_turn(tokens_spent=state.turn.tokens_spent + 1)
    return state

"""What the phone shows as a banner at the top of the match page (issue 10).

Built only from the viewer's own redacted log lines and own view, like the
rest of the page: a reveal banner shows a secret's payload only when the
viewer's view carries it (it is revealed, or it is the viewer's own).
"""

from django import template

from tracker.rules.state import DEAD, FINISHED

register = template.Library()

# Events every phone must not miss, whoever's they are.
FOR_EVERYONE = {"SecretRevealed", "RetreatDeclared", "RetreatEnded", "OrganizerViewedSecrets"}
# Rulings that ask the player they name to do something at the table.
ASKS_THE_PLAYER = {"ElementReplaced", "HiddenDeploymentEnded", "HoloechoEnded"}
MAX_BANNERS = 6


def _secret(view, seat: str | None, secret_id: str | None):
    for candidate in view.seats:
        if seat and candidate.seat != seat:
            continue
        for secret in candidate.secrets:
            if secret.id == secret_id:
                return secret
    return None


def _banner(line, secret=None, asks: bool = False, withheld: bool = False) -> dict:
    return {"line": line, "kind": line.kind, "secret": secret, "asks": asks, "withheld": withheld}


@register.simple_tag
def banners_for(view, log) -> list[dict]:
    """[{"line", "kind", "secret", "asks", "withheld"}], newest first: what
    this viewer is shown until this phone acknowledges it (static/tracker/app.js).
    `withheld`: a reveal whose seal this viewer cannot open yet."""
    found = []
    # Newest first, so a superseding line is met before the one it ends
    # (issue 19): "is in Retreat!" goes once "no longer in Retreat!" comes,
    # and an organizer's peek shows once, the latest.
    retreat_ended: set = set()
    peeked = False
    for line in reversed(log):
        params = line.params or {}
        if line.kind == "RetreatEnded":
            retreat_ended.add(params.get("seat"))
        elif line.kind == "RetreatDeclared" and params.get("seat") in retreat_ended:
            continue
        if line.kind == "OrganizerViewedSecrets":
            if peeked:
                continue
            peeked = True
        if line.kind in FOR_EVERYONE:
            secret, withheld = None, False
            if line.kind == "SecretRevealed":
                secret = _secret(view, params.get("seat"), params.get("secret_id"))
                if secret is not None and not secret.revealed:
                    # A rule revealed it, but it names a trooper this viewer
                    # still knows as a marker (visibility._under_marker).
                    secret, withheld = None, True
            found.append(_banner(line, secret=secret, withheld=withheld))
        elif (
            line.kind in ASKS_THE_PLAYER
            and view.viewer
            and params.get("seat") == view.viewer
            and _still_asks(view, params.get("trooper_id"))
        ):
            found.append(_banner(line, asks=True))
        if len(found) >= MAX_BANNERS:
            break
    return found


def _still_asks(view, trooper_id: str | None) -> bool:
    """A ruling's "act at the table" (place the model, remove the decoys)
    is moot once the match is over, or once its trooper is dead: such
    banners stayed up to the end, about a trooper long gone."""
    if view.phase == FINISHED:
        return False
    for seat in view.seats:
        for trooper in seat.troopers:
            if trooper.id == trooper_id:
                return trooper.condition != DEAD
    return True


@register.simple_tag
def current_order(log) -> dict:
    """What this viewer's log says of the Order in progress (issue 19): its
    kind (Regular, Irregular, Impetuous), the skills it declared and the AROs
    declared against it, for the ARO card and the active player's Order card.
    Read from the viewer's own redacted log lines (the log block's), so it
    names nothing that block does not: a hidden trooper's Order (HD-3) starts
    with a line its opponent never gets, and is not described to them."""
    found = {"source": "", "skills": [], "aros": []}
    for line in reversed(log):
        if line.kind == "OrderEnded":
            break
        params = line.params or {}
        if line.kind == "SkillDeclared":
            if params.get("aro"):
                found["aros"].insert(0, line)
            else:
                found["skills"].insert(0, params.get("skill", ""))
        elif line.kind == "OrderStarted":
            found["source"] = params.get("source", "")
            break
    return found

"""What the phone shows as a banner at the top of the match page (issue 10).

Built only from the viewer's own redacted log lines and own view, like the
rest of the page: a reveal banner shows a secret's payload only when the
viewer's view carries it (it is revealed, or it is the viewer's own).
"""

from django import template

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


@register.simple_tag
def banners_for(view, log) -> list[dict]:
    """[{"line", "kind", "secret", "asks"}], newest first: what this viewer is
    shown until this phone acknowledges it (static/tracker/app.js)."""
    found = []
    for line in reversed(log):
        params = line.params or {}
        if line.kind in FOR_EVERYONE:
            secret = None
            if line.kind == "SecretRevealed":
                secret = _secret(view, params.get("seat"), params.get("secret_id"))
                if secret is not None and not secret.revealed:
                    secret = None
            found.append({"line": line, "kind": line.kind, "secret": secret, "asks": False})
        elif line.kind in ASKS_THE_PLAYER and view.viewer and params.get("seat") == view.viewer:
            found.append({"line": line, "kind": line.kind, "secret": None, "asks": True})
        if len(found) >= MAX_BANNERS:
            break
    return found

"""The floor of this stack for `make bench` (issue 18): a bare Django action.

What every tap pays before the tracker does anything of its own: the same
HTTP server and thread pool (tracker/http.py), the same middleware (session,
CSRF, locale, htmx, busy...), one row written in a transaction, and one
group_send to the match's two sockets, handed to the server's loop as the
write path hands its announcements (tracker/announce.py). The sockets are
bench/relay.py's bare consumers. Mounted only by bench/asgi.py.

GET gives the CSRF cookie and token; POST `n` writes the row and pushes
`<div id="seq" data-seq="n">` to the group.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseBadRequest
from django.middleware.csrf import get_token

from tracker.announce import on_server_loop

TABLE = "bench_bare_action"
_made = False


def _table() -> None:
    # Portable SQL (SQLite and PostgreSQL), made on first use: no migration
    # for a table only the bench writes.
    global _made
    if not _made:
        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} (name varchar(64), seq integer, body text)"
            )
        _made = True


def bare_action(request, name: str):
    if request.method != "POST":
        return HttpResponse(get_token(request), content_type="text/plain")
    try:
        seq = int(request.POST.get("n", ""))
    except ValueError:
        return HttpResponseBadRequest("n")
    _table()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (name, seq, body) VALUES (%s, %s, %s)",  # noqa: S608 (constant)
            [name, seq, request.POST.get("body", "")],
        )
    text = f'<div id="seq" data-seq="{seq}"></div>'
    layer = get_channel_layer()
    sending = layer.group_send("relay-" + name, {"type": "relay.message", "text": text})
    if not on_server_loop(sending):
        async_to_sync(layer.group_send)("relay-" + name, {"type": "relay.message", "text": text})
    return HttpResponse(text)

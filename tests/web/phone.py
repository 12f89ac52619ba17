"""A phone at the table: taps forms found in the HTML it was last sent.

Built on django-webtest (a real cookie jar, CSRF enforced as in production)
and webtest's form parser. The match page's forms post through htmx
(`hx-post`, no `action`), which webtest cannot submit on its own, so this
module does the few things htmx does on a submit:

- the form's `hx-post` URL is the action;
- the body is the form's own successful controls, url-encoded, plus the
  per-tap `action_id` that static/tracker/app.js adds;
- headers: `HX-Request: true`, `HX-Current-URL`, and the `hx-headers` JSON
  inherited from the form's ancestors (the page puts the CSRF token on
  `<body hx-headers='{"X-CSRFToken": ...}'>`).

A test may only set fields the form renders: a select by option value or
label, a radio by value or label, a checkbox True/False, a text input by its
text. Hidden inputs are read-only (as on a phone) and, like any given value,
serve to pick the form: `submit("ReportNoRoom", trooper_id=ids["Ninja"])`
takes the one ReportNoRoom form whose hidden trooper_id is that trooper.

    phone = Phone.seated(code, seat_url, "Alice")  # or Phone(); phone.visit(url)
    phone.submit("DeclareAro", trooper_id="Fusilier", skill="BS Attack")
    assert phone.error is None
    assert "Fusilier" in phone.html

Plain forms (`action`/`method="post"`: create a match, claim a seat) go
through the same `submit`, without the htmx headers, following redirects.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import secrets
from dataclasses import dataclass
from urllib.parse import urljoin, urlparse

from bs4 import BeautifulSoup, Tag
from django_webtest import DjangoTestApp
from webtest.forms import Checkbox, Form, Hidden, MultipleSelect, Radio, Select, Submit

__all__ = [
    "Checkbox",
    "Hidden",
    "Phone",
    "PhoneError",
    "Radio",
    "RenderedForm",
    "Select",
    "phone_app",
]

_taps = itertools.count(1)


def phone_app(extra_environ: dict) -> DjangoTestApp:
    """A phone's browser: its forms parsed as a browser parses them (lxml;
    the pages leave out `</option>`, tracker/template_loaders.py, and
    html.parser would nest each option inside the one before)."""
    return DjangoTestApp(extra_environ=extra_environ, parser_features="lxml")


# Words the views use for a refusal that is the page's fault (a field the
# form did not send or sent ill-formed), not a rule of the game.
MALFORMED_MARKERS = ("Some information is missing", "Falta información")


class PhoneError(AssertionError):
    """The page does not let a player do what the test asked."""


def new_action_id() -> str:
    """One tap, as app.js makes it: random, url-safe, 8-64 characters."""
    return f"tap{next(_taps):05d}{secrets.token_hex(6)}"


@dataclass
class RenderedForm:
    """One form as the page rendered it."""

    url: str  # where it posts (hx-post, or action)
    htmx: bool
    node: Tag  # the <form> element in the page's tree
    form: Form  # webtest's view of its controls

    @property
    def command(self) -> str:
        """The command name: `DeclareAro` for /m/x/act/DeclareAro/,
        `draft/add` for /m/x/draft/add/."""
        parts = [p for p in urlparse(self.url).path.split("/") if p]
        if "act" in parts and parts.index("act") + 1 < len(parts):
            return parts[parts.index("act") + 1]
        return "/".join(parts[-2:]) if len(parts) >= 2 else "/".join(parts)

    @property
    def text(self) -> str:
        return " ".join(self.node.get_text(" ").split())

    @property
    def confirm(self) -> str | None:
        return self.node.get("hx-confirm")

    def names(self) -> set[str]:
        return {name for name in self.form.fields if name}

    def fill(self, values: dict[str, object]) -> None:
        """Set each value on a control the form renders, or raise. The page's
        State form (data-state-form) takes its trooper from a tap on that
        trooper's row, as app.js does (tap_row)."""
        if "trooper_id" in values and self.node.has_attr("data-state-form"):
            values = {**values, "trooper_id": self.tap_row(str(values["trooper_id"]))}
        for name, value in values.items():
            _fill_one(self, name, value)

    def tap_row(self, trooper: str) -> str:
        """What app.js does when a row's name is tapped (issue 18): the State
        form gets that trooper's id and its state as the row shows it
        (data-cond, data-tokens, data-no-room), RP-3's kept Immobilized-A
        ticked and disabled and sent by the hidden input. Only a row whose
        name is a button (this viewer may set its state) can be tapped;
        `trooper` is its id or its name as shown. Returns its id."""
        page = self.node
        while page.parent is not None:
            page = page.parent
        rows = [
            row
            for row in page.select("li.trooper")
            if row.select_one(":scope > button.name") is not None
            and trooper
            in (row["id"].removeprefix("trooper-"), row.select_one(".name").get_text(strip=True))
        ]
        if len(rows) != 1:
            raise PhoneError(f"no row offers a tap on {trooper!r} for its state")
        row = rows[0]
        tapped = row["id"].removeprefix("trooper-")
        tokens = set((row.get("data-tokens") or "").split())
        no_room = row.has_attr("data-no-room")
        in_holoecho = row.has_attr("data-holoecho")
        self.node.select_one('input[name="trooper_id"]')["value"] = tapped
        cond = row.get("data-cond") or "normal"
        for option in self.node.select('select[name="condition"] option'):
            if option["value"] == cond:
                option["selected"] = ""
            else:
                del option["selected"]
            # HE-C4: no out-of-action condition for a row in Holoecho.
            if in_holoecho and option.has_attr("data-out") and option["value"] != cond:
                option["disabled"] = ""
            else:
                del option["disabled"]
        for box in self.node.select('input[type="checkbox"][name="tokens"]'):
            kept = no_room and box["value"] == "immobilized_a"
            for attr, on in (("checked", kept or box["value"] in tokens), ("disabled", kept)):
                if on:
                    box[attr] = ""
                else:
                    del box[attr]
        for element in self.node.select("[data-rp3]"):
            attr = "disabled" if element.name == "input" else "hidden"
            if no_room:
                del element[attr]
            else:
                element[attr] = ""
        self.form = _parse(self.node)
        return tapped

    def fields(self) -> list[tuple[str, str]]:
        """What a browser would send: enabled named controls, checked boxes
        and radios, every select's chosen option; no button value (no button
        of these forms has a name)."""
        sent = []
        for name, value in self.form.submit_fields():
            field = _first(self.form, name)
            if field is not None and "disabled" in field.attrs:
                continue
            if isinstance(field, Submit):
                continue
            sent.append((name, "" if value is None else str(value)))
        return sent

    def missing_required(self) -> list[str]:
        """Required controls left empty: a browser would not submit."""
        sent = dict(self.fields())
        return [
            name
            for name, fields in self.form.fields.items()
            if name
            and any("required" in f.attrs for f in fields)
            and not any(isinstance(f, Hidden) for f in fields)
            and not sent.get(name)
        ]


def _first(form: Form, name: str):
    fields = form.fields.get(name)
    return fields[0] if fields else None


def _labels_of(node: Tag, name: str) -> dict[str, str]:
    """value -> visible text, for radios/checkboxes/options named `name`."""
    out: dict[str, str] = {}
    for option in node.select(f'select[name="{name}"] option'):
        if option.has_attr("disabled"):
            continue  # a player cannot pick it
        text = " ".join(option.get_text().split())
        # An option in a group reads as the player sees it: "Kaplan" under
        # "Alice" is Alice's Kaplan ("Kaplan (Alice)").
        group = option.find_parent("optgroup")
        if group is not None and group.get("label"):
            text = f"{text} ({group['label']})"
        out[option.get("value", option.get_text())] = text
    for box in node.select(f'input[name="{name}"]'):
        label = box.find_parent("label")
        if label is not None:
            out[box.get("value", "on")] = " ".join(label.get_text(" ").split())
    return out


def _pick(rendered: RenderedForm, name: str, wanted: str) -> str:
    """The option value a player picks when they tap `wanted`: an exact
    value, else an exact label, else the one label containing it."""
    labels = _labels_of(rendered.node, name)
    if wanted in labels:
        return wanted
    exact = [v for v, text in labels.items() if text == wanted]
    if len(exact) == 1:
        return exact[0]
    partial = [v for v, text in labels.items() if wanted.lower() in text.lower()]
    if len(partial) == 1:
        return partial[0]
    raise PhoneError(
        f"{rendered.command}: no single choice {wanted!r} for {name!r} "
        f"(the page offers {sorted(labels.values())})"
    )


def _fill_one(rendered: RenderedForm, name: str, value: object) -> None:
    fields = rendered.form.fields.get(name)
    if not fields:
        raise PhoneError(
            f"{rendered.command}: the form renders no field {name!r} "
            f"(it renders {sorted(rendered.names())})"
        )
    # Hidden inputs beside boxes of the same name (RP-3's kept
    # Immobilized-A) are sent as they are: the player ticks the boxes.
    boxes = [f for f in fields if isinstance(f, Checkbox)]
    if boxes and all(isinstance(f, Checkbox | Hidden) for f in fields):
        fields = boxes
    first = fields[0]
    if all(isinstance(f, Checkbox) for f in fields):
        if isinstance(value, bool):
            if len(fields) != 1:
                raise PhoneError(f"{name!r} has several boxes: give the labels or values to tick")
            fields[0].checked = value
            return
        wanted = value if isinstance(value, list | tuple | set) else [value]
        values = {_pick(rendered, name, str(w)) for w in wanted}
        for box in fields:
            box.checked = (box._value or "on") in values
        return
    if len(fields) != 1:
        raise PhoneError(f"{rendered.command}: several fields named {name!r}")
    if isinstance(first, Hidden):
        if str(first.value) != str(value):
            raise PhoneError(
                f"{rendered.command}: {name!r} is hidden with {first.value!r}; "
                f"a player cannot make it {value!r}"
            )
        return
    if isinstance(first, MultipleSelect):
        first.value = [_pick(rendered, name, str(v)) for v in value]  # type: ignore[union-attr]
    elif isinstance(first, Radio | Select):
        first.value = _pick(rendered, name, str(value))
    elif isinstance(first, Submit):
        raise PhoneError(f"{name!r} is a button, not a field")
    else:
        first.value = "" if value is None else str(value)


def _tap_map(rendered: RenderedForm, x_id: str, x: int, y: int) -> None:
    """What app.js does on a tap on the table map: whole millimetres into the
    two hidden inputs the map names (data-x, data-y)."""
    svg = rendered.node.select_one(f'svg.tablemap[data-x="{x_id}"]')
    if svg is None:
        raise PhoneError(f"{rendered.command}: no table map writes {x_id!r}")
    for field_id, value in ((svg["data-x"], x), (svg["data-y"], y)):
        node = rendered.node.select_one(f"#{field_id}")
        _first(rendered.form, node["name"]).force_value(str(max(0, min(1200, int(value)))))


def _could_fill(rendered: RenderedForm, values: dict[str, object]) -> bool:
    try:
        probe = RenderedForm(rendered.url, rendered.htmx, rendered.node, _parse(rendered.node))
        probe.fill(values)
    except (PhoneError, ValueError, AssertionError):
        return False
    return True


def _parse(node: Tag) -> Form:
    # webtest's Form wants a response only for forms with an id (controls
    # outside the form); ours have none, so the form's own HTML is enough.
    # A disabled control is neither sent nor changed by a player: left out.
    enabled = copy.copy(node)
    for control in enabled.select("input[disabled], select[disabled], textarea[disabled]"):
        control.decompose()
    return Form(None, str(enabled))


def _hx_headers(node: Tag) -> dict[str, str]:
    """hx-headers as htmx merges them: the nearest element wins."""
    merged: dict[str, str] = {}
    for element in [node, *node.parents]:
        raw = element.get("hx-headers") if isinstance(element, Tag) else None
        if raw:
            for key, value in json.loads(raw).items():
                merged.setdefault(key, value)
    return merged


class Phone:
    """One player's phone: its own cookies, the HTML it was last sent."""

    def __init__(self, language: str | None = None, app: DjangoTestApp | None = None):
        environ = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
        self.app = app or phone_app(environ)
        self.language = language
        if language:
            from django.conf import settings

            self.app.set_cookie(settings.LANGUAGE_COOKIE_NAME, language)
        self.url = "/"
        self.html = ""
        self.last = None  # the response to the last submit
        self.code: str | None = None
        # app.js names the blocks a match page shows on every tap; False
        # plays a page whose script does not (all blocks come back).
        self.names_blocks = True
        # app.js stamps each tap with the moment it gives up on it, in the
        # server's clock (X-Tracker-Deadline, ms; issue 17); None plays a
        # page whose script does not (or has no clock reading yet).
        self.tap_deadline_ms: int | None = None
        # "Send it again" (app.js) names the seq of the page the tap was
        # first made on (X-Tracker-Again); None plays a first send.
        self.again_from_seq: int | None = None

    # -- reading -----------------------------------------------------------

    def visit(self, url: str):
        response = self.app.get(url).maybe_follow()
        self.url = response.request.path_qs
        self.html = response.text
        return response

    def visit_forms(self, url: str) -> list[RenderedForm]:
        """The forms `url` renders for this phone."""
        self.visit(url)
        return self.forms()

    def open(self, code: str | None = None):
        """Load the match page (the last match, by default)."""
        self.code = code or self.code
        if not self.code:
            raise PhoneError("no match to open yet")
        return self.visit(f"/m/{self.code}/")

    @property
    def soup(self) -> BeautifulSoup:
        return BeautifulSoup(self.html, "lxml")

    @property
    def text(self) -> str:
        """The page's visible words, whitespace squeezed."""
        soup = self.soup
        for hidden in soup(["script", "style"]):
            hidden.decompose()
        return " ".join(soup.get_text(" ").split())

    @property
    def error(self) -> str | None:
        """The refusal the last submit answered with, if any."""
        if self.last is None:
            return None
        found = BeautifulSoup(self.last.text, "lxml").select_one("p.error[role=alert]")
        if found is None:
            found = BeautifulSoup(self.last.text, "lxml").select_one(".errorlist")
        return " ".join(found.get_text(" ").split()) if found else None

    # -- forms ---------------------------------------------------------------

    def forms(self, command: str | None = None) -> list[RenderedForm]:
        found = []
        for node in self.soup.find_all("form"):
            htmx = node.has_attr("hx-post")
            if not htmx and node.get("method", "get").lower() != "post":
                continue
            url = urljoin(self.url, node.get("hx-post") or node.get("action") or self.url)
            rendered = RenderedForm(url, htmx, node, _parse(node))
            if command is None or command in (rendered.command, rendered.command.split("/")[-1]):
                found.append(rendered)
        return found

    def form(self, command: str, shows: str | None = None, **values) -> RenderedForm:
        """The one rendered form for `command` whose text includes `shows` and
        that can take `values`."""
        candidates = self.forms(command)
        if not candidates:
            shown = sorted({f.command for f in self.forms()})
            raise PhoneError(f"the page shows no {command} form (it shows {shown})")
        if shows is not None:
            candidates = [f for f in candidates if shows.lower() in f.text.lower()]
        fitting = [f for f in candidates if _could_fill(f, values)]
        if len(fitting) == 1:
            found = fitting[0]
            # As the probe left it (the State form tapped from a row).
            found.form = _parse(found.node)
            return found
        if not fitting:
            # Fill the first candidate for real to raise its precise reason.
            if candidates:
                candidates[0].fill(values)
            raise PhoneError(f"no {command} form shows {shows!r}")
        raise PhoneError(
            f"{len(fitting)} {command} forms fit {values} {shows or ''}: "
            f"give shows= or a field that tells them apart"
        )

    def can(self, command: str, shows: str | None = None, **values) -> bool:
        try:
            self.form(command, shows, **values)
        except PhoneError:
            return False
        return True

    def submit(
        self,
        command: str,
        *,
        shows: str | None = None,
        action_id: str | None = None,
        map_taps: dict[str, tuple[int, int]] | None = None,
        **values,
    ):
        """Tap `command`'s form with `values` filled, then re-read the page.
        Returns the response to the submit; `self.error` holds its refusal.

        `map_taps` taps a table map as app.js does: {"hd_x_<id>": (x, y)}
        writes the two hidden inputs an `svg.tablemap` of the form names."""
        rendered = self.form(command, shows, **values)
        rendered.fill(values)
        for x_id, (x, y) in (map_taps or {}).items():
            _tap_map(rendered, x_id, x, y)
        return self.send(rendered, action_id=action_id)

    def send(self, rendered: RenderedForm, action_id: str | None = None, reload: bool = True):
        """Submit a form as the browser would, as it stands."""
        missing = rendered.missing_required()
        if missing:
            raise PhoneError(f"{rendered.command}: the browser would ask first for {missing}")
        fields = rendered.fields()
        if not rendered.htmx:
            response = self.app.post(rendered.url, fields, expect_errors=True)
            response = response.maybe_follow()
            self.last = response
            self.url = response.request.path_qs
            self.html = response.text
            if "/m/" in self.url:
                self.code = self.url.split("/")[2]
            return response
        fields.append(("action_id", action_id or new_action_id()))
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": f"http://testserver{self.url}",
            **_hx_headers(rendered.node),
        }
        # As app.js does on a match page: the blocks it shows, by digest, so
        # the answer carries only what changed.
        shown = re.findall(r'<section data-h="([0-9a-f]{16})"', self.html or "")
        if self.names_blocks and shown and 'id="live"' in self.html:
            headers["X-Tracker-Shown"] = ".".join(shown)
        if self.tap_deadline_ms is not None and 'id="live"' in self.html:
            headers["X-Tracker-Deadline"] = str(self.tap_deadline_ms)
        if self.again_from_seq is not None:
            headers["X-Tracker-Again"] = str(self.again_from_seq)
        response = self.app.post(rendered.url, fields, headers=headers, expect_errors=True)
        self.last = response
        if response.status_code != 200:
            raise PhoneError(
                f"{rendered.command} answered {response.status_code}: {response.text[:300]}"
            )
        if reload:
            self.visit(self.url)
        return response

    def trooper_id(self, name: str) -> str:
        """The id of the trooper this page lists under `name`."""
        for item in self.soup.select("li.trooper"):
            shown = item.select_one(".name")
            if shown is not None and shown.get_text(strip=True) == name:
                return item["id"].removeprefix("trooper-")
        raise PhoneError(f"this page lists no trooper named {name!r}")

    # -- getting to a match ----------------------------------------------------

    def create_match(self, name: str = "Friday game", points: int = 300, rounds: int = 3, **more):
        """From the home page's form; lands on the host page with the seat links."""
        self.visit("/")
        values = {"name": name, "points_limit": str(points), "rounds": str(rounds), **more}
        self.submit("new", **values)
        self.code = self.url.split("/")[2]
        return self.seat_links()

    def seat_links(self) -> dict[str, str]:
        """Seat letter -> link, as the host page shows them."""
        links = {}
        for letter, card in zip("AB", self.soup.select(".seatlink"), strict=False):
            anchor = card.select_one("a.seaturl")
            if anchor is not None:
                links[letter] = anchor["href"]
        return links

    def claim(self, seat_url: str, name: str, pin: str = "739164"):
        """Open a seat link and take the seat; ends on the match page."""
        self.visit(urlparse(seat_url).path)
        [rendered] = [f for f in self.forms() if "pin" in f.names()]
        rendered.fill({"name": name, "pin": pin})
        self.send(rendered)
        if self.error:
            raise PhoneError(f"claiming the seat failed: {self.error}")
        self.code = urlparse(seat_url).path.split("/")[2]
        return self.open()

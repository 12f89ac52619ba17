"""Submit a form found in the HTML a viewer was just sent, filling only fields
that form renders (the brief's rule for organizer and player actions in web
tests). A few lines of the standard library, in the style of django-webtest's
`response.forms[...]`, so this slice needs no new test dependency."""

from __future__ import annotations

from html.parser import HTMLParser


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {"attrs": attrs, "fields": {}, "names": set()}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and attrs.get("name"):
            self._form["names"].add(attrs["name"])
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            if kind not in ("submit", "button"):
                self._form["fields"][attrs["name"]] = attrs.get("value", "")
        elif tag == "textarea" and attrs.get("name"):
            self._form["names"].add(attrs["name"])
            self._textarea = attrs["name"]
            self._form["fields"][attrs["name"]] = ""
        elif tag == "select" and attrs.get("name"):
            self._form["names"].add(attrs["name"])
            self._form["fields"].setdefault(attrs["name"], "")

    def handle_data(self, data):
        if self._form is not None and self._textarea:
            self._form["fields"][self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._form = None


def forms_in(html: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def submit(client, page_url: str, where: str, extra_headers=None, **fill):
    """GET `page_url`, find the first form with `where` in its action, hx-post,
    id or class, fill only fields it renders, and POST it as the browser
    (or htmx, for an hx-post form) would."""
    html = client.get(page_url).content.decode()
    keys = ("action", "hx-post", "id", "class")
    found = [f for f in forms_in(html) if any(where in (f["attrs"].get(k) or "") for k in keys)]
    assert found, f"no form matching {where!r} on {page_url}"
    form = found[0]
    missing = set(fill) - form["names"]
    assert not missing, f"the form does not render {sorted(missing)}"
    data = {**form["fields"], **{k: str(v) for k, v in fill.items()}}
    target = form["attrs"].get("hx-post") or form["attrs"].get("action") or page_url
    headers = {"HTTP_HX_REQUEST": "true"} if form["attrs"].get("hx-post") else {}
    return client.post(target, data, **headers, **(extra_headers or {}))

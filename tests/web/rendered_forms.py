"""Submit the forms a page actually rendered, as a phone would.

A form is found in the HTML this viewer was just sent (by the URL it posts
to), its rendered fields keep their values, and a test may fill only fields
the form renders: a field the page does not offer fails the test.
"""

from __future__ import annotations

import itertools
import re

from bs4 import BeautifulSoup
from django.test import Client

_ids = itertools.count(1)


class FormNotOnPage(AssertionError):
    pass


def _form(html: str, target: str, within: str | None = None, at: str = ""):
    soup = BeautifulSoup(html, "lxml")
    scope = soup.select_one(within) if within else soup
    if scope is None:
        raise FormNotOnPage(f"nothing matches {within!r} on the page")
    for form in scope.find_all("form"):
        # A form without an action posts to the page it is on (`at`).
        url = form.get("hx-post") or form.get("action") or at
        if url.endswith(target):
            return form, url
    raise FormNotOnPage(f"no form posting to …{target} on the page")


def fields_of(form) -> dict[str, list[str]]:
    """The values a browser would send as the form stands."""
    values: dict[str, list[str]] = {}
    for element in form.find_all(["input", "select", "textarea"]):
        name = element.get("name")
        if not name:
            continue
        values.setdefault(name, [])
        if element.name == "select":
            chosen = element.find("option", selected=True) or element.find("option")
            if chosen is not None:
                values[name].append(chosen.get("value", chosen.text))
        elif element.name == "textarea":
            values[name].append(element.text)
        elif element.get("type") in ("checkbox", "radio"):
            if element.has_attr("checked"):
                values[name].append(element.get("value", "on"))
        elif element.get("type") not in ("submit", "button"):
            values[name].append(_sanitized(element.get("type"), element.get("value", "")))
    return values


_BROWSER_SYNTAX = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "datetime-local": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?"),
}


def _sanitized(kind: str | None, value: str) -> str:
    """A browser keeps a date or datetime-local input's value only in the
    ISO syntax (the HTML value sanitization algorithm); any other, such as a
    localized 02/12/2026, it shows and sends as empty."""
    syntax = _BROWSER_SYNTAX.get(kind or "")
    return value if syntax is None or syntax.fullmatch(value) else ""


def submit(
    client: Client,
    html: str,
    target: str,
    within: str | None = None,
    htmx: bool = True,
    at: str = "",
    **fill,
):
    """Fill `fill` into the form posting to …`target` and post it. A list value
    ticks those checkbox values; a field the form does not render fails."""
    form, url = _form(html, target, within, at)
    values = fields_of(form)
    for name, value in fill.items():
        if name not in values:
            raise FormNotOnPage(f"the form posting to {url} has no field {name!r}")
        if isinstance(value, list):
            offered = {e.get("value") for e in form.find_all("input", attrs={"name": name})}
            missing = set(value) - offered
            if missing:
                raise FormNotOnPage(f"{name!r} offers no {sorted(missing)}")
            values[name] = list(value)
        else:
            values[name] = [str(value)]
    if "hx-post" in form.attrs:
        # The page's script gives each htmx form a fresh action id per tap.
        values.setdefault("action_id", [f"form-action-{next(_ids):08d}"])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx and "hx-post" in form.attrs else {}
    return client.post(url, values, **headers)


def submit_on(client: Client, page_url: str, where: str, extra_headers=None, **fill):
    """GET `page_url` as `client`, then submit the first form with `where` in
    its action, hx-post, id or class, filling only fields it renders, as the
    browser (or htmx, for an hx-post form) would."""
    html = client.get(page_url).content.decode()
    soup = BeautifulSoup(html, "lxml")
    for form in soup.find_all("form"):
        found = [form.get("action"), form.get("hx-post"), form.get("id"), *form.get("class", [])]
        if any(where in (value or "") for value in found):
            break
    else:
        raise FormNotOnPage(f"no form matching {where!r} on {page_url}")
    values = fields_of(form)
    missing = set(fill) - set(values)
    if missing:
        raise FormNotOnPage(f"the form does not render {sorted(missing)}")
    values.update({name: [str(value)] for name, value in fill.items()})
    url = form.get("hx-post") or form.get("action") or page_url
    headers = {"HTTP_HX_REQUEST": "true"} if form.get("hx-post") else {}
    if form.get("hx-post"):
        values.setdefault("action_id", [f"form-action-{next(_ids):08d}"])
    return client.post(url, values, **headers, **(extra_headers or {}))

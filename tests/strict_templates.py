"""Templates fail in tests on a name they cannot resolve (#20).

Django renders a missing variable as nothing, which is how a header could
read "Retreat! at %" with every page test green. In tests the engine's
`string_if_invalid` is this object: Django formats it with the name it
could not resolve (it looks for "%s" in it), and formatting raises, so the
page's test fails with the template's name. `{% if %}` and `{% for %}` over
a missing name are not affected (Django resolves those without it), nor a
name a template marks optional with `|default`... which Django does not
apply to an invalid name either: write `{% if x %}` instead."""

from __future__ import annotations

from django.template import TemplateSyntaxError


class UnresolvedName(str):
    # Not empty (Django skips a falsy string_if_invalid), with "%s" in it.
    def __new__(cls):
        return super().__new__(cls, "<unresolved %s>")

    def __mod__(self, name: object):
        raise TemplateSyntaxError(f"a template names {name!r}, which does not resolve")


def make_templates_strict(settings) -> None:
    for engine in settings.TEMPLATES:
        engine.setdefault("OPTIONS", {})["string_if_invalid"] = UnresolvedName()

"""A player form's refusal is shown as every refusal of the app is: in the
styled `.error` box, announced (role="alert"), and named by its field's
aria-describedby (tracker/form_errors.py). Before, the home, claim and move
pages printed Django's bare `ul.errorlist`, unstyled. Each form is sent as
the page rendered it, in English and Spanish; what was typed is kept."""

from __future__ import annotations

import pytest

from .phone import Phone
from .test_drawn_pins import claim_form, moved_with

pytestmark = pytest.mark.django_db

EASY_PIN = {
    "en": "That PIN is too easy to guess (a repeated digit, a run or a pattern).",
    "es": "Ese PIN es demasiado fácil de adivinar (una cifra repetida, una serie o un patrón).",
}
WRONG_PIN = {"en": "That PIN is not right.", "es": "Ese PIN no es correcto."}


def field_error(phone: Phone, field: str) -> str:
    """The text of `field`'s error, checked to be shown as the app's errors
    are and to be the one the field points at."""
    soup = phone.soup
    found = soup.select(f"ul.error[role=alert]#id_{field}_error")
    assert len(found) == 1, soup.select("ul")
    assert "id_" + field + "_error" in soup.select_one(f"#id_{field}")["aria-describedby"].split()
    return found[0].get_text(" ", strip=True)


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_easy_pin_is_refused_in_the_styled_alert_and_the_name_is_kept(language):
    host = Phone(language)
    links = host.create_match(name="Mesa 4")
    player = Phone(language)
    form = claim_form(player, links["A"])
    form.fill({"name": "Alicia", "pin": "123456"})
    player.send(form)
    assert field_error(player, "pin") == EASY_PIN[language]
    assert player.soup.select_one("#id_name")["value"] == "Alicia"
    assert not player.soup.select("ul.errorlist:not(.error)")


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_wrong_pin_on_the_move_page_is_refused_in_the_styled_alert(language):
    host = Phone(language)
    links = host.create_match(name="Mesa 5")
    Phone(language).claim(links["B"], "Bruno", pin="73916482")
    new_phone = moved_with(links["B"], "73916483", language)
    assert field_error(new_phone, "pin") == WRONG_PIN[language]


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_points_limit_out_of_range_is_refused_in_the_styled_alert(language):
    host = Phone(language)
    host.visit("/")
    [form] = [f for f in host.forms() if "points_limit" in f.names()]
    form.fill({"name": "Noche de viernes", "points_limit": "20"})
    host.send(form)
    assert field_error(host, "points_limit")  # Django's own words, in the language
    assert "50" in field_error(host, "points_limit")
    assert host.soup.select_one("#id_name")["value"] == "Noche de viernes"

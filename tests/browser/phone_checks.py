"""What a phone must look like, checked in the page (issue 10): one
language, no sideways scrolling, 44 px targets, banners on the first screen,
no serious or critical axe-core violation.

axe-core is vendored from the npm registry (tests/browser/vendor, version in
the file name) and injected by the test browser as an init script, so the
page's CSP (no inline script) stays as it is.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

VENDOR = Path(__file__).parent / "vendor"
AXE = VENDOR / "axe-core-4.14.1.min.js"
MIN_TAP = 44
SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR", "")

# Telltale words of the OTHER language, matched on the visible text.
TELLTALES = {
    # On a Spanish phone: English the catalogue should have translated.
    "es": re.compile(
        r"\b(Your|points|Lock my list|What happened|Waiting for|Declare|Round \d|Sealed|"
        r"Command Tokens?|Offline|Live|Trooper|Seat [AB]|Reveal|Got it|Spectators|Each player|"
        r"Order|Active|Reactive|You are|List locked|Deployment|Connecting|matches what)\b"
    ),
    # On an English phone: Spanish words.
    "en": re.compile(
        r"\b(Tu|Tus|puntos|Ronda|Cerrar|Qué ha pasado|Esperando|Declarar|Sellar|Tokens? de Mando|"
        r"Despliegue|Lista|Asiento|Revelar|Entendido|Orden|Activo|Reactivo|En directo|Conectando)\b"
    ),
}

TAP_TARGETS_JS = """(min) => {
  const selector = 'a[href], button, summary, select, textarea, input:not([type=hidden]), [role=button]';
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    let target = el;
    if ((el.type === 'checkbox' || el.type === 'radio') && el.closest('label')) {
      target = el.closest('label');
    }
    const rect = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    if (!rect.width || !rect.height || style.visibility === 'hidden') { continue; }
    if (rect.width < min - 0.5 || rect.height < min - 0.5) {
      small.push(`${target.tagName.toLowerCase()}.${target.className} "${(target.innerText || target.name || '').trim().slice(0, 40)}" ${Math.round(rect.width)}x${Math.round(rect.height)}`);
    }
  }
  return small;
}"""

AXE_JS = """async () => {
  const result = await window.axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
}"""


def lang_of(page) -> str:
    return (page.get_attribute("html", "lang") or "").split("-")[0]


def assert_one_language(page, lang: str) -> None:
    assert lang_of(page) == lang, f"<html lang> is {lang_of(page)!r}, the phone reads {lang!r}"
    text = page.locator("body").inner_text()
    found = sorted({m.group(0) for m in TELLTALES[lang].finditer(text)})
    assert not found, f"{page.url}: the {lang} phone shows words of the other language: {found}"


def assert_no_sideways_scroll(page) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{page.url}: {widths[0]} px wide in a {widths[1]} px screen"


def assert_tap_targets(page) -> None:
    small = page.evaluate(TAP_TARGETS_JS, MIN_TAP)
    assert not small, f"{page.url}: tap targets under {MIN_TAP} px: {small}"


def assert_accessible(page) -> None:
    page.wait_for_function("() => !!window.axe")
    violations = page.evaluate(AXE_JS)
    assert not violations, f"{page.url}: axe-core: " + "\n".join(violations)


def assert_on_first_screen(page, selector: str) -> None:
    """The element is visible without scrolling: its top within the screen
    and at least its first 120 px (or all of it) above the fold."""
    page.evaluate("() => window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + min(box["height"], 120) <= height, (
        f"{selector} starts at {box['y']:.0f} px, below the first screen ({height} px)"
    )


def check_page(page, lang: str, match_page: bool = False) -> None:
    """Everything issue 10 asks of any page; the tap targets on match pages."""
    assert_one_language(page, lang)
    assert_no_sideways_scroll(page)
    if match_page:
        assert_tap_targets(page)
    assert_accessible(page)


def screenshot(page, name: str) -> None:
    """Saved for the README when SCREENSHOTS_DIR is set (make screenshots)."""
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"))

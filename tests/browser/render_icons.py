"""Render the app icons' PNG sizes from their SVGs with the system Chromium
(`make icons`). The PNGs are committed: phones need them, the server does
not run this."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.support import chromium_path

ICONS = Path(__file__).resolve().parents[2] / "static" / "tracker" / "icons"
SIZES = [
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("maskable.svg", "maskable-512.png", 512),
]


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), args=["--headless=new", "--no-sandbox"]
        )
        for source, target, size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text()
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;width:100vw;height:100vh}</style>"
                + svg
            )
            page.screenshot(path=str(ICONS / target), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()

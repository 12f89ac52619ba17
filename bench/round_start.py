"""A round's start: every phone of TABLES tables opens its match page at
once, then the scripts and styles that page names, as a browser with an
empty cache does (issue 18; tracker/static_on_loop.py).

    python bench/round_start.py [TABLES]

Runs the app as `make run` does (collectstatic, DEBUG off, `manage.py
serve` with its default limits) on a scratch SQLite database, with every
phone from 127.0.0.1: a venue behind one NAT. Prints, for the pages and for
the static files, how many were answered 200 and how many 503 ("busy"),
and when the last phone had its page with everything it names. A phone
whose page came but whose scripts were shed has a page that never goes
live: those are counted apart.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import serving  # noqa: E402

STATIC = re.compile(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"')


async def first_load(http: aiohttp.ClientSession, base: str, code: str, key: str) -> dict:
    """One phone: its page, then every script and style it names, at once."""
    cookies = {"Cookie": f"sessionid={key}", "Accept-Language": "es-ES"}
    async with http.get(f"{base}/m/{code}/", headers=cookies) as answer:
        page, html = answer.status, await answer.text()
    names = STATIC.findall(html) if page == 200 else []

    async def fetch(name: str) -> int:
        async with http.get(base + name, headers={"Accept-Encoding": "gzip, br"}) as answer:
            await answer.read()
            return answer.status

    statics = await asyncio.gather(*(fetch(name) for name in names))
    return {"page": page, "statics": list(statics), "done": time.monotonic()}


async def burst(base: str, matches: list[dict]) -> list[dict]:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        phones = [(m["code"], m[letter]) for m in matches for letter in "AB"]
        return await asyncio.gather(*(first_load(http, base, code, key) for code, key in phones))


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    tmp = Path(tempfile.mkdtemp(prefix="tracker-round-start-"))
    env = serving.environment(
        tmp, drop=("DATABASE_URL", "REDIS_URL", "STATIC_MANIFEST"), STATIC_ROOT=str(tmp / "static")
    )
    env["ALLOWED_HOSTS"] = "127.0.0.1"
    for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [sys.executable, "bench/setup_matches.py", str(tables)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    matches = json.loads(made.stdout)
    process, base = serving.serve_on_loopback(ROOT, env, tmp / "serve.log")
    try:
        started = time.monotonic()
        phones = asyncio.run(burst(base, matches))
    finally:
        serving.stop(process)
    pages = Counter(p["page"] for p in phones)
    statics = Counter(s for p in phones for s in p["statics"])
    dead = sum(1 for p in phones if p["page"] == 200 and any(s != 200 for s in p["statics"]))
    print(
        json.dumps(
            {
                "tables": tables,
                "phones": len(phones),
                "pages": dict(pages),
                "statics": dict(statics),
                "page_without_all_its_scripts": dead,
                "last_phone_done_s": round(max(p["done"] for p in phones) - started, 2),
            }
        )
    )


if __name__ == "__main__":
    main()

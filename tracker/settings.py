"""Settings: embedded defaults (SQLite + in-memory channel layer) unless the
environment says otherwise. Scale-out: DATABASE_URL (PostgreSQL), REDIS_URL."""

import os
import secrets
import sys
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from tracker import lan

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TRACKER_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _persistent_secret_key() -> str:
    """A home server needs no configuration, but its sessions (and so the
    seats players hold) must survive a restart: keep a generated key in var/."""
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY") or _persistent_secret_key()
DEBUG = _env_bool("DEBUG", False)

# Explicit hosts, never "*": the websocket Origin check (AllowedHostsOriginValidator)
# compares against this list, so a wildcard would let any site open a player's socket.
# The address phones open (issue 17): seat links, QR codes and printed sheets
# use it (tracker/links.py). E.g. http://192.168.1.20:8000 or
# https://tracker.example.org; unset, a page opened at localhost prints the
# LAN address below, any other page the address it was opened at.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
if PUBLIC_URL and not PUBLIC_URL.startswith(("http://", "https://")):
    PUBLIC_URL = "http://" + PUBLIC_URL

if os.environ.get("ALLOWED_HOSTS"):
    ALLOWED_HOSTS = [h.strip() for h in os.environ["ALLOWED_HOSTS"].split(",") if h.strip()]
else:
    # This computer's addresses as they are now, not as they were at start-up
    # (a laptop that joins the Wi-Fi later, or gets another address from it):
    # tracker/lan.py.
    ALLOWED_HOSTS = lan.MachineHosts(["localhost", "127.0.0.1", "[::1]"])
    if PUBLIC_URL:
        from urllib.parse import urlsplit

        ALLOWED_HOSTS.append(urlsplit(PUBLIC_URL).hostname or "localhost")

# This machine's LAN addresses that this server answers on: what `make run`
# prints for phones (tracker/management/commands/serve.py) and, without
# PUBLIC_URL, what a page opened at localhost puts in its links.
if isinstance(ALLOWED_HOSTS, lan.MachineHosts):
    PHONE_ADDRESSES = lan.PhoneAddresses()
else:
    PHONE_ADDRESSES = [h for h in ALLOWED_HOSTS if h[0].isdigit() and not h.startswith("127.")]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "tracker",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tracker.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session: it reads the saved session's key (tracker/offline_copy.py).
    "tracker.offline_copy.OfflineCopyMiddleware",
    # Before the session too: it sees the session as saved (tracker/known_sessions.py).
    "tracker.known_sessions.KnownSessionsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Django's blank 405s get the app's card (tracker/errors.py): after the
    # language and request.htmx are known.
    "tracker.errors.NotAllowedMiddleware",
    # Last, so it sees the language and request.htmx of the request.
    "tracker.busy.BusyMiddleware",
]

ROOT_URLCONF = "tracker.urls"
ASGI_APPLICATION = "tracker.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Our templates/ with the line breaks' indentation left out of the
            # pages (tracker/template_loaders.py); apps' templates as written.
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "tracker.template_loaders.Loader",
                        "django.template.loaders.app_directories.Loader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Threads serving HTTP in each process (tracker/http.py): requests beyond
# them wait their turn. With PostgreSQL the pool holds a connection for each
# of them and for the sockets' threads.
# 16 on PostgreSQL, 8 on SQLite. A tap on PostgreSQL spends much of its time
# waiting on the database and Redis (several round trips, each slower when
# the cores are busy), so 8 threads were too few to keep a process busy:
# with two processes at overload, py-spy dumps found the threads without
# work 58% of the time and most of the rest in those waits. With 50
# matches' phones connected, 16 threads served 1.65-1.72 times one process's
# taps a second where 8 served 1.24-1.33; with make bench's 500 connected,
# 1.18-1.3 against 1.14 in one run (issue 18, docs/benchmarks-notes.md, the
# twenty-second round: one 2-core machine's loopback, every phone from one
# address); 24 served no more. On SQLite a tap waits on nothing
# outside the process: more threads would only queue on its one write lock
# and the interpreter.
_DATABASE = (
    dj_database_url.parse(os.environ["DATABASE_URL"]) if os.environ.get("DATABASE_URL") else None
)
_ON_POSTGRES = _DATABASE is not None and _DATABASE["ENGINE"] == "django.db.backends.postgresql"
HTTP_THREADS = int(os.environ.get("HTTP_THREADS", "16" if _ON_POSTGRES else "8"))
# Requests that may wait for one of them; past that a tap is answered at once
# with "busy, tap again" (tracker/http.py). Above one tap per table in flight
# for a 50-table event on one process: with 32, CI's slower moments shed taps
# of the 50-match burst (tests/scale/test_burst.py).
HTTP_QUEUE = int(os.environ.get("HTTP_QUEUE", "64"))
# Threads for the sockets' work in each process (tracker/socket_threads.py):
# connects (counting, authentication, first frame, resync) never queue
# behind the pushes' renders (issue 17).
SOCKET_CONNECT_THREADS = int(os.environ.get("SOCKET_CONNECT_THREADS", "2"))
SOCKET_PUSH_THREADS = int(os.environ.get("SOCKET_PUSH_THREADS", "2"))
# Issue 22: one client cannot starve the others. Page loads (and static files
# Django serves: collected ones are answered on the loop, without a thread,
# tracker/static_on_loop.py) wait in a line of their own, behind the taps
# (tracker/admission.py); past
# HTTP_THREADS + HTTP_PAGE_QUEUE of them in the process, or
# HTTP_REQUESTS_PER_ADDRESS from one address, a GET is answered "busy" at once.
HTTP_PAGE_QUEUE = int(os.environ.get("HTTP_PAGE_QUEUE", "256"))
# Of the threads, how many page loads and static files may hold at once: the
# rest are kept for taps. Renders share one interpreter: under a flood of
# page loads a tap took 410 ms (p50) beside eight renders, 160 ms beside four.
HTTP_PAGE_THREADS = int(os.environ.get("HTTP_PAGE_THREADS", str(min(4, max(1, HTTP_THREADS // 2)))))
HTTP_REQUESTS_PER_ADDRESS = int(os.environ.get("HTTP_REQUESTS_PER_ADDRESS", "128"))
# A request whose cookie names a session this process has seen exist counts
# against that session instead, and takes its turn as it (a venue behind one
# NAT is one address: tracker/known_sessions.py). A phone loads a page and a
# few fragments at once.
HTTP_REQUESTS_PER_SESSION = int(os.environ.get("HTTP_REQUESTS_PER_SESSION", "16"))
# The server's own limits, before Django sees a request (tracker/front_door.py).
# A body announced or streamed past HTTP_MAX_BODY bytes is refused (413) before
# it is buffered: four times Django's cap, so a form a little over that cap
# still gets its page back with the message (tracker/uploads.py).
HTTP_MAX_BODY = int(os.environ.get("HTTP_MAX_BODY", str(4 * 256 * 1024)))
# Seconds: a request's head must arrive within HTTP_HEADER_TIMEOUT of its first
# byte and its body within HTTP_BODY_TIMEOUT of its head; a connection with no
# request for HTTP_IDLE_TIMEOUT (after it opens or between requests) is closed.
# 0 turns a deadline off.
HTTP_HEADER_TIMEOUT = float(os.environ.get("HTTP_HEADER_TIMEOUT", "10"))
HTTP_BODY_TIMEOUT = float(os.environ.get("HTTP_BODY_TIMEOUT", "30"))
HTTP_IDLE_TIMEOUT = float(os.environ.get("HTTP_IDLE_TIMEOUT", "20"))
# Open connections (HTTP and websockets) in the process; 0: the open-files
# limit (raised to its hard limit at start-up) less 256 for the database, logs
# and the like. One address holds at most HTTP_CONNECTIONS_PER_ADDRESS of them,
# and never more than half: a venue behind one NAT is one address, whose
# phones' websockets count here too, so it holds twice SOCKETS_PER_ADDRESS
# (each phone's socket and a keep-alive beside it; idle keep-alives past
# that give way to new connections, tracker/front_door.py).
HTTP_MAX_CONNECTIONS = int(os.environ.get("HTTP_MAX_CONNECTIONS", "0"))
HTTP_CONNECTIONS_PER_ADDRESS = int(os.environ.get("HTTP_CONNECTIONS_PER_ADDRESS", "2048"))
# Connections the kernel holds for the server to accept (the listen backlog;
# the kernel caps it, at net.core.somaxconn on Linux): past it, a phone's
# new connection is dropped and tried again only after 1, 3, 7 s.
HTTP_LISTEN_BACKLOG = int(os.environ.get("HTTP_LISTEN_BACKLOG", "1024"))

if _DATABASE is not None:
    DATABASES = {"default": _DATABASE}
    if _ON_POSTGRES:
        # Django's psycopg pool, bounded per process (issue 9): without it every
        # thread held its own connection and two processes under load met
        # "too many clients". A request waits up to DB_POOL_TIMEOUT seconds for
        # a connection; past that it answers "busy, tap again"
        # (tracker.busy.BusyMiddleware), never a 500.
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps connections
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            # One for each thread that may hold one: HTTP, the sockets' two
            # pools and Channels' own thread.
            "max_size": int(
                os.environ.get(
                    "DB_POOL_SIZE",
                    HTTP_THREADS + SOCKET_CONNECT_THREADS + SOCKET_PUSH_THREADS + 1,
                )
            ),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(VAR_DIR / "db.sqlite3")),
            "OPTIONS": {
                # IMMEDIATE: the write lock is taken at BEGIN, so two writers queue
                # instead of failing with "database is locked" on lock upgrade.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH") or None},
            # Kept open: each of the HTTP_THREADS threads (tracker/http.py) and
            # the sockets' thread reuse theirs instead of opening one per
            # request (a fifth of an action's CPU in issue 9's profile).
            "CONN_MAX_AGE": None,
        }
    }


def redis_channel_layer(url: str) -> dict:
    """The channel layer on the Redis at `url` (see CHANNEL_LAYERS below)."""
    from urllib.parse import urlsplit

    return {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            # Its default 5 s read timeout: a busy process's read of its
            # subscriptions must not fail while the loop is late (issue 9's
            # "Redis read timeouts", with the old layer).
            "hosts": [{"address": url, "socket_timeout": 30}],
            # Publish/subscribe ignores Redis's database numbers, which kept
            # the list layer's keys apart: two servers on one Redis with
            # different numbers (two events, or the tests beside a
            # benchmark) would hear each other's "seq n exists" for the
            # same match id. The number goes into every channel's name.
            "prefix": f"tracker-db{urlsplit(url).path.strip('/') or '0'}-",
        },
    }


if os.environ.get("REDIS_URL"):
    # Redis's publish/subscribe (issue 18): a push is one PUBLISH to the
    # match's group, heard by each process that has sockets in it, and put
    # in those sockets' queues in process. The list-based RedisChannelLayer
    # cost about 3 ms more CPU per message relayed and 4 ms more per bare
    # action (bench/ab runs, docs/benchmarks-notes.md), and dropped group
    # messages now and then (django/channels#1683; two of five of our runs
    # of 20 matches lost a few hundred pushes). Neither layer promises
    # delivery: a push lost with a dropped Redis connection is healed as
    # any other, by the phone's next pong (tracker/match_seqs.py). Nothing
    # waits in Redis, so there is no capacity or expiry to size.
    CHANNEL_LAYERS = {"default": redis_channel_layer(os.environ["REDIS_URL"])}
else:
    # Expiry: past it a push waiting for a socket is dropped (its default is
    # 60 s; a phone's pong heals it either way). Capacity is
    # per socket (each has its own queue): 1,000 pushes waiting for one socket
    # is far past anything a socket that folds them into one render sees.
    # Channels' own, sweeping for expired messages once a second rather than
    # on every message (tracker/memory_layer.py, issue 18).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tracker.memory_layer.SweepingInMemoryChannelLayer",
            "CONFIG": {
                "capacity": 1000,
                "expiry": int(os.environ.get("CHANNEL_EXPIRY_SECONDS", "300")),
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Madrid")

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")


def _fresh_manifest() -> bool:
    """Whether collectstatic's manifest is newer than every source file: a
    stale one would serve an old app.js under a name cached for a year."""
    manifest = STATIC_ROOT / "staticfiles.json"
    if not manifest.exists():
        return False
    built = manifest.stat().st_mtime
    return all(f.stat().st_mtime <= built for f in (BASE_DIR / "static").rglob("*") if f.is_file())


# Static files: gzip and brotli copies made at collectstatic (`make run` runs
# it), served by whitenoise to phones that ask for them. With a fresh manifest
# from collectstatic our own JS and CSS are minified (the sources stay as
# written: tracker/static_storage.py), the names carry a content hash and are
# cached for a year; without one (tests, a checkout that never ran
# collectstatic) the plain names are served from the source folders.
# STATIC_MANIFEST=0 forces the latter.
STATIC_MANIFEST = _env_bool("STATIC_MANIFEST", True) and (
    sys.argv[1:2] == ["collectstatic"] or _fresh_manifest()
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "tracker.static_storage.MinifiedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "whitenoise.storage.CompressedStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organizer-matches"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
CSRF_COOKIE_SAMESITE = "Lax"
# A refused form says so in the phone's language (tracker/errors.py).
CSRF_FAILURE_VIEW = "tracker.errors.csrf_failure"
CSRF_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Sent by tracker/middleware.py only where browsers honour it (HTTPS and
# localhost), not on the venue's plain-HTTP LAN address.
SECURE_CROSS_ORIGIN_OPENER_POLICY = None
SESSION_COOKIE_SECURE = _env_bool("HTTPS", False)
CSRF_COOKIE_SECURE = _env_bool("HTTPS", False)
if _env_bool("HTTPS", False):
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 30
# Trust X-Forwarded-For/-Proto only behind a reverse proxy we run ourselves.
BEHIND_PROXY = _env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The default cache holds the per-client counters (sockets per session and
# per address, wrong seat links, logins); "sessions" holds the sessions in
# front of the database (SESSION_ENGINE below). In one process each is an
# in-memory cache sized for a venue: Django's default of 300 entries, at a
# night of 300 phones, culls a third of them whenever one more is added, and
# a culled counter starts again from zero (issue 18).
VENUE_CACHE_ENTRIES = int(os.environ.get("VENUE_CACHE_ENTRIES", "50000"))
CACHES = {
    alias: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": alias,
        "OPTIONS": {"MAX_ENTRIES": VENUE_CACHE_ENTRIES},
    }
    for alias in ("default", "sessions")
}
if os.environ.get("REDIS_URL"):
    # Several server processes: one Redis for all of them, so a counter and
    # a session read in one process are those another wrote.
    CACHES = {
        alias: {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": f"tracker-{alias}",
            # One pool for the process, not one per request (tracker/redis_pool.py).
            "OPTIONS": {"pool_class": "tracker.redis_pool.SharedPool"},
        }
        for alias in ("default", "sessions")
    }
# Every request and socket connect reads its session: from the cache, with
# the database behind it as the one truth (a session missing from the cache
# is read from there). A cache hit costs about 0.01 ms where a query and its
# signature check cost 0.3-0.4 ms, a fiftieth of a tap (issue 18).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "sessions"

# Wrong seat links: answered 429 past this many per client address per
# window (a right link is always answered: a venue is one address).
GUESS_LIMIT = int(os.environ.get("GUESS_LIMIT", "10"))
GUESS_WINDOW_SECONDS = 300
# Wrong PINs a seat's PIN survives, from anyone, for as long as that PIN is
# set (issue 22): past it the PIN is checked no more and only an organizer or
# a host seated nowhere in the match hands the seat on. With PINs of 6+
# digits, 20 tries find one with probability 20 / 10**6 (docs/security.md).
SEAT_PIN_BUDGET = int(os.environ.get("SEAT_PIN_BUDGET", "20"))

# Organizer and admin logins: posts per client address, and per device that
# signed in as the account before (django-ratelimit; tracker/organizer/login.py).
LOGIN_RATE = os.environ.get("LOGIN_RATE", "10/5m")
# Counted in the cache: per process by default, shared through Redis when
# REDIS_URL is set (several server processes).

# Websockets per client (issue 11): sockets per browser session, sockets
# holding no seat per address (a player's socket of her own seat is held only
# to the session's limit: tracker/consumers.py), and full resyncs a socket may
# ask for in a window (more are coalesced into one, later). A venue behind one
# NAT is one address, and one process carries a whole venue (issue 18): 1,000
# is a 400-table night's organizer's screens and spectators and more. At 200,
# when players' sockets counted too, a 150-table night's 201st phone was
# refused its socket and said "Offline" all night.
SOCKETS_PER_SESSION = int(os.environ.get("SOCKETS_PER_SESSION", "8"))
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "1000"))
# A socket that has sent nothing for this long since its first frame or its
# last frame is closed (tracker/heartbeat.py): its phone is gone or its link
# is dead (app.js pings every second, and reconnects after 2.2 s of silence).
SOCKET_SILENCE_SECONDS = float(os.environ.get("SOCKET_SILENCE_SECONDS", "10"))
# Frames a socket may send (tracker/fast_pongs.py): this many at once, then
# this many a second. A phone pings once a second and resyncs now and then;
# a socket past its budget is closed with 4429 and read no more.
SOCKET_FRAME_BURST = int(os.environ.get("SOCKET_FRAME_BURST", "40"))
SOCKET_FRAMES_PER_SECOND = float(os.environ.get("SOCKET_FRAMES_PER_SECOND", "5"))
RESYNC_BURST = 10
# How often each process reads the newest seq of its sockets' matches, which
# every pong carries so that a phone that missed a push asks for it
# (tracker/match_seqs.py): one query per process per period, for all of them.
SEQ_POLL_SECONDS = float(os.environ.get("SEQ_POLL_SECONDS", "1"))
RESYNC_WINDOW_SECONDS = 10
# Tests only (tests/scale/test_socket_backlog.py): every push's render takes
# this many seconds longer, which builds a push backlog without a venue's
# load on the test machine. 0 (off) unless the environment sets it.
SLOW_PUSH_RENDER_SECONDS = float(os.environ.get("TRACKER_SLOW_PUSH_RENDER", "0"))

# Request bodies: Django's own caps. No form here takes a file, so any file
# part is refused (tracker.uploads), and a body over the cap is a 400 before
# it is parsed. The largest form (the pairings, 60,000 characters of UTF-8)
# fits in 256 KB.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 0
FILE_UPLOAD_HANDLERS = ["tracker.uploads.RefuseFiles"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refusal of the client's doing (403, 400) in one line, without a
    # traceback; a dropped Redis connection too (tracker/log_filters.py).
    "filters": {
        "refusals_in_one_line": {"()": "tracker.log_filters.RefusalsInOneLine"},
        "redis_link_lost": {"()": "tracker.log_filters.RedisLinkLost"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["refusals_in_one_line"]}
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {"channels_redis.pubsub": {"filters": ["redis_link_lost"]}},
}

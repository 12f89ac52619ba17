# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: run test bench lint format messages clean screenshots icons

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) manage.py serve --port $(PORT)

# On TEST_WORKERS processes (pytest-xdist; 0 runs in this one): each test
# file runs whole on one of them, as its module-wide fixtures (a live
# server, a Chromium) expect. Then tests/scale alone: its burst test asserts
# that no push is lost on two servers, and beside the other worker's
# Chromium (two cores for two servers, PostgreSQL, Redis and the load) it
# once lost 8 of 500 there.
TEST_WORKERS ?= 2
# The browser tests run in processes of their own: Playwright's greenlets, left
# to the collector in a process whose other tests run servers on threads, were
# collected on one of those threads, and the worker died of a segmentation
# fault (tests/browser/conftest.py).
test: $(VENV)/.dev
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --ignore=tests/scale --ignore=tests/browser
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile tests/browser
	$(PY) -m pytest tests/scale

bench: $(VENV)/.dev  # under 10 minutes on two cores; BENCH_* variables in bench/run.py
	$(PY) bench/run.py

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Needs GNU gettext (apt-get install gettext); the compiled .mo files are committed.
messages: $(VENV)/.dev
	$(PY) manage.py makemessages -l es --no-obsolete --add-location file
	$(PY) manage.py compilemessages -l es --ignore=.venv

# Phone screenshots for the README: plays the two-phone match of
# tests/browser/test_phone_app.py and the first screens of the scripted match
# (tests/browser/test_full_match_phones.py, docs/screenshots/glance-*.png) in
# the system Chromium and saves each screen.
screenshots: $(VENV)/.dev
	SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -q -p no:cacheprovider tests/browser/test_phone_app.py tests/browser/test_full_match_phones.py

# The app icons' PNG sizes, rendered from their SVGs (committed).
icons: $(VENV)/.dev
	PYTHONPATH=. $(PY) tests/browser/render_icons.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache

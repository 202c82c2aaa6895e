# Spielleitung: the two commands are `make run` and `make test` (see README).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/spielleitung
TEST_ENV := DJANGO_SECRET_KEY=test-only-secret-key DJANGO_DEBUG=0
# Where the shell sets PYTHONDONTWRITEBYTECODE, every pytest process (each xdist worker of each of the
# three runs) would rewrite the asserts of every test module again: about 8 s of CPU each. Written once,
# the bytecode (git-ignored __pycache__) serves the later processes.
unexport PYTHONDONTWRITEBYTECODE
RUN_ENV = DJANGO_SECRET_KEY="$$(cat var/secret_key)" DJANGO_DEBUG=0

.PHONY: dry-runs run install test lint types js-test pytest-postgres pytest-sqlite pytest-browser postgres chromium zbar axe bench messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# --no-compile: pip would compile every module of every package (about 40% of the install); the
# modules a run imports are compiled then, once (bytecode is written, see unexport above).
$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --no-compile -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet --no-compile -r requirements-dev.txt
	touch $@ $(VENV)/.installed

var/secret_key:
	mkdir -p var
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@
	chmod 600 $@

install: $(VENV)/.installed var/secret_key

## make run: install, migrate the SQLite default, load the demo, serve with gunicorn
## (HOST=0.0.0.0 serves the venue network; the command prints the address, the login and a QR code).
run: install
	$(RUN_ENV) $(BIN)/python manage.py migrate --no-input
	$(RUN_ENV) $(BIN)/python manage.py collectstatic --no-input --verbosity 0
	$(RUN_ENV) $(BIN)/python manage.py load_demo
	$(RUN_ENV) $(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

## make test: lint, types, the scripts' unit tests (node), the suite on PostgreSQL, a smoke run on SQLite, browser tests.
test: $(VENV)/.installed-dev postgres chromium zbar lint types js-test pytest-postgres pytest-sqlite pytest-browser

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

types: $(VENV)/.installed-dev
	$(BIN)/mypy

## make js-test: the tablet scripts' pure modules (static/js/*_core.js, ui.js) under Node's own runner.
js-test:
	@command -v node >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null)
	node --test static/js/tests

postgres:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && exit 0; sleep 1; done; echo "PostgreSQL did not start"; exit 1

chromium:
	@command -v /usr/bin/chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null)

## make zbar: the browser tests read the QR codes they print and show (zbarimg) from PDF pages rasterised by pdftoppm.
zbar:
	@command -v zbarimg >/dev/null && command -v pdftoppm >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zbar-tools poppler-utils >/dev/null)

# --durations: every run's log names its slowest tests (the suite's time is watched: issue 31).
DURATIONS := --durations=20 --durations-min=5

# The PostgreSQL run makes its test databases anew and keeps them (--reuse-db --create-db); within
# make test the browser run then uses them as they are (BROWSER_DB), saving a migration per worker.
# On its own, make pytest-browser makes its own.
BROWSER_DB ?= --create-db
test: BROWSER_DB =

pytest-postgres: $(VENV)/.installed-dev postgres
	$(TEST_ENV) DATABASE_URL=$(PG_URL) $(BIN)/pytest -q -m "not browser and not sweep" -n 2 --reuse-db --create-db $(DURATIONS)

pytest-sqlite: $(VENV)/.installed-dev
	$(TEST_ENV) DATABASE_URL=sqlite:///var/test-smoke.sqlite3 $(BIN)/pytest -q -n 2 -m "core and not browser and not postgres_only and not slow" $(DURATIONS)

## make axe: axe-core for the browser tests' accessibility audit, pinned by package-lock.json (npm ci into
## node_modules/, git-ignored); npm from Debian's packages where it is missing.
AXE_JS := node_modules/axe-core/axe.min.js
axe: $(AXE_JS)

$(AXE_JS): package.json package-lock.json
	@command -v npm >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null)
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

pytest-browser: $(VENV)/.installed-dev postgres chromium zbar $(AXE_JS)
	$(TEST_ENV) DATABASE_URL=$(PG_URL) DJANGO_ALLOW_ASYNC_UNSAFE=true $(BIN)/pytest -q -m browser -n 2 --reuse-db $(BROWSER_DB) $(DURATIONS) tournament/tests/browser

## make dry-runs: every format's dry run for every player count from 3 to 60 (about 8 minutes on 2 cores;
## make test runs the counts where the rules change, see tournament/tests/test_dry_runs_every_count.py).
dry-runs: $(VENV)/.installed-dev postgres
	$(TEST_ENV) DATABASE_URL=$(PG_URL) $(BIN)/pytest -q -m sweep -n 2

bench: $(VENV)/.installed-dev postgres
	$(BIN)/python bench/run.py
	$(BIN)/python bench/seating.py
	$(BIN)/python bench/hall.py
	$(BIN)/python bench/search.py

messages: $(VENV)/.installed-dev
	$(BIN)/python manage.py makemessages -l de -l it --no-obsolete --ignore=.venv --ignore=var
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var/staticfiles var/test-*.sqlite3

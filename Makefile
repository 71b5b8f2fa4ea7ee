# Kickline: set-up, checks and the dev server.  Every target sets up first, so on a fresh
# Debian machine `make test` and `make serve` are all that is needed (see README.md).
# Set-up is idempotent: each step reruns only when its inputs changed (stamp files).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Stamps live inside what they describe, so deleting .venv or node_modules redoes the step.
PY_STAMP := $(VENV)/.kickline-setup.stamp
NPM_STAMP := client/node_modules/.kickline-setup.stamp

LINT := $(BIN)/ruff check .
TYPECHECK := $(BIN)/mypy
PYTEST := KICKLINE_SLOW=1 $(BIN)/pytest -p no:cacheprovider

.PHONY: help setup system-packages test lint typecheck serve wheel client dist clean server

help:
	@echo "make serve      run the server (data in ./data) and serve the client;"
	@echo "                options: make serve ARGS=\"--host 0.0.0.0 --port 9000\" (or HOST=, PORT=)"
	@echo "make test       ruff, mypy and the whole pytest suite (CPython and Pyodide), 10-15 min"
	@echo "make lint       ruff only"
	@echo "make typecheck  mypy --strict only"
	@echo "make wheel      build the rules wheel into client/build/"
	@echo "make client     build what the web client loads (wheel, trimmed Pyodide) into client/build/"
	@echo "make dist       the kickline wheel, carrying the built client, into dist/"
	@echo "make setup      what every target above does first (a developer's set-up)"
	@echo "make server     an operator's install: the server and the built client only,"
	@echo "                no dev tools, no browser, no root (deploy/README.md)"

setup: $(PY_STAMP) $(NPM_STAMP) system-packages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(PY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check --quiet -e '.[dev]'
	touch $@

# npm ci wipes node_modules (and with it the stamp) before installing the lock exactly.
$(NPM_STAMP): client/package.json client/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		echo "cd client && npm ci"; \
		(cd client && npm ci --no-audit --no-fund) && touch $@; \
	else \
		echo "make setup: npm not found; install Node.js 18+ for the client and the" \
			"Pyodide tests (they skip without it, except under CI)"; \
	fi

# Debian packages some tests use: redis-server (optional backend; nothing depends on it),
# chromium (browser tests), caddy and docker-compose (deploy/'s files checked statically:
# tests/tools/test_deploy.py).  Only root can install; anyone else gets told what to run.
system-packages:
	@need=""; \
	command -v redis-server >/dev/null 2>&1 || need="$$need redis-server"; \
	[ -x /usr/bin/chromium ] || need="$$need chromium"; \
	command -v caddy >/dev/null 2>&1 || need="$$need caddy"; \
	command -v docker-compose >/dev/null 2>&1 || need="$$need docker-compose"; \
	if [ -z "$$need" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "make setup: installing$$need"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq -o Acquire::Retries=3; \
		apt-get install -y -qq -o Acquire::Retries=3$$need >/dev/null; \
	else \
		echo "make setup: missing system packages:$$need"; \
		echo "  install them as root: apt-get update && apt-get install -y$$need"; \
		echo "  (tests that need them will skip)"; \
	fi

# All three checks run even when one fails, so one run shows every problem; the exit
# status is still non-zero if any failed.
test: setup
	@rc=0; \
	echo "== $(LINT)"; $(LINT) || rc=1; \
	echo "== $(TYPECHECK)"; $(TYPECHECK) || rc=1; \
	echo "== $(PYTEST)"; $(PYTEST) || rc=1; \
	exit $$rc

lint: setup
	$(LINT)

typecheck: setup
	$(TYPECHECK)

wheel: setup
	$(BIN)/python tools/build_wheel.py --out client/build

# Pyodide, a stdlib trimmed to what the client imports, the hashed wheel, .gz and .br
# beside each (see tools/build_client.py; the first run compresses the wasm, ~2 minutes).
client: setup
	$(BIN)/python tools/build_client.py

# The installable wheel: setup.py's build step builds the client (as `make client`) and
# puts it in the wheel, so `pip install dist/kickline-*.whl && kickline serve` serves it.
dist: setup
	$(BIN)/python -m pip wheel --disable-pip-version-check --no-deps --wheel-dir dist .

# The client runs the rules wheel, so serve the one built from this working tree.  In a
# checkout the server keeps its data in ./data (each clone its own).  HOST and PORT count
# only when given on make's command line (a shell may export HOST as the machine's name).
serve: client
	$(BIN)/kickline serve $(if $(filter command line,$(origin HOST)),--host $(HOST)) \
		$(if $(filter command line,$(origin PORT)),--port $(PORT)) $(ARGS)

# An operator's install (deploy/README.md): the client's runtime npm package (Pyodide; not
# the browser-test driver), then the server into .venv as a normal (not editable) install
# without the dev tools; installing builds the client into the package (setup.py), so
# `kickline serve` serves it from anywhere.  No root, no apt, no Chromium.  Rerun after
# every upgrade: it reinstalls the server and rebuilds the client.
server: | $(BIN)/python
	@command -v npm >/dev/null 2>&1 || { echo "make server: npm not found: install" \
		"Node.js 18+ and npm (deploy/README.md, step 1) to build the client"; exit 1; }
	cd client && npm ci --omit=dev --no-audit --no-fund
	rm -f $(PY_STAMP)  # .venv will no longer hold the editable dev install: `make setup` redoes it
	$(BIN)/python -m pip install --disable-pip-version-check --quiet --upgrade .
	@echo "make server: installed $$($(BIN)/kickline --version); run: $(BIN)/kickline serve"

clean:
	rm -rf client/build artifacts .pytest_cache .mypy_cache .ruff_cache build dist
	find . -path ./$(VENV) -prune -o -path ./client/node_modules -prune \
		-o -name __pycache__ -type d -prune -exec rm -rf {} +

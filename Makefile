# The two commands that matter: `make run` and `make test`. Both work on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install lint bench clean browser pdf-tools axe node-tools clock-tools gnubg-tools

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# node-tools: the faces' pure-JS Ed25519 for a tablet's page outside a secure context
# (decision 0118); without npm the run goes on and such a page says it cannot check.
# The demo venue publishes to a local federation beside it (issue 49): both URLs are printed.
run: install pdf-tools node-tools
	$(BIN)/tableside serve --demo --federation local

# Browser tests drive Debian's Chromium headless shell (chromium-headless-shell, the same
# Blink and V8 as the browser without its UI: about a third less CPU for the browser tests,
# decision 0116): `playwright install` cannot download browsers here. As root, install it
# once when missing (the full chromium where the shell is not to be had: the tests take
# either); otherwise tests/browser skips (or fails under CI=true).
CHROMIUM := /usr/bin/chromium-headless-shell

browser:
	@if [ ! -x $(CHROMIUM) ] && [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell \
	    || { [ -x /usr/bin/chromium ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }; } \
	  || echo "make browser: could not install chromium-headless-shell or chromium (browser tests will say so)"; \
	fi

# The PDF tests read protocols with poppler (pdftoppm, pdftotext); protocols embed DejaVu Sans.
PDF_TOOLS := /usr/bin/pdftoppm
PDF_FONT := /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf

pdf-tools:
	@if { [ ! -x $(PDF_TOOLS) ] || [ ! -f $(PDF_FONT) ]; } && [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    poppler-utils fonts-dejavu-core \
	  || echo "make pdf-tools: could not install poppler-utils/fonts-dejavu-core (PDF tests will say so)"; \
	fi

# The PWA's tools from the npm registry, pinned, never vendored, into the gitignored
# node_modules/: axe-core (the faces' accessibility audit injects it into Chromium; without it
# the audit tests skip, or fail under CI=true) and Biome (`make lint` lints pwa/ with it, rules
# in biome.json). One npm install for both: an install of one alone prunes the other.
# Lighthouse is a measurement, not a test step.
AXE_VERSION := 4.14.1
AXE := node_modules/axe-core/axe.min.js
BIOME_VERSION := 2.6.8
BIOME := node_modules/@biomejs/biome/bin/biome
# @noble/ed25519 and @noble/hashes (its SHA-512): the faces' Ed25519 where the browser has no
# WebCrypto (a page outside a secure context, issue 40); the server serves these files under
# /vendor/ from node_modules (decision 0118), never copied into pwa/.
NOBLE_ED_VERSION := 3.2.0
NOBLE_HASHES_VERSION := 2.4.0
NOBLE := node_modules/@noble/ed25519/index.js
NODE_TOOLS := axe-core@$(AXE_VERSION) @biomejs/biome@$(BIOME_VERSION) \
	@noble/ed25519@$(NOBLE_ED_VERSION) @noble/hashes@$(NOBLE_HASHES_VERSION)

node-tools:
	@if { [ ! -f $(AXE) ] || [ ! -f $(BIOME) ] || [ ! -f $(NOBLE) ] || ! grep -qs '"version": "$(BIOME_VERSION)"' node_modules/@biomejs/biome/package.json \
	  || ! grep -qs '"version": "$(NOBLE_ED_VERSION)"' node_modules/@noble/ed25519/package.json; } \
	  && command -v npm >/dev/null; then \
	  npm install --no-save --no-audit --no-fund --no-package-lock --prefix . $(NODE_TOOLS) >/dev/null 2>&1 \
	  || echo "make node-tools: could not install $(NODE_TOOLS) (the audit tests and make lint will say so)"; \
	fi

axe: node-tools

# The no-show test moves one server's wall clock on by 2 minutes with libfaketime (only that
# process; PostgreSQL and the tests keep the real time). Without it that test skips (fails
# under CI=true).
FAKETIME_LIB := /usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1

clock-tools:
	@if [ ! -f $(FAKETIME_LIB) ] && [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime \
	  || echo "make clock-tools: could not install faketime (the no-show test will say so)"; \
	fi

# GNU Backgammon is the oracle of the backgammon tests (legal plays, and reading back every .mat
# we export). As root, installed once when missing; without it those tests skip (fail under CI=true).
GNUBG := /usr/games/gnubg

gnubg-tools:
	@if [ ! -x $(GNUBG) ] && [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnubg \
	  || echo "make gnubg-tools: could not install gnubg (the gnubg oracle tests will say so)"; \
	fi

# Two workers, each taking whole test files (module fixtures start once); the long files first.
TEST_WORKERS ?= 2

test: install browser pdf-tools axe clock-tools gnubg-tools
	$(BIN)/pytest -q --durations=15 -n $(TEST_WORKERS) --dist loadfile

bench: install
	$(BIN)/python bench/append.py

lint: install node-tools
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache .importlinter .importlinter-annotations
	$(BIN)/mypy
	$(BIOME) lint --error-on-warnings pwa

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .mypy_cache

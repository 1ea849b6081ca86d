# The two commands that matter: `make run` and `make test`. Both work on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/tableside serve --demo

test: install
	$(BIN)/pytest -q

bench: install
	$(BIN)/python bench/append.py

lint: install
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache

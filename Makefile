# Two commands on a fresh machine (python3 >= 3.11 and make): `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run console test lint bench migrate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,dev]"
	touch $(STAMP)

## Set up and run the bot (no DISCORD_TOKEN: the local console table).
run: $(STAMP)
	$(BIN)/gamemaster run

console: $(STAMP)
	$(BIN)/gamemaster console

## Set up and run the whole test suite.
test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check bot cogs rendering tests bench

bench: $(STAMP)
	for f in bench/bench_*.py; do $(BIN)/python -m bench.$$(basename $$f .py) || exit 1; done

migrate: $(STAMP)
	$(BIN)/gamemaster db migrate

clean:
	rm -rf $(VENV) .pytest_cache

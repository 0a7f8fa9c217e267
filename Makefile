# Two commands on a fresh machine (python3 >= 3.11 and make): `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# stamps: what the bot needs to run; that plus the test and lint tools
RUNTIME := $(VENV)/.runtime-installed
DEV := $(VENV)/.dev-installed

.PHONY: run console test lint bench migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# constraints.txt pins every package (reproducible installs); pyproject.toml says what is needed
$(RUNTIME): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c constraints.txt -e .
	touch $(RUNTIME)

$(DEV): pyproject.toml constraints.txt $(RUNTIME)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[test,dev]"
	touch $(DEV)

## Set up and run the bot (no DISCORD_TOKEN: the local console table). Installs only what the bot needs.
run: $(RUNTIME)
	$(BIN)/gamemaster run

console: $(RUNTIME)
	$(BIN)/gamemaster console

## Set up everything (the bot, test and lint tools) and run the whole test suite.
test: $(DEV)
	$(BIN)/python -m pytest

## Ruff over everything, then the type checker over the bot (settings in pyproject.toml [tool.mypy]).
lint: $(DEV)
	$(BIN)/ruff check bot cogs rendering tests bench
	$(BIN)/mypy bot cogs rendering

bench: $(RUNTIME)
	for f in bench/bench_*.py; do $(BIN)/python -m bench.$$(basename $$f .py) || exit 1; done

migrate: $(RUNTIME)
	$(BIN)/gamemaster db migrate

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

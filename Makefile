# Gameroom: the two commands a newcomer needs are `make run` and `make test`.
# Both create .venv and install the project (with its dev tools) when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck imports pytest pytest-pg bench bench-load clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/gameroom run

test: lint typecheck imports pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

imports: $(STAMP)
	$(BIN)/lint-imports

# PostgreSQL needs no set-up: the dev extra installs the pgserver wheel and tests/pg starts a
# throwaway server per session (set GAMEROOM_TEST_POSTGRES_URL to use an existing one instead).
# Two pytest-xdist workers by default (a file's tests stay on one worker): the suite waits on
# bot processes and timers much of the time, so two workers halve it even on two cores.
# PYTEST_WORKERS=0 runs it in this process (for a debugger or print output).
PYTEST_WORKERS ?= 2
pytest: $(STAMP)
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile

# Only the tests that run on PostgreSQL (the database layer and the fixture's own tests).
pytest-pg: $(STAMP)
	$(BIN)/python -m pytest -q tests/db tests/pg -k "postgresql or pg_"

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/turn.py
	$(BIN)/python bench/render_board.py
	$(BIN)/python bench/arbos.py
	$(BIN)/python bench/render_arbos.py
	$(BIN)/python bench/generator.py
	$(BIN)/python bench/render_generator.py
	$(BIN)/python bench/orbs.py
	$(BIN)/python bench/render_orbs.py
	$(BIN)/python bench/generation_zero.py
	$(BIN)/python bench/render_generation_zero.py
	$(BIN)/python bench/ai_speed.py
	$(BIN)/python bench/ai_strength.py
	$(BIN)/python bench/bot_responsiveness.py
	$(BIN)/python bench/ratings.py
	$(BIN)/python bench/gif.py

# N concurrent games against the real bot through the fake Discord, with Discord's rate limits,
# and against a do-nothing floor bot (docs/scale.md). BENCH_LOAD_ARGS="--games 20 --turns 5".
bench-load: $(STAMP)
	$(BIN)/python bench/load.py $(BENCH_LOAD_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

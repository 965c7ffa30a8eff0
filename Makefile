# Gameroom: the two commands a newcomer needs are `make run` and `make test`.
# Both create .venv and install the project (with its dev tools) when it is missing or stale.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck imports pytest bench clean

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

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

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

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

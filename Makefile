# The README's two commands: `make run` and `make test`. Both set everything up first
# (scripts/setup.sh is idempotent and returns at once when nothing changed).
VENV := .venv

.PHONY: run test setup lint bench

setup:
	@bash scripts/setup.sh

run: setup
	@$(VENV)/bin/sayitout $(ARGS)

test: setup
	@bash scripts/test.sh $(ARGS)

lint: setup
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/lint-imports

bench: setup
	@for b in bench/*.py; do echo "== $$b"; $(VENV)/bin/python $$b || exit 1; done

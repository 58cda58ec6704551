# The README's two commands: `make run` and `make test`. Both set everything up first
# (scripts/setup.sh is idempotent and returns at once when nothing changed).
VENV := .venv

.PHONY: run test setup setup-dev lint bench lock

# `make run` installs the app alone (requirements.lock); the test, lint and bench targets
# also install the test tools (requirements-dev.lock).
setup:
	@bash scripts/setup.sh

setup-dev:
	@bash scripts/setup.sh --dev

run: setup
	@$(VENV)/bin/sayitout $(ARGS)

test: setup-dev
	@bash scripts/test.sh $(ARGS)

lock: setup-dev
	@bash scripts/lock.sh

lint: setup-dev
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

bench: setup-dev
	@for b in bench/*.py; do echo "== $$b"; $(VENV)/bin/python $$b || exit 1; done

# The README's two commands: `make run` and `make test`. Both set everything up first.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.sayitout-setup

.PHONY: run test setup lint bench

$(STAMP): scripts/setup.sh requirements.lock pyproject.toml
	bash scripts/setup.sh

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/sayitout $(ARGS)

test: $(STAMP)
	bash scripts/test.sh $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	for b in bench/*.py; do $(PY) $$b || exit 1; done

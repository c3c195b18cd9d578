# Two commands work on a fresh machine with nothing but Python: `make site` and `make test`.
# Each creates or refreshes the virtual environment from pyproject.toml when it is out of
# date (a no-op otherwise), then does its job.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: site test bench serve check golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

site: $(STAMP)
	$(BIN)/devcontext build --out site

test: $(STAMP)
	$(BIN)/python -m pytest

check: $(STAMP)
	$(BIN)/devcontext check

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

serve: $(STAMP)
	$(BIN)/devcontext serve --out site

clean:
	rm -rf $(VENV) site/* .bench

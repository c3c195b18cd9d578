# Two commands work on a fresh machine with nothing but Python: `make site` and `make test`.
# Each creates or refreshes the virtual environment from pyproject.toml when it is out of
# date (a no-op otherwise), then does its job.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: site test bench compare loadtest serve check golden browser hugo clean messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

site: $(STAMP)
	$(BIN)/devcontext build --out site

# The suite runs on every core (pytest-xdist, at most TEST_JOBS workers: CI has 2) and
# names its slowest tests, so a test that grows shows in the log.
TEST_JOBS ?= 4
test: $(STAMP) browser
	$(BIN)/python -m pytest -n auto --maxprocesses $(TEST_JOBS) --durations 15

# Browser tests drive Debian's Chromium; install it when it is missing (needs root, as in CI).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium for the browser tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "warning: could not install chromium; browser tests will be skipped"; }

golden: $(STAMP)
	$(BIN)/python tests/site/golden.py

# Extract the interface strings of the templates and the code (babel.cfg) and bring every
# catalogue under generator/locale/ in step; then translate what it reports untranslated.
messages: $(STAMP)
	$(BIN)/python -m generator.site.messages

check: $(STAMP)
	$(BIN)/devcontext check

# The peers the build is measured against (benchmarks/bench_peers.py): MkDocs from the
# `bench` extra, Hugo from Debian (needs root, as in CI; the peer rows are skipped without).
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

hugo:
	@command -v hugo >/dev/null 2>&1 || { \
	  echo "installing hugo for the peer benchmarks"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hugo >/dev/null) \
	  || echo "warning: could not install hugo; its peer rows will be skipped"; }

bench: $(BENCH_STAMP) hugo
	$(BIN)/python -m benchmarks.run

# Two git refs' full builds (demo, real layer, synthetic medium) timed side by side,
# alternating, with the medians' ratio and each tree's SHA-256 (.bench/compare.json).
# Not part of `make test`: make compare REFS="f3033b1 HEAD" [ROUNDS=3]
REFS   ?= main HEAD
ROUNDS ?= 3
compare: $(STAMP)
	$(BIN)/python -m benchmarks.compare_refs $(REFS) --rounds $(ROUNDS)

# `devcontext serve` under load on loopback while the layer is edited (bounded; prints
# requests/s, p50/p95 latency, 5xx count, RSS before/after, slow clients cut off).
loadtest: $(STAMP)
	$(BIN)/python -m benchmarks.loadtest

serve: $(STAMP)
	$(BIN)/devcontext serve --out site

clean:
	rm -rf $(VENV) site/* .bench

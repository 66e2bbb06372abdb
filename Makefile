# raag: `make demo` and `make test` are the two commands; both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: install demo test chromium ui-test lint typecheck bench bench-copy bench-latency bench-tenants fault-kill fault-restart load graph-eval structure-eval corpus-audit pdf-audit text-audit search-eval fit-weights eval conformance ui clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# torch first and pinned: the CPU build on this machine's disk, not a CUDA download
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/raag ingest examples --tenant demo
	$(BIN)/raag search "How many days of annual leave do full-time employees get?" --tenant demo --k 3
	$(BIN)/raag search "Who approves working from home?" --tenant demo --k 3
	$(BIN)/raag search "carry over unused leave" --tenant demo --k 3 --tag leave
	$(BIN)/raag edges --tenant demo --type overrides
	$(BIN)/raag edges --tenant demo --type depends_on
	$(BIN)/raag unresolved --tenant demo
	@echo
	@echo "Open the Dagster UI:  $(BIN)/raag ui   (then http://127.0.0.1:3000)"

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy

# lint, types (both packages, pyproject's [tool.mypy]), then the tests (the import direction,
# SQL-only-in-sql/ and the explorer page in a real browser among them)
test: install chromium
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

# The explorer page's browser tests drive Debian's chromium through playwright: installed here
# when missing (as root, or through sudo). Where it cannot be installed the browser tests skip,
# saying why; `make ui-test` runs only them.
CHROMIUM ?= /usr/bin/chromium
chromium:
	@test -x $(CHROMIUM) || { echo "installing Debian's chromium for the explorer's browser tests"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null \
	  || echo "chromium could not be installed: the browser tests will skip"; }

ui-test: install chromium
	RAAG_CHROMIUM=$(CHROMIUM) $(BIN)/pytest -s -m browser tests/interfaces/test_explorer.py

bench: install
	$(BIN)/python benchmarks/bench_ingest_search.py

bench-copy: install
	$(BIN)/python benchmarks/bench_copy.py

# SIZE chunks in the measured tenant (synthetic text and clustered vectors): make bench-latency SIZE=1000000
SIZE ?= 100000
bench-latency: install
	SIZE=$(SIZE) $(BIN)/python benchmarks/bench_latency.py

# TENANTS tenants in one store (the measured one ingested for real, the others synthetic)
TENANTS ?= 1000
bench-tenants: install
	TENANTS=$(TENANTS) $(BIN)/python benchmarks/bench_tenants.py

fault-kill: install
	$(BIN)/python benchmarks/fault_kill.py

fault-restart: install
	$(BIN)/python benchmarks/fault_restart.py

load: install
	$(BIN)/python benchmarks/load.py

graph-eval: install
	$(BIN)/python benchmarks/graph_eval.py

structure-eval: install
	$(BIN)/python benchmarks/structure_eval.py

corpus-audit: install
	$(BIN)/python benchmarks/corpus_audit.py

# CUAD contracts typeset as PDFs, read against their text (40 per half; --per-half N)
pdf-audit: install
	$(BIN)/python benchmarks/pdf_audit.py -v

# CUAD contracts written again as plain text in other forms (hard-wrapped EDGAR, paged CRLF,
# clauses run in), read against their text (40 per half; --per-half N, --form F)
text-audit: install
	$(BIN)/python benchmarks/text_audit.py -v

# the written question sets (golden/questions/*.yaml, both halves, beside BM25 and dense
# 500-character baselines), then the project's own multi-section set, then the CUAD span
# set (both halves; CUAD_SPANS: its options, e.g. "--contracts 80" or "--all") and the same
# queries in a labeller's other wordings (golden/spans/cuad_wordings.json; the 40-contract samples)
search-eval: install
	$(BIN)/python benchmarks/question_eval.py
	$(BIN)/python benchmarks/search_eval.py
	$(BIN)/raag eval golden/spans/cuad.json $(CUAD_SPANS)
	$(BIN)/python benchmarks/span_wordings.py look
	$(BIN)/python benchmarks/span_wordings.py scored

# fit the scoring factors (raag_assets/retrieval/weights.json) on the look half only
fit-weights: install
	$(BIN)/python benchmarks/fit_weights.py --write

eval: install
	$(BIN)/raag eval ../shared/data/scifact

conformance: install
	$(BIN)/raag conformance

ui: install
	$(BIN)/raag ui

clean:
	rm -rf .raag

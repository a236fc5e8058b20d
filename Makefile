PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUNTIME := $(VENV)/.runtime

.PHONY: install engine deck test lint bench sim clean check-ctrl-c fuzz axe pyodide identity docs

# The deck path needs the runtime dependencies only; tests, lint and the compiled engine
# add the dev extras (pytest, mypy with mypyc, Playwright, Dask, ...).
$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# axe-core (npm, pinned) for the browser tests' accessibility audit, which Playwright
# injects into the page; without npm the audit skips and says so.
AXE_VERSION := 4.11.0
AXE := $(VENV)/npm/node_modules/axe-core/axe.min.js
$(AXE): $(STAMP)
	@if command -v npm >/dev/null 2>&1; then \
		npm install --silent --no-audit --no-fund --prefix $(VENV)/npm axe-core@$(AXE_VERSION); \
	else echo "axe: no npm on the PATH; the accessibility audit will skip"; fi

axe: $(AXE)

# Pyodide (npm, pinned: kraftstokk/web/export.py's PYODIDE_VERSION) for export-web, which
# copies its runtime into the static site, and for the static edition's browser tests; then
# Python's start compiled ahead by Pyodide in Node (scripts/pyodide_boot.mjs), which the
# export puts in the page's standard library.
PYODIDE_VERSION := 314.0.8
PYODIDE := $(VENV)/npm/node_modules/pyodide/kraftstokk-boot-pyc.zip
$(PYODIDE): $(STAMP) scripts/pyodide_boot.mjs
	@if command -v npm >/dev/null 2>&1; then \
		npm install --silent --no-audit --no-fund --prefix $(VENV)/npm pyodide@$(PYODIDE_VERSION) \
		&& node scripts/pyodide_boot.mjs $(VENV)/npm/node_modules/pyodide; \
	else echo "pyodide: no npm on the PATH; export-web and the static edition's tests need it"; fi

pyodide: $(PYODIDE)

# The engine is compiled with mypyc after every change to its sources (a minute or two) by the
# targets that play games; the deck path plays none, so `make deck` never waits for it.
# Without a C compiler the engine stays pure Python. See scripts/compile_engine.py.
engine: $(STAMP)
	@$(BIN)/python scripts/compile_engine.py --if-stale

deck: $(RUNTIME)
	$(BIN)/kraftstokk build --spec sources/deck.toml --out output
	$(BIN)/kraftstokk validate output/deck.json
	$(BIN)/kraftstokk render output/deck.json --out output
	$(BIN)/kraftstokk render output/deck.json --out output --only box
	$(BIN)/kraftstokk booklet output/deck.json --out output --imposed --printshop
	$(BIN)/kraftstokk booklet output/deck.json --out output --lang en

# The suite on TEST_WORKERS processes, each test file whole in one (its module fixtures,
# one browser per module, stay one); TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 2
test: engine axe pyodide
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile

# The user guide (docs/) as a site in build/guide/, strict: a broken link or anchor fails it.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

lint: install
	$(BIN)/ruff check kraftstokk tests benchmarks scripts
	$(BIN)/ruff format --check kraftstokk tests benchmarks scripts
	$(BIN)/mypy kraftstokk scripts

# A development check that the Dask Ctrl-C test is no longer flaky: 20 runs in a row.
CTRL_C_TEST := tests/test_sim_sweep.py::test_ctrl_c_stops_cleanly_writes_what_is_done_and_exits_130[local:2-ctrl-c]
check-ctrl-c: engine
	@for run in $$(seq 1 20); do \
		$(BIN)/pytest -p no:cacheprovider "$(CTRL_C_TEST)" >/dev/null 2>&1 \
			|| { echo "check-ctrl-c: run $$run of 20 failed:"; $(BIN)/pytest -p no:cacheprovider "$(CTRL_C_TEST)"; exit 1; }; \
		echo "check-ctrl-c: run $$run of 20 passed"; \
	done

bench: engine pyodide
	$(BIN)/python benchmarks/run.py

# Property-based fuzzing of every file reader, the long profile (make test runs a short,
# derandomized one): FUZZ_EXAMPLES examples per reader, a new random seed each run; prints
# each reader's runs, exit codes, times and peak memory.
FUZZ_EXAMPLES ?= 200
# The cores against pure Python on 20,000 games per game (make test compares 8,000).
identity: engine
	KRAFTSTOKK_IDENTITY_GAMES=20000 $(BIN)/pytest -p no:cacheprovider tests/test_games_fastcore.py

fuzz: install
	KRAFTSTOKK_FUZZ=long KRAFTSTOKK_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest -p no:cacheprovider \
		tests/test_fuzz_readers.py tests/test_hostile_property.py

sim: engine
	$(BIN)/kraftstokk build --spec sources/deck.toml --out output
	$(BIN)/kraftstokk simulate output/deck.json --game idiot --out output
	$(BIN)/kraftstokk simulate output/deck.json --game kraftidioten --out output
	$(BIN)/kraftstokk simulate output/deck.json --game stromkrig --out output

clean:
	rm -rf output/*.pdf output/*.json output/*.csv output/png build *.egg-info site

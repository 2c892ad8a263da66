# Two commands: `make demo` and `make test`. Both set up everything on a fresh Debian
# machine with only Python installed: the virtual environment, the Python packages and
# Tesseract (through apt-get when run as root; otherwise the exact command is printed).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# mypyc compiles the solver's hot modules in place (about 2x faster); it falls back to plain
# Python, with a note, where no C compiler is found. Rebuilt whenever a solver source changes.
NATIVE := solver/_native.json
SOLVER_SOURCES := $(shell find solver -name '*.py')

.PHONY: demo test test-fast lint typecheck check setup system-deps tesseract-dep chromium-dep firefox-dep native bench train-digits clean

setup: $(STAMP) system-deps native

native: $(NATIVE)

$(NATIVE): $(STAMP) $(SOLVER_SOURCES) tools/build_native.py
	$(BIN)/python tools/build_native.py

# --no-compile: Python writes the bytecode of a module when it is first imported, not
# of every module of every package at install (about half of pip's 70 s here).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --no-compile -e '.[dev]'
	touch $(STAMP)

# The held-out font families (stress-fonts, below) too: the reader tests that render them
# would otherwise skip.
system-deps: tesseract-dep chromium-dep firefox-dep stress-fonts

# Debian's chromium for the browser tests (Playwright drives it; no browser is ever
# downloaded): installed through apt-get when root, else the tests that need it say so.
chromium-dep:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing chromium with apt-get (browser tests)"; \
		(DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || \
		 (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null)) \
		|| echo "warning: could not install chromium; the browser tests will be skipped"; \
	else \
		echo "note: chromium is not installed; for the browser tests run: sudo apt-get install -y chromium"; \
	fi

# Debian's Firefox ESR, to check the report's grid lines in a second engine (its own
# headless --screenshot; Playwright's Firefox would be a downloaded build).
firefox-dep:
	@if command -v firefox-esr >/dev/null 2>&1 || command -v firefox >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing firefox-esr with apt-get (report test)"; \
		(DEBIAN_FRONTEND=noninteractive apt-get install -y -q firefox-esr >/dev/null 2>&1 || \
		 (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q firefox-esr >/dev/null)) \
		|| echo "warning: could not install firefox-esr; the Firefox report test will be skipped"; \
	else \
		echo "note: firefox-esr is not installed; for the Firefox report test run: sudo apt-get install -y firefox-esr"; \
	fi

tesseract-dep:
	@if command -v tesseract >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing tesseract-ocr with apt-get"; \
		(DEBIAN_FRONTEND=noninteractive apt-get install -y -q tesseract-ocr >/dev/null 2>&1 || \
		 (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q tesseract-ocr >/dev/null)) \
		|| echo "warning: could not install tesseract-ocr; the tesseract engine will be unavailable"; \
	else \
		echo "note: Tesseract is not installed; for the tesseract engine run: sudo apt-get install -y tesseract-ocr"; \
	fi

demo: setup
	$(BIN)/sudoku-scan demo

# pytest-xdist runs the tests on every core, a test file to a worker (its module fixtures
# made once): about 6 minutes on 2 cores against 11 in one process. JOBS=1 runs them in one.
JOBS ?= auto
PYTEST = $(BIN)/python -m pytest -q $(if $(filter 1,$(JOBS)),,-n $(JOBS) --dist loadfile)

test: setup
	$(PYTEST)

# The fast loop: everything but the tests marked slow (the soundness sweeps over hard
# solve paths, the huge image), about a minute less.
test-fast: setup
	$(PYTEST) -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check solver scanner overlay pipeline tests benchmarks tools
	$(BIN)/ruff format --check solver scanner overlay pipeline tests benchmarks tools
	$(BIN)/mypy

check: lint test

bench: setup
	$(BIN)/python benchmarks/bench_solver.py
	$(BIN)/sudoku-scan eval ../shared/data/photos/wicht-train
	$(BIN)/python benchmarks/bench_pipeline.py

# Retrain the digit networks, reader and hand reader (about 26 minutes on 2 cores). PyTorch is
# installed into .venv for this only; the product runs the exported weights in NumPy.
# HAND_FONT_PACKAGES are the handwriting the network learns the person's entries from
# (scanner.digits.synth.HAND_FONT_DIRS), never print.
HAND_FONT_PACKAGES := fonts-dkg-handwriting fonts-breip fonts-bwht fonts-humor-sans \
	fonts-rufscript fonts-comic-neue fonts-dancingscript fonts-klee
FONT_PACKAGES := fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-freefont-ttf \
	fonts-urw-base35 fonts-noto-core fonts-croscore fonts-crosextra-carlito \
	fonts-crosextra-caladea fonts-open-sans fonts-roboto-unhinted $(HAND_FONT_PACKAGES)

train-digits: $(STAMP)
	@if [ "$$(id -u)" = "0" ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(FONT_PACKAGES) >/dev/null; \
	else echo "make sure these are installed: sudo apt-get install -y $(FONT_PACKAGES)"; fi
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/python -m scanner.digits.train --out scanner/digits/weights.npz

clean:
	-$(BIN)/python tools/build_native.py --clean
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

# Stress benchmark: the reader on rendered prints, app screenshots and damaged photos
# (about 5 minutes on 2 cores; see benchmarks/bench_stress.py). The digits are drawn in
# these HELD-OUT font families, which the digit network must never be trained on:
# train-digits skips their folders (scanner.digits.synth.HELD_OUT_FONT_DIRS).
# fonts-sjfonts, fonts-kiloji, fonts-seto and fonts-yusei-magic are the held-out
# handwriting (synth.HELD_OUT_HAND_FONT_DIRS) that bench-mixed writes the person's
# entries in.
STRESS_FONT_PACKAGES := fonts-cantarell fonts-comfortaa fonts-firacode \
	fonts-hack fonts-inconsolata fonts-lato fonts-league-spartan fonts-linuxlibertine \
	fonts-oxygen fonts-quicksand fonts-sil-charis fonts-sjfonts fonts-kiloji fonts-seto \
	fonts-yusei-magic

.PHONY: bench-stress bench-mixed bench-speed bench-degraded stress-fonts
bench-stress: stress-fonts
	$(BIN)/python benchmarks/bench_stress.py

# Reading speed per photo file, decode included (benchmarks/bench_read_speed.py; pass
# SPEED_ARGS="--against ../old" to time another checkout in the same rounds).
bench-speed: stress-fonts
	$(BIN)/python benchmarks/bench_read_speed.py $(SPEED_ARGS)

# Handwriting: printed givens and the person's entries (benchmarks/bench_mixed.py).
bench-mixed: stress-fonts
	$(BIN)/python benchmarks/bench_mixed.py

# Wicht's photos degraded as other cameras and light hand them over: noise, underexposed,
# JPEG 15, a shadow, a webcam's (benchmarks/bench_degraded.py; about 10 minutes on 2 cores).
bench-degraded: $(STAMP)
	$(BIN)/python benchmarks/bench_degraded.py

stress-fonts: $(STAMP)
	@if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		(DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(STRESS_FONT_PACKAGES) >/dev/null 2>&1 || \
		 (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(STRESS_FONT_PACKAGES) >/dev/null)) \
		|| echo "warning: could not install the held-out fonts; the benchmark skips the missing ones"; \
	else echo "for every held-out font family: sudo apt-get install -y $(STRESS_FONT_PACKAGES)"; fi

# The one way to set up, run, test, lint and benchmark unotable.
#
#   make test        set up .venv if needed, then ruff, mypy --strict and the whole test suite
#   make check       the fast loop: ruff, mypy --strict and the quick tests (under two minutes)
#   make lint        ruff
#   make typecheck   mypy --strict (configured in pyproject.toml)
#   make bench       install the bench extra, then run benchmarks/throughput.py
#   make rl          set up the RL extra with PyTorch's CPU build and sb3-contrib, then train a
#                    MaskablePPO model for a minute or two (examples/sb3_maskable_ppo.py)
#   make native-sanitize  the native core's differential tests under ASan and UBSan (in make test)
#   make play        terminal play against bots; pass options with ARGS="..."
#   make serve       the online tables (unotable serve); pass options with ARGS="--port 8080"
#   make clean       remove caches and build outputs (make distclean also removes .venv)
#
# Everything runs from .venv, which `make venv` creates from nothing with $(PY) and keeps in
# step with pyproject.toml: editing pyproject.toml makes the next target re-install.

PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
STAMP_DEV := $(VENV)/.stamp-dev
STAMP_PLAY := $(VENV)/.stamp-play
STAMP_SERVE := $(VENV)/.stamp-serve
STAMP_BENCH := $(VENV)/.stamp-bench
STAMP_NATIVE := $(VENV)/.stamp-native
STAMP_TORCH := $(VENV)/.stamp-torch
STAMP_RAY := $(VENV)/.stamp-ray
STAMP_RL := $(VENV)/.stamp-rl
# PyTorch, pinned exactly (see STAMP_TORCH); TORCH_PIP_ARGS adds pip options, e.g. an --index-url
# serving PyTorch's CPU wheels on a machine whose package index serves only the CUDA build.
TORCH := torch==2.13.0
TORCH_PIP_ARGS ?=
ARGS ?=

# Paths to lint that exist in this checkout (git keeps no empty folders).
LINT_PATHS := $(wildcard unotable research tests benchmarks examples)

.DEFAULT_GOAL := test
.PHONY: venv test check native-sanitize lint typecheck bench play serve rl clean distclean

# pyvenv.cfg is written afresh whenever the venv is created, so the stamps below, which depend on
# it, are re-made after every (re)creation. When .venv/bin/python is missing, broken (a dangling
# link after the base Python moved) or older than 3.11, the venv is recreated from scratch.
VENV_OK := $(shell $(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && echo ok)
ifneq ($(VENV_OK),ok)
.PHONY: $(VENV)/pyvenv.cfg
endif

$(VENV)/pyvenv.cfg:
	$(PY) -m venv --clear $(VENV)

$(STAMP_DEV): pyproject.toml $(VENV)/pyvenv.cfg
	$(PIP) install -e '.[dev,server,rl,onnx]'
	@touch $@

# Playing needs the package alone (the engine is standard library only); serving needs the server
# extra. Neither installs the development tools.
$(STAMP_PLAY): pyproject.toml $(VENV)/pyvenv.cfg
	$(PIP) install -e .
	@touch $@

$(STAMP_SERVE): pyproject.toml $(VENV)/pyvenv.cfg
	$(PIP) install -e '.[server]'
	@touch $@

$(STAMP_BENCH): pyproject.toml $(STAMP_DEV)
	$(PIP) install -e '.[bench]'
	@touch $@

# The native core (native/, its own distribution unotable-native: C++17, nanobind, scikit-build-core
# from PyPI) is built into .venv for the tests; tests/native skips when it is not built.
NATIVE_SOURCES := $(wildcard native/pyproject.toml native/CMakeLists.txt native/src/*)
$(STAMP_NATIVE): $(NATIVE_SOURCES) $(STAMP_DEV)
	$(PIP) install -e './native[dev]'
	@touch $@

# PyTorch (CPU) for the tests that train: examples/train_ppo.py and the learned bot's training run a
# tiny version each, and tests/env trains sb3-contrib's MaskablePPO (the sb3 extra, installed after
# torch so that pip finds it there). Pinned exactly: on these machines torch==2.13.0 installs from a
# file on disk, while an open range would fetch a multi-gigabyte CUDA build.
$(STAMP_TORCH): $(STAMP_DEV)
	$(PIP) install $(TORCH) $(TORCH_PIP_ARGS)
	$(PIP) install -e '.[sb3]'
	@touch $@

# The researcher's setup: the rl extra, PyTorch's CPU build, then the sb3 extra (Stable-Baselines3,
# sb3-contrib), without the development tools; the native core stays optional (`make
# .venv/.stamp-native` builds it, and backend="auto" then picks it).
$(STAMP_RL): pyproject.toml $(VENV)/pyvenv.cfg
	$(PIP) install -e '.[rl]'
	$(PIP) install $(TORCH) $(TORCH_PIP_ARGS)
	$(PIP) install -e '.[sb3]'
	@touch $@

# Ray with RLlib (the rl-ray extra), after PyTorch: tests/env/test_rllib.py trains
# examples/rllib_multiagent.py for two iterations on a local Ray instance with two workers.
$(STAMP_RAY): pyproject.toml $(STAMP_TORCH)
	$(PIP) install -e '.[rl-ray]'
	@touch $@

# The differential tests of tests/native against a build of the core with AddressSanitizer and
# UndefinedBehaviorSanitizer (the Python interpreter is not instrumented, so the runtimes are
# preloaded; leak checking is off, as CPython's arenas look like leaks). Part of make test; the
# probe sweep and the deal sweep are left out to keep it to a minute or two (SANITIZE_TESTS= runs them all).
SANITIZE_DIR := native/build/sanitize
SANITIZE_TESTS ?= -k 'not test_every_probe and not test_deals_equal'
native-sanitize: $(STAMP_NATIVE)
	$(BIN)/cmake -S native -B $(SANITIZE_DIR) -DUNOTABLE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DPython_EXECUTABLE=$(abspath $(BIN)/python) >/dev/null
	$(BIN)/cmake --build $(SANITIZE_DIR) -j 2
	LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so):$$($(CXX) -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	UNOTABLE_NATIVE_CORE="$$(ls $(SANITIZE_DIR)/_core*.so)" \
		$(BIN)/pytest -q -p no:cacheprovider tests/native $(SANITIZE_TESTS)

venv: $(STAMP_DEV)

lint: venv
	$(BIN)/ruff check $(LINT_PATHS)

typecheck: venv
	$(BIN)/mypy

# The browser table's tests (tests/web) drive Debian's chromium through Playwright, firefox-esr over
# WebDriver BiDi and WebKitGTK's MiniBrowser through WebKitWebDriver (webkit2gtk-driver) on an Xvfb
# display: what is missing is installed here in one apt-get call (as root), else make test stops and
# says what to install.
BROWSER_TOOLS := chromium:chromium firefox-esr:firefox-esr WebKitWebDriver:webkit2gtk-driver Xvfb:xvfb

test: venv $(STAMP_NATIVE) $(STAMP_TORCH) $(STAMP_RAY)
	@missing=; for tool in $(BROWSER_TOOLS); do command -v $${tool%%:*} >/dev/null || missing="$$missing $${tool#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "make test: the browser tests need$$missing; run 'sudo apt-get install$$missing' or make test as root" >&2; exit 1; fi; \
	  echo "apt-get install$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy
	$(BIN)/pytest -q
	$(MAKE) --no-print-directory native-sanitize

# The quick tests: the engine's and the rules' tests, the bots', every docstring's and page's
# examples; not the property runs, nor anything that starts a server, a browser, a terminal or a
# native build (tests/server, tests/web, tests/tui, tests/native, tests/env, the examples).
QUICK_TESTS := tests/rules tests/bots \
	$(filter-out tests/test_properties.py tests/test_examples.py,$(wildcard tests/test_*.py)) \
	unotable research README.md docs

check: venv
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/mypy
	$(BIN)/pytest -q -m 'not slow' $(QUICK_TESTS)

bench: $(STAMP_BENCH)
	$(BIN)/python benchmarks/throughput.py

rl: $(STAMP_RL)
	$(BIN)/python examples/sb3_maskable_ppo.py --steps 1024 --rounds 50 --out $(VENV)/uno_maskable_ppo.zip

play: $(STAMP_PLAY)
	$(BIN)/unotable play $(ARGS)

serve: $(STAMP_SERVE)
	$(BIN)/unotable serve $(ARGS)

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -path ./.git -prune -o \
		\( -name __pycache__ -o -name '*.egg-info' \) -type d -prune -exec rm -rf {} + \
		-o -name '*.pyc' -type f -exec rm -f {} +

distclean: clean
	rm -rf $(VENV)

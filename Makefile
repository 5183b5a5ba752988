# Tritium's entry points. Each target installs what it needs first, so on a
# fresh Debian 12 machine `make run` and `make test` are all there is to type.
#
#   make run     build, then run the examples (parse, verify, print)
#   make test    build, then run the doctest, lit and pytest suites
#   make build   configure and build into $(BUILD_DIR)
#   make deps    install missing Debian packages and Python modules
#   make clean   remove $(BUILD_DIR)
#
# Variables: BUILD_DIR (build), CMAKE_ARGS (extra configure arguments, e.g.
# -DTRITIUM_WERROR=ON), JOBS (all cores), PYTHON (python3).

BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
# Release code with assertions kept: the tests exercise Tritium's own checks.
CMAKE_BASE_ARGS := -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O2

# A virtual environment appears only where the system Python refuses pip
# installs (Debian's externally managed python3); when it exists, it wins.
export PATH := $(CURDIR)/.venv/bin:$(PATH)
PYTHON ?= python3

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages, each with the file that shows it is installed.
APT_PROBES := \
  /usr/bin/cmake:cmake \
  /usr/bin/ninja:ninja-build \
  /usr/bin/g++:g++ \
  /usr/lib/llvm-16/lib/cmake/llvm/LLVMConfig.cmake:llvm-16-dev \
  /usr/lib/llvm-16/lib/liblldELF.a:liblld-16-dev \
  /usr/lib/llvm-16/bin/FileCheck:llvm-16-tools \
  /usr/include/doctest/doctest.h:doctest-dev \
  /usr/include/zlib.h:zlib1g-dev \
  /usr/include/zstd.h:libzstd-dev \
  /usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ocml.bc:rocm-device-libs
PY_MODULES := numpy pytest lit pybind11
PIP_PACKAGES := numpy pytest lit pybind11 scikit-build-core

# Recomputed on each use, so that they see what `deps` just installed.
apt_missing = $(shell command -v $(PYTHON) >/dev/null || echo python3 python3-dev; \
  for p in $(APT_PROBES); do \
    [ -e "$$(echo $$p | cut -d: -f1)" ] || echo $$p | cut -d: -f2; \
  done)
py_missing = $(shell $(PYTHON) -c 'import importlib.util as u; print(*[m for m in "$(PY_MODULES)".split() if not u.find_spec(m)])' 2>/dev/null || echo $(PY_MODULES))
py_headers_missing = $(shell $(PYTHON) -c 'import os, sysconfig; print("" if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else "python3-dev")' 2>/dev/null)
py_externally_managed = $(shell $(PYTHON) -c 'import os, sys, sysconfig; print("yes" if sys.prefix == sys.base_prefix and os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else "")' 2>/dev/null)

.PHONY: all build test run deps deps-python check-deps clean help
all: build

help:
	@sed -n '3,12p' Makefile | sed 's/^# \{0,1\}//'

deps: check-deps

# Installs only what is missing.
check-deps:
	@set -e; apt="$(strip $(apt_missing) $(py_headers_missing))"; \
	if [ -n "$$apt" ]; then \
	  echo "apt-get install $$apt"; \
	  $(SUDO) apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$apt; \
	fi
	@$(MAKE) --no-print-directory deps-python

# A separate step, so that it looks at the Python that apt may just have put in.
deps-python:
	@set -e; if [ -z "$(strip $(py_missing))" ]; then exit 0; fi; \
	if [ -n "$(py_externally_managed)" ]; then \
	  echo "$(PYTHON) is managed by Debian: pip installs into .venv"; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends python3-venv python3-pip; \
	  $(PYTHON) -m venv --system-site-packages .venv; \
	  .venv/bin/python -m pip install -q $(PIP_PACKAGES); \
	else \
	  echo "pip install $(PIP_PACKAGES)"; \
	  $(PYTHON) -m pip install -q $(PIP_PACKAGES); \
	fi

# Configures again only when the arguments changed (kept in a stamp file).
build: check-deps
	@args='$(CMAKE_BASE_ARGS) $(CMAKE_ARGS)'; \
	if [ ! -f $(BUILD_DIR)/build.ninja ] || [ "$$(cat $(BUILD_DIR)/.cmake-args 2>/dev/null)" != "$$args" ]; then \
	  cmake -S . -B $(BUILD_DIR) $$args -DPython_EXECUTABLE="$$($(PYTHON) -c 'import sys; print(sys.executable)')" \
	    && echo "$$args" > $(BUILD_DIR)/.cmake-args; \
	fi
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Runs every suite even when one fails, then prints one line per suite and
# the total; exits non-zero on any failure. Logs stay in $(BUILD_DIR)/test-logs.
LOGS = $(BUILD_DIR)/test-logs
test: build
	@mkdir -p $(LOGS); \
	echo "== unit tests (doctest)"; \
	$(BUILD_DIR)/bin/tritium-unittests > $(LOGS)/unit.log 2>&1; unit_rc=$$?; \
	tail -n 3 $(LOGS)/unit.log; \
	unit_pass=$$(sed -n 's/.*test cases: *[0-9]* *| *\([0-9]*\) passed.*/\1/p' $(LOGS)/unit.log | tail -n1); \
	unit_fail=$$(sed -n 's/.*test cases:.*| *\([0-9]*\) failed.*/\1/p' $(LOGS)/unit.log | tail -n1); \
	unit_skip=$$(sed -n 's/.*test cases:.*| *\([0-9]*\) skipped.*/\1/p' $(LOGS)/unit.log | tail -n1); unit_skip=$${unit_skip:-0}; \
	if [ -z "$$unit_pass" ]; then unit_pass=0; unit_fail=1; echo "  the unit test binary exited $$unit_rc without a summary"; cat $(LOGS)/unit.log; \
	elif [ $$unit_rc -ne 0 ]; then unit_fail=$$((unit_fail ? unit_fail : 1)); grep -B2 -A8 "ERROR\|FAILED\|CHECK" $(LOGS)/unit.log | head -n 60; fi; \
	echo "== lit tests"; \
	lit -sv $(BUILD_DIR)/tests/lit > $(LOGS)/lit.log 2>&1; lit_rc=$$?; \
	lit_pass=$$(awk -F: '/^ *(Passed|Expectedly Failed) *:/ {s += $$2} END {print s + 0}' $(LOGS)/lit.log); \
	lit_fail=$$(awk -F: '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {s += $$2} END {print s + 0}' $(LOGS)/lit.log); \
	lit_skip=$$(awk -F: '/^ *(Unsupported|Skipped) *:/ {s += $$2} END {print s + 0}' $(LOGS)/lit.log); \
	if grep -q "did not discover any tests" $(LOGS)/lit.log; then echo "  no lit tests yet"; \
	elif [ $$lit_rc -ne 0 ]; then lit_fail=$$((lit_fail ? lit_fail : 1)); grep -v "^PASS:" $(LOGS)/lit.log | tail -n 60; \
	else grep -E "^ *(Passed|Failed|Unsupported) *:" $(LOGS)/lit.log; fi; \
	echo "== Python tests (pytest)"; \
	PYTHONPATH=$(CURDIR)/python TRITIUM_TOOLS_DIR=$(abspath $(BUILD_DIR))/bin $(PYTHON) -m pytest -q -rs tests/python > $(LOGS)/pytest.log 2>&1; py_rc=$$?; \
	last=$$(grep -E "[0-9]+ (passed|failed|skipped|error)" $(LOGS)/pytest.log | tail -n1); \
	count() { echo "$$last" | grep -oE "[0-9]+ $$1" | awk '{s += $$1} END {print s + 0}'; }; \
	py_pass=$$(count passed); py_skip=$$(count skipped); py_fail=$$(($$(count failed) + $$(count error))); \
	if [ $$py_rc -ne 0 ] && [ $$py_rc -ne 5 ]; then py_fail=$$((py_fail ? py_fail : 1)); tail -n 60 $(LOGS)/pytest.log; \
	else grep -E "^SKIPPED" $(LOGS)/pytest.log | head -n 10; echo "$$last"; fi; \
	echo; \
	printf 'unit:   %4d passed, %d failed, %d skipped\n' $$unit_pass $$unit_fail $$unit_skip; \
	printf 'lit:    %4d passed, %d failed, %d skipped\n' $$lit_pass $$lit_fail $$lit_skip; \
	printf 'pytest: %4d passed, %d failed, %d skipped\n' $$py_pass $$py_fail $$py_skip; \
	fail=$$((unit_fail + lit_fail + py_fail)); \
	echo "SUMMARY: $$((unit_pass + lit_pass + py_pass)) passed, $$fail failed, $$((unit_skip + lit_skip + py_skip)) skipped"; \
	[ $$fail -eq 0 ]

# Until the backends exist, running an example means parsing, verifying and
# printing it, through tritium-opt and through the Python API.
run: build
	@set -e; for f in examples/*.tir; do \
	  echo "== tritium-opt -p verify $$f"; \
	  $(BUILD_DIR)/bin/tritium-opt $$f -p verify; \
	done
	@echo "== python examples/run.py"
	@PYTHONPATH=$(CURDIR)/python $(PYTHON) examples/run.py

clean:
	rm -rf $(BUILD_DIR)

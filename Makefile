# Two commands do all set-up on a fresh Debian machine:
#   make demo   - a pkcs11 module generated from the PKCS#11 headers drives a SoftHSM token
#   make test   - the whole test suite
# Both install what they need (Debian packages, then a .venv) and are idempotent.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SYSTEM_STAMP := $(VENV)/.system-packages
VENV_STAMP := $(VENV)/.installed

.PHONY: demo demo-small test test-quick check setup system-packages clean

demo: setup
	$(PY) examples/pkcs11/run_demo.py

# The small first example: a ten-function C library bound with the Cython backend.
demo-small: setup
	$(PY) examples/demo/run_demo.py

# The slowest tests are listed at the end, to keep the whole run within its time budget.
test: setup check
	$(PY) -m pytest -n 2 --dist loadgroup -q --durations=15

# The quick subset: everything except the compile-heavy tests.
test-quick: setup
	$(PY) -m pytest -n 2 --dist loadgroup -q -m "not slow"

# Lint and type-check the package (its runtime sources included); `make test` runs it first.
check: setup
	$(PY) -m ruff check pegbind
	$(PY) -m mypy

setup: $(VENV_STAMP)

system-packages:
	bash scripts/install-system-packages.sh

$(SYSTEM_STAMP): scripts/install-system-packages.sh
	bash scripts/install-system-packages.sh
	mkdir -p $(VENV) && touch $@

$(VENV_STAMP): $(SYSTEM_STAMP) pyproject.toml setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

clean:
	rm -rf build dist *.egg-info .pytest_cache demo-out

# The two commands of the README, plus the benchmarks. Each target creates or
# updates .venv itself, then (re)builds the Cython core in place.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test bench build clean

$(INSTALLED): pyproject.toml setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=77"
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

build: $(INSTALLED)
	$(PY) setup.py --quiet build_ext --inplace -j 2

run: build
	$(VENV)/bin/azul-table $(ARGS)

# pytest exits 5 when it collects nothing; that must never pass for a green run.
test: build
	$(PY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi; exit $$rc

bench: build
	$(PY) -m benchmarks

clean:
	rm -rf build $(VENV) core_ext/*.c core_ext/*.so core_ext/**/*.c core_ext/**/*.so

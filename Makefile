# The two commands of the README, plus the benchmarks and the Pi service.
# Each target creates or updates .venv itself (tools/make_venv.py: on a Pi
# with the system's lgpio/gpiozero visible and the LED library of the board),
# then (re)builds the Cython core in place.
#
# PYTHON: the interpreter for the venv; default the newest Python 3.11-3.13
#         on PATH (tools/find-python says what to install when there is none).
# RIG:    a rig file of your own (default: hardware/reference_rig.toml).
# DEVICE_TREE: where the board is read from (default: /proc/device-tree).
PYTHON ?= $(shell tools/find-python)
RIG ?=
DEVICE_TREE ?=
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
VENV_OPTIONS := $(strip $(if $(RIG),--rig '$(RIG)') $(if $(DEVICE_TREE),--device-tree '$(DEVICE_TREE)'))

.PHONY: run test bench build translations golden clean install uninstall

$(INSTALLED): pyproject.toml setup.py tools/make_venv.py
	@test -n "$(PYTHON)" || exit 1
	$(PYTHON) tools/make_venv.py $(VENV_OPTIONS) $(VENV)
	touch $(INSTALLED)

CATALOGUES := web_remote/translations
BABEL := $(VENV)/bin/pybabel

build: $(INSTALLED)
	$(PY) setup.py --quiet build_ext --inplace -j 2
	$(BABEL) -q compile -d $(CATALOGUES)

# After adding or changing strings in web_remote/messages.py (or gettext calls in
# views and templates): refresh the template and every language's .po file, then
# translate the new entries in each .po (an empty msgstr shows English).
translations: $(INSTALLED)
	$(BABEL) extract -F babel.cfg -k P_:1,2 -k C_:1c,2 --no-wrap --no-location --sort-output \
		--project azul-table --version 0.1.0 --copyright-holder azul-table -o $(CATALOGUES)/messages.pot .
	$(BABEL) update --no-wrap --ignore-obsolete -i $(CATALOGUES)/messages.pot -d $(CATALOGUES)

run: build
	$(VENV)/bin/azul-table $(if $(RIG),--rig '$(RIG)') $(ARGS)

# The suite on pytest-xdist workers, then the tests marked serial alone (tools/run_tests.py).
# PYTEST_ARGS go to both: make test PYTEST_ARGS=tests/web/test_api.py runs one file;
# AZUL_TEST_WORKERS=1 runs everything in one process. Collecting nothing fails.
test: build
	$(PY) tools/run_tests.py $(PYTEST_ARGS)

# After a deliberate change of the phone page's board drawing or charts: rewrite the golden
# pictures of tests/web/golden/ (one per decision kind of each game, and the charts of a game of
# each), then look at them before committing.
golden: build
	UPDATE_GOLDEN=1 $(PY) -m pytest -q tests/web/test_board_touch.py -k whole
	UPDATE_GOLDEN=1 $(PY) -m pytest -q tests/web/test_story_charts.py -k golden

bench: build
	$(PY) -m benchmarks

# sudo make install / sudo make uninstall: the table as a service that starts
# with the Pi (tools/service.sh; docs/rig.md, "Running as a service").
install:
	@test -n "$(PYTHON)" || exit 1
	PYTHON='$(PYTHON)' RIG='$(RIG)' DEVICE_TREE='$(DEVICE_TREE)' tools/service.sh install

uninstall:
	tools/service.sh uninstall

clean:
	rm -rf build $(VENV) $(CATALOGUES)/*/LC_MESSAGES/*.mo core_ext/*.c core_ext/*.so core_ext/**/*.c core_ext/**/*.so

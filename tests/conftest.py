"""Test-wide settings: hypothesis profiles (the thorough one is the default), and journals closed.

HYPOTHESIS_PROFILE=quick (used under emulation) cuts the examples to a fifth; the random-game
loops written without hypothesis count from ``settings().max_examples`` too, so they shrink with it.
"""
import os

import pytest
from hypothesis import HealthCheck, settings

from tests import cpu_times
from tests.long_first import LongFirst

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("quick", parent=settings.get_profile("default"), max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

BROWSER_FIXTURES = {"browser", "context", "page", "new_context", "webkit"}
"""pytest-playwright's fixtures and tests/web/test_webkit.py's: a test that uses one (itself or through its
fixtures) drives a browser, Chromium or WebKit."""


CHROMIUM_FIXTURES = BROWSER_FIXTURES - {"webkit"}
CHROMIUM = next((path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.path.exists(path)),
                None)
"""The Chromium the browser tests drive (``playwright install`` cannot download here): Debian's headless shell,
Chromium's engine built for running without a screen (what Playwright's own headless runs use; it takes a third
less CPU than the whole browser run headless), else Debian's chromium."""


def pytest_collection_modifyitems(items):
    """Marks every test that drives a browser ``browser``, so a run can choose them or leave them out; those
    that drive Chromium skip, saying why, where it is not installed."""
    missing = pytest.mark.skip(reason="Debian's chromium-headless-shell is not installed (.ci/run installs it)")
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_FIXTURES & fixtures:
            item.add_marker(pytest.mark.browser)
        if CHROMIUM is None and CHROMIUM_FIXTURES & fixtures:
            item.add_marker(missing)


def pytest_addoption(parser):
    cpu_times.add_option(parser)


def pytest_configure(config):
    config.pluginmanager.register(LongFirst(), "long-first")
    cpu_times.configure(config)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright's launch settings, with :data:`CHROMIUM` as the browser."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(autouse=True)
def journals_are_closed(monkeypatch):
    """Every journal a test opens is closed when the test ends, as the table closes its own at exit
    (from Python 3.13 a database left open is a ResourceWarning, which the suite treats as an error)."""
    from firmware_py.journal import Journal

    opened = []
    open_journal = Journal.__init__

    def tracked(self, *args, **kwargs):
        opened.append(self)
        open_journal(self, *args, **kwargs)

    monkeypatch.setattr(Journal, "__init__", tracked)
    yield
    for journal in opened:
        if hasattr(journal, "_db"):
            journal.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    """Every browser context a test opened is closed before its tables stop. The worker's one Chromium
    outlives the test: a page left open would go on reconnecting to a table that is gone, at the cost of
    every later test on that worker."""
    browser = getattr(item, "funcargs", {}).get("browser")
    if browser is not None:
        for context in browser.contexts:
            context.close()
    yield

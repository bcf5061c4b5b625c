"""Every browser test uses the one Chromium of its worker (pytest-playwright's session-scoped ``browser``,
with a fresh context per test): a test file that launches a browser of its own costs the suite a
Chromium start-up per test and escapes the shared launch settings."""
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
OWN_BROWSER = re.compile(
    r"sync_playwright\s*\(|async_playwright\s*\(|\.launch\s*\(|launch_persistent_context\s*\(|connect_over_cdp\s*\("
    r"|webdriver\.\w+\s*\(|\[\s*[\"'](?:/usr/bin/)?chromium[\"']")


def launches_its_own_browser(source):
    """The lines of ``source`` that start a browser instead of taking the shared one."""
    return [line.strip() for line in source.splitlines() if OWN_BROWSER.search(line)]


def test_the_check_finds_each_way_of_starting_a_browser():
    for line in ("with sync_playwright() as p:", "browser = p.chromium.launch(headless=True)",
                 "context = chromium.launch_persistent_context(directory)", "p.chromium.connect_over_cdp(url)",
                 "driver = webdriver.Chrome()", "subprocess.Popen(['chromium', '--headless', url])"):
        assert launches_its_own_browser(line), line
    assert not launches_its_own_browser("def test_a_page(page, browser):\n    context = browser.new_context()")


OTHER_ENGINES = {"web/test_webkit.py"}
"""Files that start a browser that is not Chromium (WebKit, the iPhone's engine): one per module."""


def test_no_test_file_starts_a_browser_of_its_own():
    found = {name: lines for path in sorted(TESTS.rglob("*.py"))
             if path != Path(__file__).resolve() and (name := str(path.relative_to(TESTS))) not in OTHER_ENGINES
             and (lines := launches_its_own_browser(path.read_text()))}
    assert not found, found

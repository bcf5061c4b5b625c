"""No page of the remote scrolls sideways on a phone 320 or 390 px wide, in any language: each page's width is
the viewport's (the pages: tests/web/conftest.py, ``every_page``)."""
import pytest

from tests.web.phones import base_url
from web_remote import i18n

WIDTHS = ({"width": 320, "height": 568}, {"width": 390, "height": 844})
WIDTH = "() => ({page: document.documentElement.scrollWidth, viewport: window.innerWidth})"


@pytest.mark.long
def test_no_page_scrolls_sideways_at_320_or_390_px_in_any_language(every_page, browser):
    remote, pages = every_page
    wide = []
    for viewport in WIDTHS:
        context = browser.new_context(base_url=base_url(remote), viewport=viewport, is_mobile=True, has_touch=True)
        page = context.new_page()
        for language in i18n.LANGUAGES:
            context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(remote)}])
            for path in pages:
                page.goto(path)
                if path == "/":
                    page.locator("#breakdown tr").first.wait_for()
                    page.locator("#story-charts figure").first.wait_for()
                measured = page.evaluate(WIDTH)
                if measured["page"] != measured["viewport"]:
                    wide.append((viewport["width"], language, path, measured["page"]))
        context.close()
    assert not wide, wide

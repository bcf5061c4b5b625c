"""Phones in real headless Chromium for the browser tests: a phone-sized touch context holding a seat,
and golden pictures of parts of a page.

Golden pictures live in ``tests/web/golden/``; after a deliberate change of a drawing, regenerate them
with ``make golden`` and look at them before committing.
"""
import io
import json
import os
import weakref

from PIL import Image, ImageChops, ImageStat

from web_remote import i18n

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"
TOLERANCE = 2.0  # mean difference per channel (0-255) a golden picture may show
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SCRIPT_ERRORS = weakref.WeakKeyDictionary()
"""The uncaught script errors of each seated phone's page, for the message of a wait that never ended."""


def base_url(remote):
    return f"http://127.0.0.1:{remote.port}"


def seated_phone(browser, remote, seat, viewport=PHONE["viewport"], token=None, language=None):
    """A phone of ``viewport`` holding ``seat`` (its token in storage, as the join page leaves it), on the
    live page; ``token``: a seat token already joined (several phones of one seat), else a new join;
    ``language``: the language chosen on the phone, else the table's."""
    if token is None:
        token = remote.service.join(remote.service.join_code, seat, "test")
    held = json.dumps({"token": token, "seat": seat, "game_id": remote.service.game_id,
                       "run": remote.service.current().run})
    context = browser.new_context(base_url=base_url(remote), **{**PHONE, "viewport": viewport})
    if language is not None:
        context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(remote)}])
    # Stored once, at the first page the tab opens: what the pages do with it later is theirs.
    context.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1'); "
                            f"localStorage.setItem('azul.seat', {json.dumps(held)}); }}")
    page = context.new_page()
    SCRIPT_ERRORS[page] = errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/")
    return page


POLL_MS = 10
"""How often a wait for a version asks, in the page itself: a wait by selector asks from the test at growing
intervals (20, 50, 100, 500 ms), each a round trip through the browser, and sees an update up to half a second late."""


def showing(page, predicate, version):
    """Wait until ``predicate`` (a function of the page's version and ``version``) holds in ``page``, asked in
    the page every :data:`POLL_MS`."""
    page.wait_for_function(f"(v) => ({predicate})(document.body.dataset.version, v)", arg=str(version),
                           polling=POLL_MS)


def shown(page, version):
    """Wait until ``page`` shows the table at ``version`` (an ``expect`` that does not hold yet describes the whole
    page at each try, which costs the page more than the update it waits for)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        showing(page, "(shown, wanted) => shown === wanted", version)
    except PlaywrightTimeout:
        seen = page.evaluate("() => [document.body.dataset.version, document.body.innerText.slice(0, 300)]")
        raise AssertionError(f"{page.url} never showed version {version}: it shows version {seen[0]}, script "
                             f"errors {SCRIPT_ERRORS.get(page, 'not watched')}, and begins {seen[1]!r}") from None


def moved_on(page, version):
    """Wait until ``page`` shows the table at a version other than ``version`` (as :func:`shown` waits)."""
    showing(page, "(shown, left) => shown !== left", version)


def check_golden(page, selector, name):
    """The part ``selector`` of ``page`` against its golden picture ``name`` (a small tolerance)."""
    path = os.path.join(GOLDEN, f"{name}.png")
    picture = page.locator(selector).screenshot(animations="disabled")
    if UPDATE_GOLDEN or not os.path.exists(path):
        assert UPDATE_GOLDEN, f"no golden picture {path}: run `make golden` and look at it"
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "wb") as out:
            out.write(picture)
        return
    got = Image.open(io.BytesIO(picture)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size, (name, got.size, want.size)
    difference = sum(ImageStat.Stat(ImageChops.difference(got, want)).mean) / 3
    assert difference <= TOLERANCE, f"{name} differs from its golden picture by {difference:.1f}"

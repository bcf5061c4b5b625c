"""Every touchable thing on every page of the remote is finger-sized on a phone 390 px wide: links, buttons,
menus, fields, disclosures, and checkboxes and radio buttons by their labels measure at least 44 x 44 CSS px.
A link inside running text is the one exception (as in WCAG 2.5.8): the words around it keep fingers apart.
The board's own parts are measured by test_touch_targets.py, the action bar by test_action_bar.py. The
pages: tests/web/conftest.py, ``every_page``."""
import json

import pytest

from tests.web.phones import base_url
from web_remote import i18n

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

SMALLEST = 44  # CSS px each way
WIDE = {"width": 390, "height": 844}
MENU_HEIGHT = 60  # CSS px: the menu bar is one row

# Each touchable thing shown: its box (a checkbox or radio button: its label's), unless it is a link inside
# running text (an inline link in a block that says more than the link).
SMALL = """(smallest) => {
  const touchable = 'a[href], button, summary, select, textarea, input:not([type=hidden]), [role=button], [role=tab]';
  const found = [];
  for (const node of document.querySelectorAll(touchable)) {
    if (node.closest('#board, svg')) continue;
    const style = getComputedStyle(node);
    const choice = node.matches('input[type=checkbox], input[type=radio]') ? node.closest('label') : null;
    const box = (choice || node).getBoundingClientRect();
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    const block = node.parentElement;
    const inText = node.matches('a') && style.display === 'inline'
      && block.textContent.trim().length > node.textContent.trim().length;
    if (!inText && (box.width < smallest - 0.5 || box.height < smallest - 0.5)) {
      found.push(`${node.tagName.toLowerCase()}#${node.id || ''} "${(choice || node).textContent.trim().slice(0, 30)}" `
                 + `${Math.round(box.width)} x ${Math.round(box.height)}`);
    }
  }
  return found;
}"""


def test_every_touchable_thing_on_every_page_is_finger_sized_at_390_px(every_page, browser):
    remote, pages = every_page
    context = browser.new_context(base_url=base_url(remote), viewport=WIDE, is_mobile=True, has_touch=True)
    page = context.new_page()
    small, menus = {}, {}
    for language in ("en", "it"):
        context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(remote)}])
        for path in pages:
            page.goto(path)
            if path == "/":
                page.locator("#breakdown tr").first.wait_for()
            menus[(language, path)] = page.locator("header nav").bounding_box()["height"]
            page.locator("#menu > summary").tap()  # its pages, under it
            expect(page.locator("#nav-rules")).to_be_visible()
            found = page.evaluate(SMALL, SMALLEST)
            if found:
                small[(language, path)] = found
    context.close()
    assert not small, "\n".join(f"{where}: {found}" for where, found in small.items())
    tall = {where: height for where, height in menus.items() if height > MENU_HEIGHT}
    assert not tall, f"the menu bar takes more than one row: {tall}"


def test_the_pages_as_the_host_and_a_seated_player_see_them_are_finger_sized_at_390_and_320_px(every_page, browser):
    """The host's tools (setup, settings, the players' forms, rematch) and a seated phone's live page,
    outside the board and the action bar, which their own tests measure."""
    from tests.web.conftest import host_code

    remote, pages = every_page
    service = remote.service
    host = service.host_login(host_code(service.session), "test")
    seat = service.join(service.join_code, 0, "test")
    held = json.dumps({"token": seat, "seat": 0, "game_id": service.game_id, "run": service.current().run})
    small = {}
    for viewport in (WIDE, {"width": 320, "height": 568}):
        context = browser.new_context(base_url=base_url(remote), viewport=viewport, is_mobile=True, has_touch=True)
        context.add_init_script(f"localStorage.setItem('azul.host', {json.dumps(host)}); "
                                f"localStorage.setItem('azul.seat', {json.dumps(held)})")
        page = context.new_page()
        for path in pages:
            page.goto(path)
            if path == "/":
                expect(page.locator("#rematch")).to_be_visible()  # the host's, on the seated phone
            if path == "/host":
                expect(page.locator("#host-tools")).to_be_visible()
            found = page.evaluate(SMALL, SMALLEST)
            if found:
                small[(viewport["width"], path)] = found
        context.close()
    assert not small, "\n".join(f"{where}: {found}" for where, found in small.items())

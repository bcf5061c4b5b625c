"""Phones in real headless Chromium for the browser tests: a phone-sized touch context holding a seat."""
import json

from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def base_url(remote):
    return f"http://127.0.0.1:{remote.port}"


def seated_phone(browser, remote, seat, viewport=PHONE["viewport"], token=None):
    """A phone of ``viewport`` holding ``seat`` (its token in storage, as the join page leaves it), on the
    live page; ``token``: a seat token already joined (several phones of one seat), else a new join."""
    if token is None:
        token = remote.service.join(remote.service.join_code, seat, "test")
    held = json.dumps({"token": token, "seat": seat, "game_id": remote.service.game_id,
                       "run": remote.service.current().run})
    context = browser.new_context(base_url=base_url(remote), **{**PHONE, "viewport": viewport})
    # Stored once, at the first page the tab opens: what the pages do with it later is theirs.
    context.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1'); "
                            f"localStorage.setItem('azul.seat', {json.dumps(held)}); }}")
    page = context.new_page()
    page.goto("/")
    return page


def shown(page, version):
    """Wait until ``page`` shows the table at ``version``."""
    expect(page.locator("body")).to_have_attribute("data-version", str(version))

"""The HTML pages: live view, join, host setup, settings; the QR code that leads to the join page.

Pages are thin shells: they load the strings of the phone's language (one
script per language, kept by the phone's browser) and the page scripts draw
everything else from the API.
"""
import functools
import io
import json

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, current_app, make_response, redirect, render_template, request, url_for

from firmware_py import games
from firmware_py.controls import HostMenu
from firmware_py.profiles import COLOURS, SYMBOLS
from firmware_py.session import AI_LEVELS, MAX_NAME, SEAT_KINDS
from web_remote import i18n
from web_remote.guards import BadRequest, language, service

bp = Blueprint("pages", __name__)

LANGUAGE_COOKIE_AGE_S = 365 * 24 * 3600


def page(template: str, **context):
    """Render ``template`` with the phone's language, the version of its strings and whether a simulator runs."""
    lang = language()
    return render_template(
        template,
        lang=lang,
        strings_version=i18n.catalogue_version(lang),
        t=lambda key, **fields: i18n.translate(lang, key, **fields),
        languages=i18n.LANGUAGES,
        simulated=service().hardware is not None,
        **context,
    )


@bp.get("/")
def live():
    """Scoreboard, drawing of the table, move entry for a seated phone."""
    return page("pages/live.html")


PROFILE_CHOICES = {"colours": COLOURS, "symbols": SYMBOLS, "max_name": MAX_NAME}
"""What the new-player fields of the join and setup pages offer (templates/pages/new_player.html)."""


@bp.get("/strings/<lang>.js")
def strings(lang: str):
    """Every string of ``lang`` for the page scripts (``Remote.t``). Its address names the strings' version,
    so the browser keeps it until the strings change."""
    if lang not in i18n.LANGUAGES:
        raise BadRequest("error.invalid_field", status=404, field="lang")
    script = f"const STRINGS = {json.dumps(i18n.catalogue(lang), ensure_ascii=False)};\n"
    return Response(script, mimetype="text/javascript", headers={"Cache-Control": "public, max-age=31536000, immutable"})


@bp.get("/join")
def join():
    """PIN, a free seat and who is joining; observers can go straight to the live view."""
    return page("pages/join.html", **PROFILE_CHOICES)


@bp.get("/host")
def host():
    """The host's setup wizard (unlocked with the PIN)."""
    return page(
        "pages/host.html",
        games=games.GAMES,
        seat_kinds=SEAT_KINDS,
        ai_levels=AI_LEVELS,
        palettes=HostMenu.PALETTES,
        objectives=_objective_names(),
        settled=i18n.settled_uncertainty_text(language()),
        **PROFILE_CHOICES,
    )


@bp.get("/settings")
def settings():
    """This phone's language; the table's brightness and palette for the host."""
    return page("pages/settings.html", palettes=HostMenu.PALETTES)


@bp.post("/settings/language")
def choose_language():
    """Remember this phone's language in a cookie (a preference, not a credential)."""
    chosen = request.form.get("language")
    if chosen not in i18n.LANGUAGES:
        raise BadRequest("error.invalid_field", field="language")
    response = make_response(redirect(url_for("pages.settings")))
    response.set_cookie(i18n.LANGUAGE_COOKIE, chosen, max_age=LANGUAGE_COOKIE_AGE_S, samesite="Lax", httponly=True)
    return response


@functools.lru_cache(maxsize=32)
def qr_svg(address: str) -> bytes:
    """The QR code of ``address``, drawn once (the addresses are the few the host check lets through)."""
    image = qrcode.make(address, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue()


@bp.get("/qr.svg")
def qr_code():
    """A QR code of the join page's address, as this phone reached the server (with an ETag: it never changes)."""
    response = Response(qr_svg(url_for("pages.join", _external=True)), mimetype="image/svg+xml")
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/favicon.ico")
def favicon():
    """The table's icon for browsers that ask at the old fixed address (the pages link it too)."""
    return current_app.send_static_file("icon.svg")


def _objective_names():
    """The Duel objectives by tablet: [(tablet letter, (side a, side b)), ...]."""
    from core_ext.duel import OBJECTIVES

    return [("ABCD"[tablet], OBJECTIVES[2 * tablet : 2 * tablet + 2]) for tablet in range(len(OBJECTIVES) // 2)]

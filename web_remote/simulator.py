"""The simulator page: the virtual LED panels drawn live under their names, virtual buttons for the game's seats.

A local tool for the PC the table runs on. Its routes exist only when the
table runs on the simulated rig (a PC, or a rig file that says
``simulator``), and they answer only the machine itself unless the table was
started with ``--simulator-network`` (``app.config["SIMULATOR_NETWORK"]``):
its buttons play for every seat and open the HOST menu. Even then, the host
code and the join code drawn on the centre panel are blanked in the frames
sent to any other computer. The buttons drive the gpiozero mock pins, so a
tap goes through the same debounce and event path as a real arcade button.
"""
import asyncio
import base64
import json

from flask import Blueprint, current_app, jsonify, request

from hardware import HOST, SEAT_BUTTONS
from web_remote import guards
from web_remote.guards import BadRequest, event_stream, field, json_body, service
from web_remote.history import attached_display
from web_remote.pages import page
from web_remote.service import AccessDenied

bp = Blueprint("simulator", __name__, url_prefix="/simulator")

FRAME_WAIT_S = 1.0  # a keep-alive line after this long without a frame
FRAME_POLL_S = 1 / 30  # how often a stream looks for a new frame
SECRET_MARGIN_S = 2.0  # frames drawn up to this long after the PIN went away may still show a code


@bp.before_request
def only_here():
    """Refuse other computers unless the simulator was opened to the network: the page with a page that
    says why, in the phone's language; the page script's routes with the JSON error."""
    if current_app.config.get("SIMULATOR_NETWORK") or guards.from_this_machine():
        return None
    if request.endpoint == "simulator.simulator":
        return page("simulator/refused.html"), 403
    raise AccessDenied(403, "error.simulator_local")


def hardware():
    """The simulated rig (the blueprint is registered only when there is one)."""
    return service().hardware


@bp.get("/")
def simulator():
    return page("simulator/simulator.html")


@bp.get("/layout")
def layout():
    """Where every panel lies on the table, the panel in front of each seat, and the seats' buttons."""
    hw = hardware()
    return jsonify(layout=hw.layout.describe(), seats=len(hw.rig.seats), seat_panels=[seat.panel for seat in hw.rig.seats],
                   buttons=SEAT_BUTTONS, host=HOST)


def _frame_event(frame, secret) -> str:
    """One frame as an event; ``secret()`` gives the areas to blank."""
    panels = dict(frame.display)
    for name, x, y, width, height in secret():
        pixels = bytearray(panels[name])
        row = 3 * frame.widths[name]
        for line in range(y, y + height):
            pixels[line * row + 3 * x: line * row + 3 * (x + width)] = bytes(3 * width)
        panels[name] = bytes(pixels)
    encoded = {name: base64.b64encode(data).decode() for name, data in panels.items()}
    return f"data: {json.dumps({'seq': frame.seq, 'panels': encoded})}\n\n"


@bp.get("/frames")
def frames():
    """Server-sent events: each LED frame as shown (screen colours), base64 RGB rows per panel."""
    hw = hardware()
    remote = service()
    display = attached_display()
    hidden = display is not None and not guards.from_this_machine()

    def secret():
        return display.secret_areas(SECRET_MARGIN_S) if hidden else []

    async def stream():
        subscription = hw.stream.subscribe()
        yield "retry: 2000\n\n"
        if hw.stream.latest is not None:
            yield _frame_event(hw.stream.latest, secret)
        quiet = 0.0
        while not remote.closing:
            frame = subscription.next(0)
            if frame is not None:
                quiet = 0.0
                yield _frame_event(frame, secret)
                continue
            await asyncio.sleep(FRAME_POLL_S)
            quiet += FRAME_POLL_S
            if quiet >= FRAME_WAIT_S:
                quiet = 0.0
                yield ": keep-alive\n\n"

    return event_stream(stream())


@bp.post("/press")
def press():
    """Tap (or hold) a virtual button: ``{seat, button, hold?}``; seat null is the HOST button."""
    hw = hardware()
    body = json_body()
    seat = body.get("seat")
    button = field(body, "button", str)
    hold = field(body, "hold", bool, required=False, default=False)
    if seat is None:
        if button != HOST:
            raise BadRequest("error.invalid_field", field="button")
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(hw.rig.seats):
        raise BadRequest("error.invalid_field", field="seat")
    elif button not in SEAT_BUTTONS:
        raise BadRequest("error.invalid_field", field="button")
    (hw.hold if hold else hw.tap)(seat, button)
    return jsonify(seat=seat, button=button, hold=hold)

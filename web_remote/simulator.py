"""The simulator page: the virtual LED panels drawn live and virtual buttons for every seat.

Only there when the table runs on the simulated rig (a PC, or a rig file that
says ``simulator``). The buttons drive the gpiozero mock pins, so a tap goes
through the same debounce and event path as a real arcade button.
"""
import base64
import json

from flask import Blueprint, abort, jsonify

from hardware import HOST, SEAT_BUTTONS
from web_remote.guards import BadRequest, event_stream, field, json_body, service
from web_remote.pages import page

bp = Blueprint("simulator", __name__, url_prefix="/simulator")

FRAME_WAIT_S = 1.0  # also how soon a stream notices the server stopping


def hardware():
    """The simulated rig. :raise 404: the table runs on real hardware."""
    hw = service().hardware
    if hw is None:
        abort(404)
    return hw


@bp.get("/")
def simulator():
    hardware()
    return page("simulator/simulator.html")


@bp.get("/layout")
def layout():
    """Where every panel lies on the table, and the seats' buttons."""
    hw = hardware()
    return jsonify(layout=hw.layout.describe(), seats=len(hw.rig.seats), buttons=SEAT_BUTTONS, host=HOST)


def _frame_event(frame) -> str:
    panels = {name: base64.b64encode(data).decode() for name, data in frame.display.items()}
    return f"data: {json.dumps({'seq': frame.seq, 'panels': panels})}\n\n"


@bp.get("/frames")
def frames():
    """Server-sent events: each LED frame as shown (screen colours), base64 RGB rows per panel."""
    hw = hardware()
    remote = service()
    subscription = hw.stream.subscribe()

    def stream():
        yield "retry: 2000\n\n"
        if hw.stream.latest is not None:
            yield _frame_event(hw.stream.latest)
        while not remote.closing:
            frame = subscription.next(FRAME_WAIT_S)
            yield ": keep-alive\n\n" if frame is None else _frame_event(frame)

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

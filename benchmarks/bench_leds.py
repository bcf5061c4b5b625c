"""LED frame preparation on the reference rig: compose every LED, then map, gamma-correct and limit."""
import dataclasses

from benchmarks.timing import rate
from hardware import FrameBuffer, Layout, MemorySink, load_rig

WIRE_SECONDS_PER_LED = 30e-6
"""WS2812 at 800 kHz: 24 bits of 1.25 us each."""
LATCH_SECONDS = 300e-6
"""The gap rpi_ws281x leaves after each frame."""


def measure(rig):
    """Milliseconds per frame: colouring every LED of ``rig`` one by one and showing it; showing alone."""
    layout = Layout(rig)
    leds = FrameBuffer(layout, MemorySink(layout, keep=1))
    coordinates = [(panel.name, x, y) for panel in rig.panels for y in range(panel.height) for x in range(panel.width)]
    palette = [(255, 96, 0), (0, 114, 178), (240, 228, 66), (0, 158, 115), (204, 121, 167), (255, 255, 255)]
    frame_number = 0

    def compose_and_show():
        nonlocal frame_number
        frame_number += 1
        for index, (panel, x, y) in enumerate(coordinates):
            leds[panel, x, y] = palette[(index + frame_number) % len(palette)]
        leds.show()
        return 1

    def show_only():
        leds.show()
        return 1

    return 1000 / rate(compose_and_show, 2.0), 1000 / rate(show_only, 1.0)


def run():
    rig = load_rig()
    # A two-seat table (Duel): the centre and seats 0 and 1, all on the first chain.
    two_seats = dataclasses.replace(rig, panels=rig.panels[:3], seats=rig.seats[:2], led_pins=rig.led_pins[:1])
    for name, measured in (("leds.frame_ms", two_seats), ("leds.frame_ms_four_seats", rig)):
        compose_and_show, show_only = measure(measured)
        yield name, compose_and_show, "ms"
        yield name.replace("frame", "show"), show_only, "ms"
    longest_chain = max(rig.channel_led_counts())
    yield "leds.wire_ms", 1000 * (longest_chain * WIRE_SECONDS_PER_LED + LATCH_SECONDS), "ms"

"""Documentation drawn from a rig file: the wiring diagram and the pin table.

``python -m hardware docs`` regenerates the pictures and the pin table that
docs/rig.md shows, so the builder's documentation always matches the rig file.
"""
from __future__ import annotations

import io

from hardware.layout import Layout, module_wire_positions
from hardware.rig import HOST, SEAT_BUTTONS, Rig
from hardware.sinks import BOARD_COLOUR, SEAM_COLOUR

CHAIN_COLOURS = [(230, 159, 0), (86, 180, 233), (0, 158, 115), (204, 121, 167)]
"""One colour per data pin's chain (Okabe-Ito, readable with colour blindness)."""
BACKGROUND = (250, 248, 244)
INK = (30, 30, 30)


def pin_table(rig: Rig) -> str:
    """Markdown table of every pin the rig uses: LED data pins, then the buttons seat by seat."""
    lines = ["| What | BCM pin | Header pin |", "|---|---:|---:|"]
    counts = rig.channel_led_counts()
    for channel, pin in enumerate(rig.led_pins):
        lines.append(f"| LED data, chain {channel} ({counts[channel]:,} LEDs) | GPIO{pin} | {HEADER_PINS[pin]} |")
    for index, seat in enumerate(rig.seats):
        for name in SEAT_BUTTONS:
            lines.append(f"| Seat {index} ({seat.panel}) {name} | GPIO{seat.pins[name]} | {HEADER_PINS[seat.pins[name]]} |")
    lines.append(f"| {HOST} | GPIO{rig.host_pin} | {HEADER_PINS[rig.host_pin]} |")
    return "\n".join(lines) + "\n"


HEADER_PINS = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37,
    14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40,
}
"""Physical pin on the 40-pin header of each BCM GPIO."""


def wiring_png(rig: Rig, led_pixels: int = 14) -> bytes:
    """The wiring diagram: every module's data path, the cables from the Pi and between modules, and the button pins."""
    from PIL import Image, ImageDraw, ImageFont

    layout = Layout(rig)
    font = ImageFont.load_default(size=max(11, led_pixels))
    margin = 6 * led_pixels
    width, height = rig.table_size
    image = Image.new("RGB", (width * led_pixels + 2 * margin, height * led_pixels + 2 * margin), BACKGROUND)
    draw = ImageDraw.Draw(image)
    half = led_pixels / 2

    def centre_of(panel: str, x: int, y: int) -> tuple[float, float]:
        tx, ty = layout.panel_to_table(panel, x, y)
        return margin + (tx + 0.5) * led_pixels, margin + (ty + 0.5) * led_pixels

    for panel in rig.panels:
        corners = [centre_of(panel.name, x, y) for x, y in ((0, 0), (panel.width - 1, panel.height - 1))]
        left, right = sorted(c[0] for c in corners)
        top, bottom = sorted(c[1] for c in corners)
        draw.rectangle((left - half, top - half, right + half, bottom + half), fill=BOARD_COLOUR, outline=SEAM_COLOUR)
        draw.text(((left + right) / 2, top + led_pixels), panel.name, fill=(255, 255, 255), font=font, anchor="mm", stroke_width=3, stroke_fill=BOARD_COLOUR)

    pi_box = (margin * 0.2, image.size[1] - margin * 0.9, margin * 0.9, image.size[1] - margin * 0.2)
    draw.rectangle(pi_box, fill=(0, 110, 60), outline=INK)
    draw.text(((pi_box[0] + pi_box[2]) / 2, (pi_box[1] + pi_box[3]) / 2), "Pi", fill=(255, 255, 255), font=font, anchor="mm")

    chains: list[list[tuple[int, str, list[tuple[int, int]]]]] = [[] for _ in rig.led_pins]
    for panel in rig.panels:
        for module in panel.modules:
            chains[module.channel].append((module.chain, panel.name, module_wire_positions(module)))
    for channel, chain in enumerate(chains):
        colour = CHAIN_COLOURS[channel % len(CHAIN_COLOURS)]
        previous_end = None
        for _, panel, positions in sorted(chain, key=lambda item: item[0]):
            path = [centre_of(panel, x, y) for x, y in positions]
            draw.line(path, fill=colour, width=max(1, led_pixels // 7))
            start = path[0]
            if previous_end is None:
                tap = (pi_box[2], pi_box[1] + (channel + 1) * (pi_box[3] - pi_box[1]) / (len(rig.led_pins) + 1))
                draw.line([tap, start], fill=colour, width=max(2, led_pixels // 4))
                draw.text((tap[0] + 4, tap[1] - 4), f"GPIO{rig.led_pins[channel]}", fill=INK, font=font, anchor="lb")
            else:
                draw.line([previous_end, start], fill=colour, width=max(2, led_pixels // 4))
            radius = led_pixels * 0.45
            draw.ellipse((start[0] - radius, start[1] - radius, start[0] + radius, start[1] + radius), fill=colour, outline=(255, 255, 255))
            previous_end = path[-1]

    for seat in rig.seats:
        panel = rig.panel(seat.panel)
        text = "\n".join(f"{name} GPIO{seat.pins[name]}" for name in SEAT_BUTTONS)
        middle = centre_of(panel.name, panel.width // 2, panel.height // 2)
        draw.multiline_text(middle, text, fill=(255, 255, 255), font=font, anchor="mm", align="center", stroke_width=3, stroke_fill=BOARD_COLOUR)
    footer = f"{HOST} button: GPIO{rig.host_pin}.  Dot: data in.  Thin line: data path inside a module.  Thick line: cable."
    draw.text((image.size[0] / 2, image.size[1] - margin * 0.2), footer, fill=INK, font=font, anchor="mb")

    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()

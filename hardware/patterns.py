"""Test patterns for checking a rig's wiring, on the table or in the simulator.

``orientation`` marks each panel's corners so a wrong rotation or facing is
obvious at a glance; ``wire_walk`` lights the LEDs in data order, which is the
quickest way to find a module with the wrong chain position or wiring.
"""
from __future__ import annotations

from hardware.frame import FrameBuffer

RED, GREEN, BLUE, WHITE, DIM = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (90, 90, 90)


def orientation(leds: FrameBuffer) -> None:
    """Every panel: a dim border, red top-left, green top-right, blue bottom-left, and a white arrow pointing up."""
    leds.clear()
    for panel in leds.rig.panels:
        width, height = panel.size
        for x in range(width):
            leds[panel.name, x, 0] = DIM
            leds[panel.name, x, height - 1] = DIM
        for y in range(height):
            leds[panel.name, 0, y] = DIM
            leds[panel.name, width - 1, y] = DIM
        leds[panel.name, 0, 0] = RED
        leds[panel.name, width - 1, 0] = GREEN
        leds[panel.name, 0, height - 1] = BLUE
        middle = width // 2
        for y in range(2, height - 2):
            leds[panel.name, middle, y] = WHITE
        for step in range(1, min(middle, height // 2) - 1):
            leds[panel.name, middle - step, 2 + step] = WHITE
            leds[panel.name, middle + step, 2 + step] = WHITE


def wire_walk(leds: FrameBuffer, step: int, trail: int = 8) -> None:
    """Light the LEDs at wire positions ``step - trail + 1`` to ``step`` on every channel, brightest at ``step``."""
    leds.clear()
    layout = leds.layout
    for order in layout.wire_order:
        for age in range(min(trail, step + 1)):
            position = step - age
            if position < len(order):
                panel, x, y = layout.logical_position(order[position])
                level = 255 * (trail - age) // trail
                leds[panel, x, y] = (level, level, level)

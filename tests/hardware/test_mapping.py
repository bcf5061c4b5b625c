"""Wiring: a pixel at (panel, x, y) lands at the expected wire index, for every wiring option."""
import itertools
import random

import pytest

from hardware import FrameBuffer, Layout, MemorySink

WHITE = (255, 255, 255)


def module(wiring="progressive", rotation=0, mirror=False, offset=(0, 0), size=(4, 3), channel=0, chain=0):
    return f"""
[[panel.module]]
offset = [{offset[0]}, {offset[1]}]
size = [{size[0]}, {size[1]}]
wiring = "{wiring}"
rotation = {rotation}
mirror = {str(mirror).lower()}
channel = {channel}
chain = {chain}
"""


def lit_wire_indices(rig, panel, x, y):
    """Light one LED through the frame buffer; (channel, LED index) of every lit LED on the wire."""
    layout = Layout(rig)
    sink = MemorySink(layout)
    leds = FrameBuffer(layout, sink)
    leds[panel, x, y] = WHITE
    leds.show()
    return [
        (channel, index // 3)
        for channel, wire in enumerate(sink.last.channels)
        for index, value in enumerate(wire)
        if value and index % 3 == 0
    ]


# A 4 x 3 module; hand-worked wire index of a pixel for each wiring option.
CASES = [
    ("progressive", 0, False, (1, 2), 9),
    ("progressive", 0, False, (3, 0), 3),
    ("serpentine", 0, False, (1, 2), 9),
    ("serpentine", 0, False, (1, 1), 6),
    ("progressive", 0, True, (1, 2), 10),
    ("serpentine", 0, True, (1, 1), 5),
    ("serpentine", 0, True, (1, 0), 2),
    ("progressive", 90, False, (3, 0), 0),
    ("progressive", 90, False, (1, 2), 8),
    ("serpentine", 90, False, (2, 0), 5),
    ("progressive", 180, False, (3, 2), 0),
    ("progressive", 180, False, (1, 2), 2),
    ("serpentine", 180, False, (3, 1), 7),
    ("progressive", 270, False, (0, 2), 0),
    ("progressive", 270, False, (1, 2), 3),
    ("progressive", 270, True, (0, 0), 0),
]


@pytest.mark.parametrize("wiring, rotation, mirror, pixel, expected", CASES)
def test_pixel_lands_at_expected_wire_index(small_rig, wiring, rotation, mirror, pixel, expected):
    rig = small_rig(module(wiring, rotation, mirror))
    assert lit_wire_indices(rig, "p", *pixel) == [(0, expected)]


@pytest.mark.parametrize(
    "wiring, rotation, mirror", list(itertools.product(("serpentine", "progressive"), (0, 90, 180, 270), (False, True)))
)
def test_every_wiring_is_a_bijection(small_rig, wiring, rotation, mirror):
    layout = Layout(small_rig(module(wiring, rotation, mirror)))
    assert sorted(layout.wire_order[0]) == list(range(12))


def test_chained_modules_follow_chain_order(small_rig):
    rig = small_rig(module(offset=(4, 0), chain=0) + module(offset=(0, 0), chain=1), size=(8, 3))
    assert lit_wire_indices(rig, "p", 4, 0) == [(0, 0)]
    assert lit_wire_indices(rig, "p", 0, 0) == [(0, 12)]
    assert lit_wire_indices(rig, "p", 3, 2) == [(0, 23)]


def test_modules_on_two_channels(small_rig):
    rig = small_rig(
        module(offset=(0, 0)) + module(offset=(4, 0), channel=1),
        size=(8, 3),
        pins="[[leds.channel]]\npin = 18\n[[leds.channel]]\npin = 13\n",
    )
    assert lit_wire_indices(rig, "p", 5, 0) == [(1, 1)]
    assert lit_wire_indices(rig, "p", 1, 0) == [(0, 1)]


def test_colour_order_sets_byte_order_on_the_wire(small_rig):
    rig = small_rig(module(), colour_order="GRB")
    layout = Layout(rig)
    sink = MemorySink(layout)
    leds = FrameBuffer(layout, sink)
    leds["p", 1, 0] = (255, 0, 0)
    leds.show()
    assert sink.wire(0)[3:6] == bytes((0, 255, 0))
    assert sink.panels().pixel("p", 1, 0) == (255, 0, 0)


@pytest.mark.parametrize(
    "panel, x, y, channel, index",
    [
        ("centre", 15, 15, 0, 0),  # the left centre panel is mounted upside down: data enters bottom-right
        ("centre", 0, 0, 0, 240),
        ("centre", 15, 0, 0, 255),
        ("centre", 16, 0, 0, 256),
        ("centre", 16, 1, 0, 256 + 31),
        ("seat0", 0, 0, 0, 512),
        ("seat1", 0, 0, 0, 768),
        ("seat2", 0, 0, 1, 0),
        ("seat3", 0, 0, 1, 256),
    ],
)
def test_reference_rig_wire_positions(rig, panel, x, y, channel, index):
    assert lit_wire_indices(rig, panel, x, y) == [(channel, index)]


@pytest.mark.parametrize(
    "table, panel",
    [
        ((16, 16), ("centre", 0, 0)),
        ((47, 31), ("centre", 31, 15)),
        ((24, 32), ("seat0", 0, 0)),
        ((39, 15), ("seat1", 0, 0)),  # across the table: turned 180 degrees
        ((15, 16), ("seat2", 0, 0)),  # west seat: its top points east
        ((48, 31), ("seat3", 0, 0)),  # east seat: its top points west
        ((0, 0), None),
    ],
)
def test_table_coordinates(layout, table, panel):
    assert layout.table_to_panel(*table) == panel
    if panel is not None:
        assert layout.panel_to_table(*panel) == table


def test_every_table_cell_is_one_led(layout, rig):
    cells = dict(layout.table_cells())
    assert len(cells) == rig.led_count == 1536
    assert len(set(cells.values())) == 1536


@pytest.mark.parametrize("seed", range(3))
def test_wire_bytes_decode_back_to_the_same_panels(layout, seed):
    logical = random.Random(seed).randbytes(3 * layout.led_count)
    panels = layout.to_panels(layout.to_wire(logical))
    assert b"".join(panels[p.name] for p in layout.rig.panels) == logical

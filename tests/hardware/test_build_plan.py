"""The table in millimetres follows the rig file: LEDs in their cells and windows, webs, the plate, refusals."""
import math

import pytest

from hardware import RigError, parse_rig
from hardware.construction.grids import grid_designs
from hardware.construction.plan import Hole, plan_table

TWO_SEATS = """
[leds]
[[leds.channel]]
pin = 18
[power]
budget_amps = 8.0
[buttons]
host = 4
[[panel]]
name = "centre"
size = [32, 16]
position = [0, 16]
[[panel.module]]
size = [16, 16]
chain = 0
[[panel.module]]
offset = [16, 0]
size = [16, 16]
chain = 1
[[panel]]
name = "south"
size = [16, 16]
position = [8, 32]
[[panel.module]]
size = [16, 16]
rotation = 90
chain = 2
[[panel]]
name = "north"
size = [16, 16]
position = [8, 0]
facing = 180
[[panel.module]]
size = [16, 16]
chain = 3
[[seat]]
panel = "south"
PREV = 5
NEXT = 6
OK = 16
BACK = 17
[[seat]]
panel = "north"
PREV = 20
NEXT = 21
OK = 22
BACK = 23
[build]
"""

LONG_MODULES = """
[leds]
[[leds.channel]]
pin = 18
[power]
budget_amps = 8.0
[buttons]
host = 4
[[panel]]
name = "board"
size = [16, 32]
position = [0, 0]
[[panel.module]]
size = [8, 32]
chain = 0
[[panel.module]]
offset = [8, 0]
size = [8, 32]
rotation = 180
chain = 1
[[panel]]
name = "side"
size = [32, 8]
position = [16, 0]
facing = 90
[[panel.module]]
size = [32, 8]
rotation = 90
chain = 2
[[seat]]
panel = "board"
PREV = 5
NEXT = 6
OK = 16
BACK = 17
[build]
led_pitch_mm = 8.0
panel_gap_mm = 40.0
module_gap_mm = 2.0
button_hole_mm = 24.0
"""


def rigs(rig):
    return {"reference": rig, "two seats": parse_rig(TWO_SEATS), "8 x 32 modules": parse_rig(LONG_MODULES)}


def gap(a, b):
    """Shortest distance between two openings of the plan (rectangles or holes)."""
    from hardware.construction.plan import _gap

    def parts(item):
        return (item.bounds, item) if isinstance(item, Hole) else (item.rect, None)

    return _gap(*parts(a), *parts(b))


@pytest.mark.parametrize("name", ["reference", "two seats", "8 x 32 modules"])
def test_every_led_lies_inside_its_grid_cell_and_its_window(rig, name):
    rig = rigs(rig)[name]
    plan = plan_table(rig)
    pitch = rig.build.led_pitch_mm
    designs = {panel: grid for grid in grid_designs(plan) for panel in grid.panels}
    for window in plan.windows:
        grid, panel = designs[window.panel.name], window.panel
        assert grid.size == pytest.approx(window.rect.size if panel.facing in (0, 180) else window.rect.size[::-1])
        for y in range(panel.height):
            for x in range(panel.width):
                cx, cy = plan.led_centre(*plan.layout.panel_to_table(panel.name, x, y))
                r = window.rect
                assert r.x0 + pitch / 2 - 1e-6 <= cx <= r.x1 - pitch / 2 + 1e-6
                assert r.y0 + pitch / 2 - 1e-6 <= cy <= r.y1 - pitch / 2 + 1e-6
                # In the grid's own frame the LED's cell is column x, row y, and its centre clears the walls.
                wall = rig.build.grid_wall_mm
                left, right, top, bottom = grid.xs[x], grid.xs[x + 1], grid.ys[y], grid.ys[y + 1]
                assert right - left >= pitch - 1e-6 and bottom - top >= pitch - 1e-6
                middle_x = (left + right) / 2
                assert left + wall < middle_x < right - wall


@pytest.mark.parametrize("name", ["reference", "two seats", "8 x 32 modules"])
def test_openings_keep_the_minimum_web_and_everything_is_on_the_plate(rig, name):
    rig = rigs(rig)[name]
    plan = plan_table(rig)
    openings = list(plan.windows) + list(plan.holes)
    for i, first in enumerate(openings):
        for second in openings[i + 1:]:
            assert gap(first, second) >= rig.build.min_web_mm - 1e-9
    plate = plan.plate
    inner = plate.grown(-rig.build.border_mm + 1e-6)
    for item in [w.rect for w in plan.windows] + [h.bounds for h in plan.holes] + [b.rect for b in plan.boxes]:
        assert inner.contains(item), item
    assert len([h for h in plan.holes if h.kind == "button"]) == 4 * len(rig.seats) + 1
    (x0, y), (x1, y1) = plan.check_line
    assert (x1 - x0, y1 - y) == (100.0, 0.0) and plate.x0 <= x0 and x1 <= plate.x1 and y < plate.y1


def test_reference_table_size_and_seams(rig):
    plan = plan_table(rig)
    # 64 x 48 LEDs at 10 mm, two 30 mm panel gaps each way, buttons and the 40 mm border around.
    assert plan.plate.size == pytest.approx((925.2, 765.2))
    assert plan.seams == ({16: 30.0, 48: 30.0}, {16: 30.0, 32: 30.0})
    centre = plan.window("centre").rect
    assert centre.size == (320.0, 160.0)
    seat0 = plan.window("seat0").rect
    assert (seat0.x0 + seat0.x1) / 2 == pytest.approx((centre.x0 + centre.x1) / 2)
    assert seat0.y0 - centre.y1 == 30.0


def test_module_gap_opens_inside_a_panel_and_the_border_between_panels():
    plan = plan_table(parse_rig(LONG_MODULES))
    board = plan.window("board")
    first, second = board.modules
    assert second.x0 - first.x1 == pytest.approx(2.0)
    assert plan.window("side").rect.x0 - board.rect.x1 == pytest.approx(40.0)
    assert board.rect.size == pytest.approx((16 * 8 + 2, 32 * 8))


def test_buttons_face_their_players(rig):
    plan = plan_table(rig)
    holes = {(h.key.split(".")[1], h.label): h for h in plan.holes if h.kind == "button"}
    assert holes["seat[0]", "PREV"].y > plan.window("seat0").rect.y1
    assert holes["seat[0]", "PREV"].x < holes["seat[0]", "NEXT"].x  # to seat 0's right
    assert holes["seat[1]", "PREV"].y < plan.window("seat1").rect.y0
    assert holes["seat[1]", "PREV"].x > holes["seat[1]", "NEXT"].x  # seat 1 sits across the table
    assert holes["seat[2]", "OK"].x < plan.window("seat2").rect.x0
    assert holes["seat[3]", "OK"].x > plan.window("seat3").rect.x1
    host = next(h for h in plan.holes if h.label == "HOST")
    assert host.y == holes["seat[0]", "BACK"].y and host.x > holes["seat[0]", "BACK"].x


def refused(text, *fragments):
    with pytest.raises(RigError) as caught:
        parse_rig(text, source="test.toml")
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)


def test_bad_build_sections_are_refused_naming_the_key(reference_text):
    refused(reference_text.replace("button_hole_mm = 30.0", "button_hole_mm = 300.0"), "build.button_hole_mm")
    refused(reference_text.replace("led_pitch_mm = 10.0", 'led_pitch_mm = "ten"'), "build.led_pitch_mm")
    refused(reference_text.replace("host = [135.0, 30.0]", "host = [45.0, 30.0]"), "build.host", "overlaps the hole of button OK of seat[0]")
    refused(reference_text.replace("panel_gap_mm = 30.0", "panel_gap_mm = 5.0"), "build.panel_gap_mm (between panel[0] (centre) and panel[1] (seat0))", "5.0 mm")
    refused(reference_text.replace("min_web_mm = 8.0", "min_web_mm = 16.0"), "build.mount_hole_mm (around panel[0] (centre))", "asks for 16 mm")
    refused(reference_text + "[[build.seat]]\nOK = [0, 30]\n", "build.seat must list one table per seat (4)")
    refused(reference_text.replace("pi = { size = [85.0, 56.0] }", "pi = { size = [85.0, 56.0], position = [150, 150] }"),
            "build.pi.position", "Raspberry Pi")
    refused(reference_text.replace("border_mm = 40.0", "border_mm = 40.0\nplate_size_mm = [800, 800]"),
            "build.plate_size_mm", "at least 925 x 765")
    refused(reference_text.replace("grid_wall_mm = 1.2", "grid_wall_mm = 1.2\nwalls = 2"), "unknown key build.walls")
    refused(reference_text.replace("grid_wall_mm = 1.2", "grid_wall_mm = 4.9\nled_pitch_mm = 9.0").replace("led_pitch_mm = 10.0\n", ""),
            "build.grid_wall_mm")


def test_given_button_positions_move_the_holes(reference_text):
    seats = "".join(f"[[build.seat]]\nOK = [22.5, {40 + i}]\n" for i in range(4))
    plan = plan_table(parse_rig(reference_text + seats))
    ok = next(h for h in plan.holes if h.key == "build.seat[0].OK")
    assert ok.y - plan.window("seat0").rect.y1 == pytest.approx(40.0)
    assert math.isclose(ok.x, (plan.window("seat0").rect.x0 + plan.window("seat0").rect.x1) / 2 + 22.5)


def test_a_rig_without_a_build_section_still_loads(small_rig_text):
    rig = parse_rig(small_rig_text("[[panel.module]]\nsize = [4, 3]\n"))
    assert not rig.build.given and rig.build.led_pitch_mm == 10.0

"""The cut list and bill of materials, from the rig file: Markdown for reading, CSV for a spreadsheet."""
from __future__ import annotations

import csv
import io
import math

from hardware.construction.grids import grid_designs, piece_count
from hardware.construction.plan import CARRIER_MARGIN_MM, Plan, wire_ends
from hardware.doctor import SUPPLY_MARGIN

SLACK_MM = 150.0
"""Added to every wire for bends and connectors."""


def _run(a: tuple[float, float], b: tuple[float, float]) -> float:
    """A wire's length along the table's axes (wires run along the frame, not diagonally), with slack."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) + SLACK_MM


def rows(plan: Plan) -> list[tuple[str, int, str]]:
    """(part, quantity, size or note) for everything the table needs."""
    rig, build = plan.rig, plan.rig.build
    modules = [(panel, module) for panel in rig.panels for module in panel.modules]
    width, height = plan.plate.size
    pi = next(b.rect for b in plan.boxes if b.name == "pi")
    supply = next(b.rect for b in plan.boxes if b.name == "supply")
    pi_at = ((pi.x0 + pi.x1) / 2, (pi.y0 + pi.y1) / 2)
    supply_at = ((supply.x0 + supply.x1) / 2, (supply.y0 + supply.y1) / 2)
    data = 0.0
    for channel in range(len(rig.led_pins)):
        chain = sorted((m.chain, p, m) for p, m in modules if m.channel == channel)
        previous = pi_at
        for _, panel, module in chain:
            start, end = wire_ends(plan, panel, module)
            data += _run(previous, start)
            previous = end
    power = sum(_run(supply_at, wire_ends(plan, p, m)[0]) for p, m in modules)
    buttons = [h for h in plan.holes if h.kind == "button"]
    button_wire = sum(_run(pi_at, (h.x, h.y)) for h in buttons)
    mounts = sum(1 for h in plan.holes if h.kind == "mount")
    listed = [
        ("Top plate", 1, f"{width:.0f} x {height:.0f} x {build.plate_mm:g} mm (plate.dxf / plate.svg)"),
        ("Base board", 1, f"{width:.0f} x {height:.0f} mm"),
        ("Frame rails", 2, f"{width:.0f} x {build.frame_height_mm:g} mm"),
        ("Frame rails", 2, f"{height - 2 * build.plate_mm:.0f} x {build.frame_height_mm:g} mm"),
    ]
    for window in plan.windows:
        w, h = window.rect.size
        lip = CARRIER_MARGIN_MM / 2
        listed.append((f"Diffuser, panel {window.panel.name}", 1, f"{w + 2 * lip:.0f} x {h + 2 * lip:.0f} x {build.diffuser_mm:g} mm opal acrylic"))
        listed.append((f"Backing board, panel {window.panel.name}", 1,
                       f"{w + 2 * CARRIER_MARGIN_MM:.0f} x {h + 2 * CARRIER_MARGIN_MM:.0f} mm, 4 holes matching the plate's"))
    for grid in grid_designs(plan):
        listed.append((f"Printed grid {grid.name} (for {', '.join(grid.panels)})", len(grid.panels),
                       f"{grid.size[0]:.0f} x {grid.size[1]:.0f} x {build.grid_height_mm:g} mm"))
    shapes = sorted({m.size for _, m in modules})
    listed += [
        ("Printed grid pieces in all", piece_count(plan), "each fits a 220 x 220 mm bed"),
        ("WS2812B LED matrices", len(modules), ", ".join(f"{w} x {h}" for w, h in shapes) + f" LEDs at {build.led_pitch_mm:g} mm"),
        ("Arcade buttons", len(buttons), f"{build.button_hole_mm:g} mm, normally open ({len(rig.seats)} seats x 4 + HOST)"),
        ("1000 µF 10 V capacitors", len(modules), "one across 5 V and GND at each matrix"),
        ("330 Ω resistors", len(rig.led_pins), "one in each chain's data line"),
        ("Fuse holders and 5 A fuses", len(modules), "one power injection line per matrix"),
        ("74AHCT125 level shifters", math.ceil(len(rig.led_pins) / 4), "one gate per chain"),
        ("5 V LED power supply", 1, f"{SUPPLY_MARGIN * rig.budget_amps:g} A or more (power.budget_amps {rig.budget_amps:g} A + 20 %)"),
        ("M3 screws with spacers", mounts, f"through the plate and the backing boards; spacers {build.diffuser_mm + build.grid_height_mm + 2:g} mm"),
        ("Data wire (22-24 AWG, 3 cores)", 1, f"{data / 1000:.1f} m from the Pi along each chain"),
        ("Power wire (18 AWG, red and black)", 1, f"{power / 1000:.1f} m each colour, supply to every matrix"),
        ("Button wire (22-24 AWG)", 1, f"{button_wire / 1000:.1f} m signal + the same for ground"),
    ]
    return listed


def cut_list_markdown(plan: Plan) -> str:
    width, height = plan.plate.size
    lines = [f"# Cut list and parts: {plan.rig.source}", "",
             f"Table top {width:.0f} x {height:.0f} mm; the frame stands {plan.rig.build.frame_height_mm:g} mm high.", "",
             "| Part | Quantity | Size or note |", "|---|---:|---|"]
    lines += [f"| {part} | {count} | {note} |" for part, count, note in rows(plan)]
    return "\n".join(lines) + "\n"


def cut_list_csv(plan: Plan) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["part", "quantity", "size or note"])
    writer.writerows(rows(plan))
    return buffer.getvalue()

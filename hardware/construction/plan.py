"""The table in millimetres: where every window, hole and box of the build section lies on the plate.

Pure Python (no build libraries), because ``load_rig`` checks a ``[build]``
section on the Pi too. The rig places modules in LED units; here each LED
becomes ``led_pitch_mm``, and wherever modules end side by side (a *seam*:
a module edge that no module spans) the plate opens by the module's border on
both sides plus the panel gap (between panels) or the module gap (inside a
panel), so panels that touch in the rig file get a web of plate between their
windows. Coordinates are on the plate seen from above: origin at its top-left
corner, x to the right, y towards seat 0.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Optional

from hardware.layout import Layout, module_wire_positions
from hardware.rig import HOST, SEAT_BUTTONS, Footprint, Module, Panel, Rig, RigError

TEXT_MM = 6.0
"""Height of the engraved letters."""
CHECK_LINE_MM = 100.0
MOUNT_OFFSET_MM = 8.0
"""How far a panel's mounting holes sit from its window's corners, along each axis."""
BUTTON_BODY_MM = 8.0
"""Room around a button hole under the plate for its nut and microswitch."""
CARRIER_MARGIN_MM = MOUNT_OFFSET_MM + 6.0
"""How far a panel's backing board reaches beyond its window (it holds the mounting screws)."""


@dataclasses.dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def size(self) -> tuple[float, float]:
        return self.x1 - self.x0, self.y1 - self.y0

    def grown(self, by: float) -> Rect:
        return Rect(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def moved(self, dx: float, dy: float) -> Rect:
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    def contains(self, other: Rect) -> bool:
        return self.x0 <= other.x0 and self.y0 <= other.y0 and other.x1 <= self.x1 and other.y1 <= self.y1

    def distance(self, other: Rect) -> float:
        """Gap between two rectangles; negative inside each other (how deep they overlap)."""
        dx = max(other.x0 - self.x1, self.x0 - other.x1)
        dy = max(other.y0 - self.y1, self.y0 - other.y1)
        return math.hypot(dx, dy) if dx > 0 and dy > 0 else max(dx, dy)


@dataclasses.dataclass(frozen=True)
class Hole:
    """A round hole through the plate; ``key`` is the rig file key that puts it there."""

    x: float
    y: float
    diameter: float
    kind: str
    label: str
    key: str
    facing: int = 0

    @property
    def bounds(self) -> Rect:
        r = self.diameter / 2
        return Rect(self.x - r, self.y - r, self.x + r, self.y + r)


@dataclasses.dataclass(frozen=True)
class Window:
    """A panel's opening over its LED field; ``modules`` are each module's LED area, ``leds`` each LED's centre."""

    panel: Panel
    rect: Rect
    modules: tuple[Rect, ...]
    key: str


@dataclasses.dataclass(frozen=True)
class Text:
    """An engraved line of text, turned ``facing`` degrees clockwise so its player reads it."""

    x: float
    y: float
    text: str
    facing: int
    height: float = TEXT_MM


@dataclasses.dataclass(frozen=True)
class Box:
    """A box under the plate (``pi``, ``supply``)."""

    name: str
    rect: Rect
    key: str


@dataclasses.dataclass(frozen=True)
class Plan:
    rig: Rig
    plate: Rect
    windows: tuple[Window, ...]
    holes: tuple[Hole, ...]
    texts: tuple[Text, ...]
    boxes: tuple[Box, ...]
    check_line: tuple[tuple[float, float], tuple[float, float]]
    offset: tuple[float, float]
    """Plate position of the LED field's top-left corner (table LED (0, 0))."""
    seams: tuple[dict[int, float], dict[int, float]]
    layout: Layout = dataclasses.field(repr=False, compare=False)

    def window(self, panel: str) -> Window:
        return next(window for window in self.windows if window.panel.name == panel)

    def led_centre(self, table_x: int, table_y: int) -> tuple[float, float]:
        """Plate position of the centre of the LED at table coordinates."""
        pitch = self.rig.build.led_pitch_mm
        return (
            self.offset[0] + (table_x + 0.5) * pitch + _opened(self.seams[0], table_x),
            self.offset[1] + (table_y + 0.5) * pitch + _opened(self.seams[1], table_y),
        )

    def module_rect(self, panel: Panel, module: Module) -> Rect:
        """Plate rectangle of a module's LED cells (its board reaches ``module_border_mm`` further)."""
        corners = [self.layout.panel_to_table(panel.name, module.offset[0] + x, module.offset[1] + y)
                   for x, y in ((0, 0), (module.size[0] - 1, module.size[1] - 1))]
        return _cells(self, corners)


def _opened(seams: dict[int, float], coordinate: int) -> float:
    """How far the plate has opened before LED line ``coordinate`` (the seams at or before it)."""
    return sum(extra for seam, extra in seams.items() if seam <= coordinate)


def _cells(plan: Plan, corners: list[tuple[int, int]]) -> Rect:
    half = plan.rig.build.led_pitch_mm / 2
    centres = [plan.led_centre(x, y) for x, y in corners]
    xs, ys = [c[0] for c in centres], [c[1] for c in centres]
    return Rect(min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)


def _table_modules(rig: Rig, layout: Layout):
    """Every module as (panel, its table rectangle in LED units: x0, y0, x1, y1)."""
    for panel in rig.panels:
        for module in panel.modules:
            corners = [layout.panel_to_table(panel.name, module.offset[0] + x, module.offset[1] + y)
                       for x, y in ((0, 0), (module.size[0] - 1, module.size[1] - 1))]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            yield panel, (min(xs), min(ys), max(xs) + 1, max(ys) + 1)


def _seams(rig: Rig, layout: Layout, axis: int) -> dict[int, float]:
    """LED lines where modules end side by side on one axis, and how far the plate opens there."""
    build = rig.build
    spans = [(panel.name, box[axis], box[axis + 2]) for panel, box in _table_modules(rig, layout)]
    lowest = min(start for _, start, _ in spans)
    seams: dict[int, float] = {}
    for edge in sorted({e for _, start, end in spans for e in (start, end)}):
        if edge == lowest or any(start < edge < end for _, start, end in spans):
            continue
        ending = {name for name, _, end in spans if end == edge}
        starting = {name for name, start, _ in spans if start == edge}
        if not starting:
            continue  # the far edge of the table
        between_panels = ending != starting or len(ending) > 1 or not ending
        seams[edge] = 2 * build.module_border_mm + (build.panel_gap_mm if between_panels else build.module_gap_mm)
    return seams


def _turn(u: float, v: float, facing: int) -> tuple[float, float]:
    """A vector in a player's frame (right, towards the player) on the table seen from above."""
    return {0: (u, v), 90: (-v, u), 180: (-u, -v), 270: (v, -u)}[facing]


def _player_edge(rect: Rect, facing: int) -> tuple[float, float]:
    """Middle of the window's edge nearest the player the panel faces."""
    middle = ((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)
    return {0: (middle[0], rect.y1), 180: (middle[0], rect.y0), 90: (rect.x0, middle[1]), 270: (rect.x1, middle[1])}[facing]


def plan_table(rig: Rig) -> Plan:
    """Lay the rig's build section out on the plate and check it.

    :raises RigError: naming the key at fault when windows and holes overlap or come
        closer than ``build.min_web_mm``, or when something does not fit on the plate.
    """
    build = rig.build
    layout = Layout(rig)
    seams = (_seams(rig, layout, 0), _seams(rig, layout, 1))
    # First lay everything out around the LED field's corner, then move it onto the plate.
    draft = Plan(rig, Rect(0, 0, 0, 0), (), (), (), (), ((0, 0), (0, 0)), (0.0, 0.0), seams, layout)
    windows = []
    for index, panel in enumerate(rig.panels):
        modules = tuple(draft.module_rect(panel, module) for module in panel.modules)
        rect = Rect(min(m.x0 for m in modules), min(m.y0 for m in modules),
                    max(m.x1 for m in modules), max(m.y1 for m in modules))
        windows.append(Window(panel, rect, modules, f"panel[{index}] ({panel.name})"))

    holes, texts = [], []
    for index, (seat, buttons) in enumerate(zip(rig.seats, build.buttons)):
        panel = rig.panel(seat.panel)
        window = next(w for w in windows if w.panel is panel)
        ex, ey = _player_edge(window.rect, panel.facing)
        given = "" if "seat" in build.keys else " (default layout)"
        for name in SEAT_BUTTONS:
            dx, dy = _turn(*buttons[name], panel.facing)
            holes.append(Hole(ex + dx, ey + dy, build.button_hole_mm, "button", name,
                              f"build.seat[{index}].{name}{given}", panel.facing))
        # Beyond the buttons and their engraved names.
        far = max(v for _, v in buttons.values()) + build.button_hole_mm / 2 + 2 + TEXT_MM * 0.7 + 4 + TEXT_MM / 2
        dx, dy = _turn(0.0, far, panel.facing)
        texts.append(Text(ex + dx, ey + dy, f"SEAT {index}", panel.facing))
    if rig.seats:
        panel = rig.panel(rig.seats[0].panel)
        window = next(w for w in windows if w.panel is panel)
        ex, ey = _player_edge(window.rect, panel.facing)
        dx, dy = _turn(*build.host, panel.facing)
        holes.append(Hole(ex + dx, ey + dy, build.button_hole_mm, "button", HOST,
                          "build.host" + ("" if "host" in build.keys else " (default position)"), panel.facing))
    for window in windows:
        r = window.rect
        for x, y in ((r.x0 - MOUNT_OFFSET_MM, r.y0 - MOUNT_OFFSET_MM), (r.x1 + MOUNT_OFFSET_MM, r.y0 - MOUNT_OFFSET_MM),
                     (r.x0 - MOUNT_OFFSET_MM, r.y1 + MOUNT_OFFSET_MM), (r.x1 + MOUNT_OFFSET_MM, r.y1 + MOUNT_OFFSET_MM)):
            holes.append(Hole(x, y, build.mount_hole_mm, "mount", "", f"build.mount_hole_mm (around {window.key})"))
    for hole in holes:
        if hole.kind == "button":
            dx, dy = _turn(0.0, build.button_hole_mm / 2 + 2 + TEXT_MM / 2, hole.facing)
            texts.append(Text(hole.x + dx, hole.y + dy, hole.label, hole.facing, TEXT_MM * 0.7))
    _check_webs(rig, windows, holes)

    keep_out = [w.rect.grown(CARRIER_MARGIN_MM) for w in windows] + [
        h.bounds.grown(BUTTON_BODY_MM) for h in holes if h.kind == "button"]
    content = _union(keep_out + [h.bounds for h in holes])
    boxes = []
    for name in ("pi", "supply"):
        footprint: Footprint = getattr(build, name)
        key = f"build.{name}.position" if footprint.position else f"build.{name}"
        rect = (_given_box(footprint) if footprint.position else
                _free_spot(footprint.size, content, keep_out + [b.rect for b in boxes], build.min_web_mm))
        for other in keep_out + [b.rect for b in boxes]:
            if rect.distance(other) < build.min_web_mm:
                raise RigError(f"{key}: the {_box_name(name)} ({rect.size[0]:g} x {rect.size[1]:g} mm) comes closer than "
                               f"build.min_web_mm ({build.min_web_mm:g} mm) to a panel's backing board, a button "
                               "or the other box under the plate")
        boxes.append(Box(name, rect, key))
    extent = _union([content] + [b.rect for b in boxes] + [_text_bounds(t) for t in texts]).grown(build.border_mm)
    # The check line and its label go in the border strip below the field.
    if build.plate_size_mm:
        width, height = build.plate_size_mm
        if width < extent.size[0] or height < extent.size[1]:
            raise RigError(f"build.plate_size_mm: the table needs a plate of at least {extent.size[0]:.0f} x "
                           f"{extent.size[1]:.0f} mm (with build.border_mm), not {width:g} x {height:g}")
        extent = Rect(extent.x0 - (width - extent.size[0]) / 2, extent.y0 - (height - extent.size[1]) / 2,
                      extent.x0 + extent.size[0] + (width - extent.size[0]) / 2,
                      extent.y0 + extent.size[1] + (height - extent.size[1]) / 2)
    if extent.size[0] < CHECK_LINE_MM + 2 * build.border_mm:
        grow = (CHECK_LINE_MM + 2 * build.border_mm - extent.size[0]) / 2
        extent = Rect(extent.x0 - grow, extent.y0, extent.x1 + grow, extent.y1)
    dx, dy = -extent.x0, -extent.y0
    plate = extent.moved(dx, dy)
    line_y = plate.y1 - build.border_mm / 2
    check_line = ((build.border_mm, line_y), (build.border_mm + CHECK_LINE_MM, line_y))
    return Plan(
        rig=rig,
        plate=plate,
        windows=tuple(dataclasses.replace(w, rect=w.rect.moved(dx, dy), modules=tuple(m.moved(dx, dy) for m in w.modules))
                      for w in windows),
        holes=tuple(dataclasses.replace(h, x=h.x + dx, y=h.y + dy) for h in holes),
        texts=tuple(dataclasses.replace(t, x=t.x + dx, y=t.y + dy) for t in texts)
        + (Text(build.border_mm + CHECK_LINE_MM / 2, line_y - TEXT_MM * 0.8, "100 mm", 0, TEXT_MM * 0.7),),
        boxes=tuple(dataclasses.replace(b, rect=b.rect.moved(dx, dy)) for b in boxes),
        check_line=check_line,
        offset=(dx, dy),
        seams=seams,
        layout=layout,
    )


def _box_name(name: str) -> str:
    return {"pi": "Raspberry Pi", "supply": "LED power supply"}[name]


def _given_box(footprint: Footprint) -> Rect:
    (x, y), (w, h) = footprint.position, footprint.size
    return Rect(x, y, x + w, y + h)


def _union(rects: list[Rect]) -> Rect:
    return Rect(min(r.x0 for r in rects), min(r.y0 for r in rects), max(r.x1 for r in rects), max(r.y1 for r in rects))


def _text_bounds(text: Text) -> Rect:
    half = max(len(text.text) * text.height * 0.4, text.height / 2)
    return Rect(text.x - half, text.y - half, text.x + half, text.y + half)


def _free_spot(size: tuple[float, float], content: Rect, taken: list[Rect], web: float) -> Rect:
    """The first spot (in reading order, on a 5 mm grid, either way round) inside ``content`` clear of ``taken``;
    else beside it on the right, so the plate grows instead of refusing a default."""
    for w, h in (size, size[::-1]):
        y = content.y0
        while y + h <= content.y1:
            x = content.x0
            while x + w <= content.x1:
                rect = Rect(x, y, x + w, y + h)
                if all(rect.distance(other) >= web for other in taken):
                    return rect
                x += 5.0
            y += 5.0
    x = max(r.x1 for r in taken) + web
    return Rect(x, content.y0, x + size[0], content.y0 + size[1])


def _check_webs(rig: Rig, windows: list[Window], holes: list[Hole]) -> None:
    """No two openings closer than ``build.min_web_mm``: the plate between them would break."""
    web = rig.build.min_web_mm
    parts = [(w.key, f"the window of panel {w.panel.name!r}", w.rect, None) for w in windows]
    parts += [(h.key, _hole_name(h), h.bounds, h) for h in holes]
    for i, (key_a, name_a, rect_a, hole_a) in enumerate(parts):
        for key_b, name_b, rect_b, hole_b in parts[i + 1:]:
            gap = _gap(rect_a, hole_a, rect_b, hole_b)
            if gap < web - 1e-9:
                key = key_b if hole_b is not None else key_a
                if hole_a is None and hole_b is None:  # two windows: the panels sit too close
                    key_b = key = f"build.panel_gap_mm (between {key_a} and {key_b})"
                what = "overlaps" if gap < 0 else f"leaves {gap:.1f} mm of plate next to"
                raise RigError(f"{key}: {name_b if key is key_b else name_a} {what} "
                               f"{name_a if key is key_b else name_b}; build.min_web_mm asks for {web:g} mm")


def _hole_name(hole: Hole) -> str:
    if hole.kind == "mount":
        return f"a mounting hole at ({hole.x:.0f}, {hole.y:.0f}) mm"
    return "the HOST button's hole" if hole.label == HOST else f"the hole of button {hole.key.split('.')[-1].split()[0]} of {hole.key.split('.')[1]}"


def _gap(rect_a: Rect, hole_a: Optional[Hole], rect_b: Rect, hole_b: Optional[Hole]) -> float:
    """Shortest distance between two openings (rectangles or circles); negative where they overlap."""
    if hole_a is not None and hole_b is not None:
        return math.hypot(hole_a.x - hole_b.x, hole_a.y - hole_b.y) - (hole_a.diameter + hole_b.diameter) / 2
    if hole_a is None and hole_b is None:
        return rect_a.distance(rect_b)
    hole, rect = (hole_a, rect_b) if hole_a is not None else (hole_b, rect_a)
    dx = max(rect.x0 - hole.x, 0.0, hole.x - rect.x1)
    dy = max(rect.y0 - hole.y, 0.0, hole.y - rect.y1)
    if dx == 0 and dy == 0:
        return -hole.diameter / 2
    return math.hypot(dx, dy) - hole.diameter / 2


def wire_ends(plan: Plan, panel: Panel, module: Module) -> tuple[tuple[float, float], tuple[float, float]]:
    """Plate positions of a module's first and last LED: where its data comes in and goes out."""
    positions = module_wire_positions(module)
    first, last = (plan.layout.panel_to_table(panel.name, *positions[i]) for i in (0, -1))
    return plan.led_centre(*first), plan.led_centre(*last)

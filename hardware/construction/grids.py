"""Diffuser grids to 3D-print: one design per panel shape, split into pieces that fit the print bed.

Each grid lies in its panel's own frame (x to the right and y down as its
player reads the panel), z up from the matrix. Walls stand exactly halfway
between neighbouring LEDs; the outer walls lie inside the LED field, so a
grid is as large as its panel's window. Under the inner walls a slot clears
the LEDs' SMD parts (the walls rest on the crossings); the outer walls have a
cable slot where each module's data comes in and goes out, and a notch on top
over the data input, which is how the grid shows the module's rotation.
Solids are built with manifold3d (always watertight) and written as binary
STL with trimesh.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from hardware.construction.plan import Plan, _turn
from hardware.layout import module_wire_positions
from hardware.rig import Panel

BED_MM = 220.0
"""The print bed the pieces must fit (a common 220 x 220 mm bed)."""
POST_MM = 1.0
"""How much solid wall stays on each side of a crossing under the SMD slot."""
MARK_MM = (3.0, 1.5)
"""The rotation notch on top of the outer wall: width and depth."""


@dataclasses.dataclass(frozen=True)
class Grid:
    """One grid design: cell boundaries on each axis (mm), cable slots and marks, the panels it serves."""

    name: str
    panels: tuple[str, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    ports: tuple[tuple[str, int, float], ...]
    """(side: left/right/top/bottom, wall index on that axis, position along the wall) of each cable slot."""
    marks: tuple[tuple[str, int, float], ...]

    @property
    def size(self) -> tuple[float, float]:
        return self.xs[-1], self.ys[-1]


def _panel_frame(plan: Plan, panel: Panel):
    """Plate position -> the panel's own frame (mm from its logical top-left corner)."""
    pitch = plan.rig.build.led_pitch_mm
    cx, cy = plan.led_centre(*plan.layout.panel_to_table(panel.name, 0, 0))
    corner = _turn(pitch / 2, pitch / 2, panel.facing)
    ox, oy = cx - corner[0], cy - corner[1]
    back = (360 - panel.facing) % 360
    return lambda x, y: _turn(x - ox, y - oy, back)


def grid_designs(plan: Plan) -> list[Grid]:
    """The distinct grids of the rig, in panel order; panels that need the same grid share one."""
    designs: dict[tuple, Grid] = {}
    for panel in plan.rig.panels:
        frame = _panel_frame(plan, panel)

        def centre(x: int, y: int) -> tuple[float, float]:
            return frame(*plan.led_centre(*plan.layout.panel_to_table(panel.name, x, y)))

        pitch = plan.rig.build.led_pitch_mm
        cx = [centre(x, 0)[0] for x in range(panel.width)]
        cy = [centre(0, y)[1] for y in range(panel.height)]
        xs = tuple(round(v, 6) for v in [0.0] + [(a + b) / 2 for a, b in zip(cx, cx[1:])] + [cx[-1] + pitch / 2])
        ys = tuple(round(v, 6) for v in [0.0] + [(a + b) / 2 for a, b in zip(cy, cy[1:])] + [cy[-1] + pitch / 2])
        ports, marks = [], []
        for module in panel.modules:
            positions = module_wire_positions(module)
            for end, (led, step) in enumerate(((positions[0], _step(positions, 0)), (positions[-1], _step(positions, -1)))):
                port = _port(led, step if end else (-step[0], -step[1]), cx, cy)
                ports.append(port)
                if end == 0:
                    marks.append(port)
        key = (xs, ys, tuple(ports), tuple(marks))
        if key in designs:
            grid = designs[key]
            designs[key] = dataclasses.replace(grid, panels=grid.panels + (panel.name,))
        else:
            designs[key] = Grid(panel.name, (panel.name,), xs, ys, tuple(ports), tuple(marks))
    return list(designs.values())


def _step(positions: list[tuple[int, int]], at: int) -> tuple[int, int]:
    """Direction the data runs at the first (0) or last (-1) LED of a module, along its row."""
    if len(positions) == 1:
        return (1, 0)
    a, b = (positions[0], positions[1]) if at == 0 else (positions[-2], positions[-1])
    step = (b[0] - a[0], b[1] - a[1])
    return step if abs(step[0]) + abs(step[1]) == 1 else (0, 1) if step[0] == 0 else (1, 0)


def _port(led: tuple[int, int], outward: tuple[int, int], cx: list[float], cy: list[float]) -> tuple[str, int, float]:
    """The wall beside ``led`` in direction ``outward``, and where along it the LED's centre is."""
    x, y = led
    if outward[0]:
        return ("x", x + (outward[0] > 0), round(cy[y], 6))
    return ("y", y + (outward[1] > 0), round(cx[x], 6))


def split(bounds: tuple[float, ...], bed: float = BED_MM) -> list[tuple[int, int]]:
    """Cell ranges along one axis, as few and as even as fit the bed, cut on cell boundaries."""
    cells = len(bounds) - 1
    for count in range(1, cells + 1):
        cuts = [0] + [round(i * cells / count) for i in range(1, count)] + [cells]
        pieces = list(zip(cuts, cuts[1:]))
        if all(bounds[b] - bounds[a] <= bed for a, b in pieces):
            return pieces
    raise ValueError(f"one cell of {max(b - a for a, b in zip(bounds, bounds[1:])):g} mm is wider than the bed")


def grid_pieces(plan: Plan, grid: Grid, bed: float = BED_MM) -> list:
    """The grid's pieces as manifold3d solids, each in place (a piece's seam wall is its own, full thickness)."""
    return [_piece(plan, grid, xr, yr) for yr in split(grid.ys, bed) for xr in split(grid.xs, bed)]


def _piece(plan: Plan, grid: Grid, xr: tuple[int, int], yr: tuple[int, int]):
    from manifold3d import Manifold, OpType

    build = plan.rig.build
    wall, height, slot = build.grid_wall_mm, build.grid_height_mm, build.smd_clearance_mm
    x0, x1, y0, y1 = grid.xs[xr[0]], grid.xs[xr[1]], grid.ys[yr[0]], grid.ys[yr[1]]

    def block(ax: float, ay: float, bx: float, by: float, az: float = 0.0, bz: float = height):
        return Manifold.cube((bx - ax, by - ay, bz - az)).translate((ax, ay, az))

    def wall_span(bounds: tuple[float, ...], index: int, low: int, high: int) -> tuple[float, float]:
        """Where the wall on boundary ``index`` stands: centred inside, flush with the piece's edges."""
        if index == low:
            return bounds[index], bounds[index] + wall
        if index == high:
            return bounds[index] - wall, bounds[index]
        return bounds[index] - wall / 2, bounds[index] + wall / 2

    walls = []
    for i in range(xr[0], xr[1] + 1):
        left, right = wall_span(grid.xs, i, *xr)
        walls.append(block(left, y0, right, y1))
    for j in range(yr[0], yr[1] + 1):
        top, bottom = wall_span(grid.ys, j, *yr)
        walls.append(block(x0, top, x1, bottom))
    solid = Manifold.batch_boolean(walls, OpType.Add)
    cuts = []
    if slot > 0:
        for i in range(xr[0] + 1, xr[1]):
            for j in range(yr[0], yr[1]):
                a, b = grid.ys[j] + wall / 2 + POST_MM, grid.ys[j + 1] - wall / 2 - POST_MM
                if b > a:
                    cuts.append(block(grid.xs[i] - wall, a, grid.xs[i] + wall, b, -1.0, slot))
        for j in range(yr[0] + 1, yr[1]):
            for i in range(xr[0], xr[1]):
                a, b = grid.xs[i] + wall / 2 + POST_MM, grid.xs[i + 1] - wall / 2 - POST_MM
                if b > a:
                    cuts.append(block(a, grid.ys[j] - wall, b, grid.ys[j] + wall, -1.0, slot))
    for ports, (width, depth), from_top in ((grid.ports, build.cable_slot_mm, False), (grid.marks, MARK_MM, True)):
        for axis, index, along in ports:
            bounds, (low, high), (lo, hi) = (grid.xs, xr, (y0, y1)) if axis == "x" else (grid.ys, yr, (x0, x1))
            if not low <= index <= high or not lo <= along <= hi or width <= 0 or depth <= 0:
                continue  # on another piece
            a, b = bounds[index] - 2 * wall, bounds[index] + 2 * wall
            c, d = along - width / 2, along + width / 2
            z = (height - depth, height + 1.0) if from_top else (-1.0, depth)
            cuts.append(block(a, c, b, d, *z) if axis == "x" else block(c, a, d, b, *z))
    if cuts:
        solid = solid - Manifold.batch_boolean(cuts, OpType.Add)
    # The cuts reach past the piece; trim to its box so its size is exact.
    return solid ^ block(x0, y0, x1, y1, 0.0, height)


def write_stl(solid, path: Path) -> None:
    """A manifold3d solid as binary STL (trimesh)."""
    import trimesh

    mesh = solid.to_mesh()
    trimesh.Trimesh(vertices=mesh.vert_properties[:, :3], faces=mesh.tri_verts, process=False).export(path, file_type="stl")


def piece_count(plan: Plan, bed: float = BED_MM) -> int:
    """How many pieces the whole table's grids come to (every panel's copy counted)."""
    return sum(len(split(g.xs, bed)) * len(split(g.ys, bed)) * len(g.panels) for g in grid_designs(plan))


def piece_names(grid: Grid, bed: float = BED_MM) -> list[str]:
    """File names of a design's pieces, in the order of :func:`grid_pieces`."""
    count = len(split(grid.xs, bed)) * len(split(grid.ys, bed))
    return [f"grid_{grid.name}.stl"] if count == 1 else [f"grid_{grid.name}_{i + 1}of{count}.stl" for i in range(count)]


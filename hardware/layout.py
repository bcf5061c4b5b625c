"""Where every LED is: logical (panel, x, y), table coordinates and wire order.

Built once from a :class:`~hardware.rig.Rig` into lookup tables, so writing a
frame is a single byte permutation per channel (as the rpi_ws281x maintainers
advise for odd panel wirings: a lookup table, not arithmetic per pixel).
"""
from __future__ import annotations

from operator import itemgetter
from typing import Iterator, Mapping, Optional

from hardware.rig import Module, Panel, Rig


def turn_clockwise(x: int, y: int, width: int, height: int, degrees: int) -> tuple[int, int]:
    """Position of (x, y) of a ``width`` x ``height`` grid after turning the grid clockwise."""
    if degrees == 0:
        return x, y
    if degrees == 90:
        return height - 1 - y, x
    if degrees == 180:
        return width - 1 - x, height - 1 - y
    if degrees == 270:
        return y, width - 1 - x
    raise ValueError(f"a turn must be 0, 90, 180 or 270 degrees, not {degrees!r}")


def module_wire_positions(module: Module) -> list[tuple[int, int]]:
    """Panel position of each LED of a module, in the order the data reaches them."""
    width, height = module.size
    frame_width, frame_height = (width, height) if module.rotation in (0, 180) else (height, width)
    positions = []
    for index in range(frame_width * frame_height):
        row, column = divmod(index, frame_width)
        if module.wiring == "serpentine" and row % 2:
            column = frame_width - 1 - column
        if module.mirror:
            column = frame_width - 1 - column
        x, y = turn_clockwise(column, row, frame_width, frame_height, module.rotation)
        positions.append((module.offset[0] + x, module.offset[1] + y))
    return positions


class Layout:
    """Lookup tables of one rig.

    The logical buffer holds the panels one after another, each row by row,
    three bytes (R, G, B) per LED. ``wire_order[c]`` lists, for every LED on
    channel ``c`` in data order, its logical LED index.
    """

    def __init__(self, rig: Rig):
        self.rig = rig
        self.panel_start: dict[str, int] = {}
        start = 0
        for panel in rig.panels:
            self.panel_start[panel.name] = start
            start += panel.width * panel.height
        self.led_count = start

        chained: list[list[tuple[int, Panel, Module]]] = [[] for _ in rig.led_pins]
        for panel in rig.panels:
            for module in panel.modules:
                chained[module.channel].append((module.chain, panel, module))
        self.wire_order: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                self.panel_start[panel.name] + y * panel.width + x
                for _, panel, module in sorted(chain, key=lambda item: item[0])
                for x, y in module_wire_positions(module)
            )
            for chain in chained
        )

        colour_slots = tuple("RGB".index(letter) for letter in rig.colour_order)
        self.wire_bytes = tuple(
            itemgetter(*(3 * led + slot for led in order for slot in colour_slots)) for order in self.wire_order
        )
        """Per channel, picks the wire bytes (rig colour order) out of the logical RGB buffer."""
        source = [0] * (3 * self.led_count)
        position = 0
        for order in self.wire_order:
            for led in order:
                for slot in colour_slots:
                    source[3 * led + slot] = position
                    position += 1
        self._logical_bytes = itemgetter(*source)

        self._table: dict[tuple[int, int], tuple[str, int, int]] = {}
        for panel in rig.panels:
            for y in range(panel.height):
                for x in range(panel.width):
                    self._table[self.panel_to_table(panel.name, x, y)] = (panel.name, x, y)

    def logical_position(self, led: int) -> tuple[str, int, int]:
        """(panel, x, y) of a logical LED index (as listed in ``wire_order``)."""
        if not 0 <= led < self.led_count:
            raise ValueError(f"LED index {led} is outside 0 to {self.led_count - 1}")
        for panel in self.rig.panels:
            offset = led - self.panel_start[panel.name]
            if offset < panel.width * panel.height:
                return panel.name, offset % panel.width, offset // panel.width
        raise AssertionError("panel_start covers every LED")

    def panel_to_table(self, panel: str, x: int, y: int) -> tuple[int, int]:
        """Table coordinates of a panel's logical (x, y)."""
        spec = self.rig.panel(panel)
        if not (0 <= x < spec.width and 0 <= y < spec.height):
            raise ValueError(f"({x}, {y}) is outside panel {panel!r} ({spec.width}x{spec.height})")
        tx, ty = turn_clockwise(x, y, spec.width, spec.height, spec.facing)
        return spec.position[0] + tx, spec.position[1] + ty

    def table_to_panel(self, x: int, y: int) -> Optional[tuple[str, int, int]]:
        """(panel, x, y) of the LED at table coordinates, or None where the table has no LED."""
        return self._table.get((x, y))

    def table_cells(self) -> Iterator[tuple[tuple[int, int], tuple[str, int, int]]]:
        """Every LED as ``((table x, table y), (panel, x, y))``."""
        return iter(self._table.items())

    def to_wire(self, logical: bytes) -> tuple[bytes, ...]:
        """Logical RGB bytes to each channel's wire bytes."""
        return tuple(bytes(pick(logical)) for pick in self.wire_bytes)

    def to_panels(self, channels: tuple[bytes, ...]) -> dict[str, bytes]:
        """Each channel's wire bytes back to each panel's RGB bytes (row by row): what the LEDs show."""
        logical = bytes(self._logical_bytes(b"".join(channels)))
        return {
            panel.name: logical[3 * self.panel_start[panel.name] : 3 * (self.panel_start[panel.name] + panel.width * panel.height)]
            for panel in self.rig.panels
        }

    def describe(self) -> Mapping:
        """The geometry as plain data (for the web simulator page): table size, panels, modules."""
        width, height = self.rig.table_size
        return {
            "table": {"width": width, "height": height},
            "panels": [
                {
                    "name": panel.name,
                    "width": panel.width,
                    "height": panel.height,
                    "x": panel.position[0],
                    "y": panel.position[1],
                    "facing": panel.facing,
                    "modules": [
                        {"x": m.offset[0], "y": m.offset[1], "width": m.size[0], "height": m.size[1]}
                        for m in panel.modules
                    ],
                }
                for panel in self.rig.panels
            ],
        }

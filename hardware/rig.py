"""The rig file: panels, wiring, pins and power, read from TOML and validated on load.

A rig is described once, in LED units on the table (x to the right, y down, as
seen from seat 0). Everything else in the layer (mapping, limiter, buttons,
simulator) is derived from the validated :class:`Rig`, so a mistake in the file
is caught here with a message that names the key, not later as a dark panel.
"""
from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any, Mapping, Optional

REFERENCE_RIG = Path(__file__).with_name("reference_rig.toml")

SEAT_BUTTONS = ("PREV", "NEXT", "OK", "BACK")
"""The four buttons at every seat."""
HOST = "HOST"
"""The shared host button; its events carry ``seat=None``."""
BUTTON_NAMES = SEAT_BUTTONS + (HOST,)

BACKENDS = ("auto", "simulator", "rpi_ws281x", "pi5", "blinka")
"""LED backends a rig may name; ``auto`` picks one from the board it runs on."""
WIRINGS = ("serpentine", "progressive")
QUARTER_TURNS = (0, 90, 180, 270)
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")

GPIO_PINS = range(2, 28)
"""BCM pins usable on the 40-pin header (0 and 1 belong to the HAT EEPROM)."""
LED_CAPABLE_PINS = {10: "SPI MOSI", 12: "PWM0", 13: "PWM1", 18: "PWM0"}
"""Pins kept free of buttons because they can carry LED data."""
SPI_BUS_PINS = (7, 8, 9, 11)
"""Pins the SPI driver claims when LED data goes out on GPIO10."""


class RigError(ValueError):
    """The rig file is unreadable or describes an impossible rig; the message names the problem."""


@dataclasses.dataclass(frozen=True)
class Module:
    """One physical LED matrix inside a panel, on one chain.

    ``size`` is its footprint in the panel; ``rotation`` (clockwise) and
    ``mirror`` say where the data enters: at rotation 0 without mirror the
    first LED is the module's top-left and the first row runs to the right.
    """

    offset: tuple[int, int]
    size: tuple[int, int]
    wiring: str
    rotation: int
    mirror: bool
    channel: int
    chain: int

    @property
    def led_count(self) -> int:
        return self.size[0] * self.size[1]


@dataclasses.dataclass(frozen=True)
class Panel:
    """A named display area on the table, made of one or more modules.

    Logical (x, y) are as read by the person it faces; ``facing`` is the
    clockwise turn from table orientation (a seat across the table has 180).
    """

    name: str
    size: tuple[int, int]
    position: tuple[int, int]
    facing: int
    modules: tuple[Module, ...]

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    @property
    def footprint(self) -> tuple[int, int]:
        """Width and height the panel covers on the table, after ``facing``."""
        return self.size if self.facing in (0, 180) else (self.size[1], self.size[0])


@dataclasses.dataclass(frozen=True)
class Seat:
    """A seat: the panel in front of it and the BCM pin of each of its buttons."""

    panel: str
    pins: Mapping[str, int]


@dataclasses.dataclass(frozen=True)
class Footprint:
    """A box under the plate (the Pi, the LED supply): its size in mm and, if the file gives it, where it sits.

    ``position`` is the top-left corner in mm from the LED field's top-left (table LED (0, 0));
    None lets the build place it in the first free spot.
    """

    size: tuple[float, float]
    position: Optional[tuple[float, float]] = None


@dataclasses.dataclass(frozen=True)
class Build:
    """The table's physical sizes, in mm (the ``[build]`` section; docs/rig.md, "Building the table").

    Positions of buttons are in the player's frame of their seat's panel: from the
    middle of the panel's edge nearest the player, ``x`` to the player's right and
    ``y`` towards the player. ``given`` tells whether the file has the section:
    only then does ``load_rig`` check the geometry (``python -m hardware build-files``
    checks the defaults), so rig files written before it still drive the table.
    """

    led_pitch_mm: float = 10.0
    module_border_mm: float = 0.0
    module_gap_mm: float = 0.0
    panel_gap_mm: float = 30.0
    border_mm: float = 40.0
    plate_size_mm: Optional[tuple[float, float]] = None
    plate_mm: float = 4.0
    diffuser_mm: float = 3.0
    grid_height_mm: float = 12.0
    grid_wall_mm: float = 1.2
    smd_clearance_mm: float = 1.0
    cable_slot_mm: tuple[float, float] = (12.0, 4.0)
    button_hole_mm: float = 30.0
    mount_hole_mm: float = 3.4
    min_web_mm: float = 8.0
    frame_height_mm: float = 80.0
    buttons: tuple[Mapping[str, tuple[float, float]], ...] = ()
    host: tuple[float, float] = (0.0, 0.0)
    pi: Footprint = Footprint((85.0, 56.0))
    supply: Footprint = Footprint((160.0, 98.0))
    given: bool = False
    keys: frozenset[str] = frozenset()
    """The keys the file sets (a refusal says when a default is at fault)."""


def default_buttons(hole_mm: float) -> dict[str, tuple[float, float]]:
    """The four buttons in a row in front of the panel, one and a half holes apart."""
    spacing = 1.5 * hole_mm
    return {name: ((index - 1.5) * spacing, hole_mm / 2 + 15.0) for index, name in enumerate(SEAT_BUTTONS)}


def default_host(hole_mm: float) -> tuple[float, float]:
    """HOST beside seat 0's row, to its player's right."""
    return 3 * 1.5 * hole_mm, hole_mm / 2 + 15.0


@dataclasses.dataclass(frozen=True)
class Rig:
    """A validated rig description (see ``reference_rig.toml`` for every field's meaning)."""

    panels: tuple[Panel, ...]
    led_pins: tuple[int, ...]
    backend: str
    colour_order: str
    gamma: float
    max_brightness: float
    milliamps_per_channel: float
    idle_milliamps: float
    budget_amps: float
    seats: tuple[Seat, ...]
    host_pin: int
    debounce_s: float
    hold_s: float
    long_press: frozenset[str]
    source: str
    build: Build = Build()

    def panel(self, name: str) -> Panel:
        """The panel called ``name``; ValueError naming the known panels otherwise."""
        for panel in self.panels:
            if panel.name == name:
                return panel
        raise ValueError(f"no panel named {name!r}; this rig has {', '.join(p.name for p in self.panels)}")

    @property
    def led_count(self) -> int:
        return sum(p.width * p.height for p in self.panels)

    @property
    def table_size(self) -> tuple[int, int]:
        """Width and height of the smallest table area holding every panel."""
        return (
            max(p.position[0] + p.footprint[0] for p in self.panels),
            max(p.position[1] + p.footprint[1] for p in self.panels),
        )

    def channel_led_counts(self) -> tuple[int, ...]:
        """LEDs on each data pin's chain, in channel order."""
        counts = [0] * len(self.led_pins)
        for panel in self.panels:
            for module in panel.modules:
                counts[module.channel] += module.led_count
        return tuple(counts)

    def button_pins(self) -> dict[tuple[Optional[int], str], int]:
        """Every button as ``(seat or None for HOST, name) -> BCM pin``."""
        pins = {(index, name): pin for index, seat in enumerate(self.seats) for name, pin in seat.pins.items()}
        pins[(None, HOST)] = self.host_pin
        return pins


def load_rig(path: Optional[str | Path] = None) -> Rig:
    """Read and validate a rig file; ``None`` loads the shipped reference rig.

    :raises RigError: (a ValueError) naming the file, the key and what is wrong.
    """
    path = Path(path) if path is not None else REFERENCE_RIG
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RigError(f"cannot read rig file {path}: {error.strerror or error}") from error
    return parse_rig(text, source=str(path))


def parse_rig(text: str, source: str = "<rig>") -> Rig:
    """Validate a rig given as TOML text (``source`` names it in error messages)."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RigError(f"{source}: not valid TOML: {error}") from error
    try:
        return _build_rig(_Table(document, ""), source)
    except RigError as error:
        raise RigError(f"{source}: {error}") from None


class _Table:
    """A TOML table being read: typed getters that name the key path, and a check for unknown keys."""

    def __init__(self, data: Any, path: str):
        if not isinstance(data, dict):
            raise RigError(f"{path or 'the file'} must be a table")
        self.data = data
        self.path = path
        self.used: set[str] = set()

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, default: Any = ...) -> Any:
        self.used.add(key)
        if key in self.data:
            return self.data[key]
        if default is ...:
            raise RigError(f"missing key {self.where(key)}")
        return default

    def int(self, key: str, low: int, high: int, default: Any = ...) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RigError(f"{self.where(key)} must be a whole number from {low} to {high}, not {value!r}")
        return value

    def number(self, key: str, low: float, high: float, default: Any = ...) -> float:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise RigError(f"{self.where(key)} must be a number from {low:g} to {high:g}, not {value!r}")
        return float(value)

    def choice(self, key: str, options: tuple, default: Any = ...) -> Any:
        value = self.raw(key, default)
        if type(value) is not type(options[0]) or value not in options:
            shown = ", ".join(repr(option) for option in options)
            raise RigError(f"{self.where(key)} must be one of {shown}, not {value!r}")
        return value

    def lengths(self, key: str, low: float, high: float, default: Any = ...) -> tuple[float, float]:
        """Two numbers in mm, like [85, 56]."""
        value = self.raw(key, default)
        if (
            not isinstance(value, (list, tuple))
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high for v in value)
        ):
            raise RigError(f"{self.where(key)} must be two numbers from {low:g} to {high:g} (mm), like [85, 56], not {value!r}")
        return (float(value[0]), float(value[1]))

    def pair(self, key: str, low: int, default: Any = ...) -> tuple[int, int]:
        value = self.raw(key, default)
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) or v < low for v in value)
        ):
            raise RigError(f"{self.where(key)} must be two whole numbers of at least {low}, like [16, 16], not {value!r}")
        return (value[0], value[1])

    def tables(self, key: str) -> list[_Table]:
        value = self.raw(key, [])
        if not isinstance(value, list) or not value:
            raise RigError(f"{self.where(key)} must be a non-empty list of tables ([[{self.where(key)}]])")
        return [_Table(item, f"{self.where(key)}[{index}]") for index, item in enumerate(value)]

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise RigError(f"unknown key {self.where(unknown[0])}")


def _build_rig(root: _Table, source: str) -> Rig:
    leds = _Table(root.raw("leds"), "leds")
    channels = leds.tables("channel")
    led_pins = tuple(channel.int("pin", 0, 27) for channel in channels)
    for channel in channels:
        channel.done()
    settings = dict(
        backend=leds.choice("backend", BACKENDS, "auto"),
        colour_order=leds.choice("colour_order", COLOUR_ORDERS, "GRB"),
        gamma=leds.number("gamma", 1.0, 4.0, 2.8),
        max_brightness=leds.number("max_brightness", 0.01, 1.0, 0.5),
        milliamps_per_channel=leds.number("milliamps_per_channel", 1.0, 100.0, 20.0),
        idle_milliamps=leds.number("idle_milliamps", 0.0, 10.0, 1.0),
    )
    leds.done()

    power = _Table(root.raw("power"), "power")
    budget_amps = power.number("budget_amps", 0.1, 1000.0)
    power.done()

    panels = tuple(_build_panel(table, len(led_pins)) for table in root.tables("panel"))
    _check_panels(panels, len(led_pins))

    buttons = _Table(root.raw("buttons"), "buttons")
    host_pin = buttons.int("host", 0, 27)
    debounce_ms = buttons.int("debounce_ms", 1, 200, 30)
    hold_ms = buttons.int("hold_ms", debounce_ms + 1, 10_000, 1000)
    long_press = buttons.raw("long_press", ["BACK", HOST])
    if not isinstance(long_press, list) or any(name not in BUTTON_NAMES for name in long_press):
        raise RigError(f"buttons.long_press must list button names from {', '.join(BUTTON_NAMES)}, not {long_press!r}")
    buttons.done()

    seats = tuple(_build_seat(table) for table in root.tables("seat"))
    given = "build" in root.data
    build = _build_build(_Table(root.raw("build", {}), "build"), len(seats), given)
    root.done()

    rig = Rig(
        panels=panels,
        led_pins=led_pins,
        budget_amps=budget_amps,
        seats=seats,
        host_pin=host_pin,
        debounce_s=debounce_ms / 1000,
        hold_s=hold_ms / 1000,
        long_press=frozenset(long_press),
        source=source,
        build=build,
        **settings,
    )
    _check_seats(rig)
    _check_pins(rig)
    _check_power(rig)
    if given:
        from hardware.construction.plan import plan_table  # the geometry of the build section; stdlib only

        plan_table(rig)
    return rig


def _build_build(table: _Table, seat_count: int, given: bool) -> Build:
    """The ``[build]`` section's sizes; the geometry (overlaps, webs, the plate) is checked by the plan."""
    number = table.number
    hole = number("button_hole_mm", 10.0, 100.0, Build.button_hole_mm)
    seat_tables = table.raw("seat", [])
    if seat_tables and (not isinstance(seat_tables, list) or len(seat_tables) != seat_count):
        raise RigError(f"build.seat must list one table per seat ({seat_count}), in seat order, not {seat_tables!r}")
    buttons = []
    for index in range(seat_count):
        layout = default_buttons(hole)
        if seat_tables:
            seat = _Table(seat_tables[index], f"build.seat[{index}]")
            layout = {name: seat.lengths(name, -2000.0, 2000.0, layout[name]) for name in SEAT_BUTTONS}
            seat.done()
        buttons.append(layout)
    build = Build(
        led_pitch_mm=number("led_pitch_mm", 2.0, 100.0, Build.led_pitch_mm),
        module_border_mm=number("module_border_mm", 0.0, 50.0, Build.module_border_mm),
        module_gap_mm=number("module_gap_mm", 0.0, 100.0, Build.module_gap_mm),
        panel_gap_mm=number("panel_gap_mm", 0.0, 500.0, Build.panel_gap_mm),
        border_mm=number("border_mm", 5.0, 500.0, Build.border_mm),
        plate_size_mm=table.lengths("plate_size_mm", 50.0, 5000.0, None) if "plate_size_mm" in table.data else None,
        plate_mm=number("plate_mm", 1.0, 30.0, Build.plate_mm),
        diffuser_mm=number("diffuser_mm", 0.0, 10.0, Build.diffuser_mm),
        grid_height_mm=number("grid_height_mm", 2.0, 50.0, Build.grid_height_mm),
        grid_wall_mm=number("grid_wall_mm", 0.4, 5.0, Build.grid_wall_mm),
        smd_clearance_mm=number("smd_clearance_mm", 0.0, 5.0, Build.smd_clearance_mm),
        cable_slot_mm=table.lengths("cable_slot_mm", 0.0, 50.0, Build.cable_slot_mm),
        button_hole_mm=hole,
        mount_hole_mm=number("mount_hole_mm", 1.0, 10.0, Build.mount_hole_mm),
        min_web_mm=number("min_web_mm", 1.0, 100.0, Build.min_web_mm),
        frame_height_mm=number("frame_height_mm", 20.0, 500.0, Build.frame_height_mm),
        buttons=tuple(buttons),
        host=table.lengths("host", -2000.0, 2000.0, default_host(hole)),
        pi=_build_footprint(table, "pi", Build.pi),
        supply=_build_footprint(table, "supply", Build.supply),
        given=given,
        keys=frozenset(table.data),
    )
    table.done()
    if build.grid_wall_mm >= build.led_pitch_mm / 2:
        raise RigError(f"build.grid_wall_mm ({build.grid_wall_mm:g}) must be under half of build.led_pitch_mm ({build.led_pitch_mm:g})")
    if build.smd_clearance_mm + build.cable_slot_mm[1] >= build.grid_height_mm:
        raise RigError(f"build.grid_height_mm ({build.grid_height_mm:g}) must exceed build.smd_clearance_mm and the cable slot's height")
    return build


def _build_footprint(parent: _Table, key: str, default: Footprint) -> Footprint:
    table = _Table(parent.raw(key, {}), parent.where(key))
    footprint = Footprint(
        size=table.lengths("size", 10.0, 2000.0, default.size),
        position=table.lengths("position", -5000.0, 5000.0, None) if "position" in table.data else None,
    )
    table.done()
    return footprint


def _build_panel(table: _Table, channel_count: int) -> Panel:
    name = table.raw("name")
    if not isinstance(name, str) or not name.isidentifier():
        raise RigError(f"{table.where('name')} must be a name like \"centre\", not {name!r}")
    size = table.pair("size", 1)
    modules = tuple(_build_module(module, channel_count) for module in table.tables("module"))
    panel = Panel(
        name=name,
        size=size,
        position=table.pair("position", 0),
        facing=table.choice("facing", QUARTER_TURNS, 0),
        modules=modules,
    )
    table.done()
    _check_modules_cover(panel, table.path)
    return panel


def _build_module(table: _Table, channel_count: int) -> Module:
    module = Module(
        offset=table.pair("offset", 0, [0, 0]),
        size=table.pair("size", 1),
        wiring=table.choice("wiring", WIRINGS, "serpentine"),
        rotation=table.choice("rotation", QUARTER_TURNS, 0),
        mirror=table.choice("mirror", (False, True), False),
        channel=table.int("channel", 0, channel_count - 1, 0),
        chain=table.int("chain", 0, 255, 0),
    )
    table.done()
    return module


def _check_modules_cover(panel: Panel, where: str) -> None:
    """Every LED of a panel belongs to exactly one module, and no module sticks out."""
    owner: dict[tuple[int, int], int] = {}
    for index, module in enumerate(panel.modules):
        (ox, oy), (w, h) = module.offset, module.size
        if ox + w > panel.width or oy + h > panel.height:
            raise RigError(f"{where}.module[{index}] ({w}x{h} at {ox},{oy}) sticks out of the {panel.width}x{panel.height} panel {panel.name!r}")
        for y in range(oy, oy + h):
            for x in range(ox, ox + w):
                if (x, y) in owner:
                    raise RigError(f"{where}.module[{owner[x, y]}] and module[{index}] of panel {panel.name!r} overlap at ({x}, {y})")
                owner[x, y] = index
    if len(owner) != panel.width * panel.height:
        gap = next((x, y) for y in range(panel.height) for x in range(panel.width) if (x, y) not in owner)
        raise RigError(f"{where}: no module covers ({gap[0]}, {gap[1]}) of panel {panel.name!r}")


def _check_panels(panels: tuple[Panel, ...], channel_count: int) -> None:
    """Unique names, no two panels on the same table spot, and gapless chains on every channel."""
    names = [panel.name for panel in panels]
    for name in names:
        if names.count(name) > 1:
            raise RigError(f"two panels are named {name!r}")
    for i, first in enumerate(panels):
        for second in panels[i + 1 :]:
            if _rectangles_overlap(first, second):
                raise RigError(
                    f"panels {first.name!r} (at {first.position[0]},{first.position[1]}) and "
                    f"{second.name!r} (at {second.position[0]},{second.position[1]}) overlap on the table"
                )
    for channel in range(channel_count):
        chain = sorted(
            (module.chain, panel.name) for panel in panels for module in panel.modules if module.channel == channel
        )
        if not chain:
            raise RigError(f"LED channel {channel} has no module on it")
        positions = [position for position, _ in chain]
        if positions != list(range(len(positions))):
            raise RigError(
                f"the modules on LED channel {channel} must have chain positions 0 to {len(positions) - 1}, "
                f"each once; they have {positions}"
            )


def _rectangles_overlap(first: Panel, second: Panel) -> bool:
    (ax, ay), (aw, ah) = first.position, first.footprint
    (bx, by), (bw, bh) = second.position, second.footprint
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def _build_seat(table: _Table) -> Seat:
    panel = table.raw("panel")
    if not isinstance(panel, str):
        raise RigError(f"{table.where('panel')} must name a panel, not {panel!r}")
    pins = {name: table.int(name, 0, 27) for name in SEAT_BUTTONS}
    table.done()
    return Seat(panel=panel, pins=pins)


def _check_seats(rig: Rig) -> None:
    if len(rig.seats) > 4:
        raise RigError(f"a rig has at most 4 seats, not {len(rig.seats)}")
    names = {panel.name for panel in rig.panels}
    seen: set[str] = set()
    for index, seat in enumerate(rig.seats):
        if seat.panel not in names:
            raise RigError(f"seat[{index}].panel names {seat.panel!r}, which is not a panel of this rig")
        if seat.panel in seen:
            raise RigError(f"seat[{index}] uses panel {seat.panel!r}, which another seat already uses")
        seen.add(seat.panel)


def _describe_button(seat: Optional[int], name: str) -> str:
    return "the HOST button" if seat is None else f"seat {seat} button {name}"


def _check_pins(rig: Rig) -> None:
    """No pin used twice, no button on a pin that carries (or may carry) LED data."""
    users: dict[int, str] = {}
    for channel, pin in enumerate(rig.led_pins):
        if pin not in GPIO_PINS:
            raise RigError(f"LED channel {channel} is on GPIO{pin}, which is not a usable header pin (2 to 27)")
        if pin in users:
            raise RigError(f"GPIO{pin} is used twice: by {users[pin]} and by LED channel {channel}")
        users[pin] = f"LED channel {channel}"
    for (seat, name), pin in rig.button_pins().items():
        who = _describe_button(seat, name)
        if pin not in GPIO_PINS:
            raise RigError(f"{who} is on GPIO{pin}, which is not a usable header pin (2 to 27)")
        if pin in rig.led_pins:
            raise RigError(f"{who} is on GPIO{pin}, an LED data pin")
        if pin in LED_CAPABLE_PINS:
            raise RigError(f"{who} is on GPIO{pin}, which is kept free for LED data ({LED_CAPABLE_PINS[pin]})")
        if 10 in rig.led_pins and pin in SPI_BUS_PINS:
            raise RigError(f"{who} is on GPIO{pin}, which the SPI bus claims when LED data goes out on GPIO10")
        if pin in users:
            raise RigError(f"GPIO{pin} is used twice: by {users[pin]} and by {who}")
        users[pin] = who


def _check_power(rig: Rig) -> None:
    idle_amps = rig.led_count * rig.idle_milliamps / 1000
    if idle_amps >= rig.budget_amps:
        raise RigError(
            f"power.budget_amps is {rig.budget_amps:g} A but {rig.led_count} LEDs draw "
            f"{idle_amps:g} A even when dark; raise the budget"
        )

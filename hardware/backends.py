"""LED hardware backends, and choosing between them and the simulator.

Each backend imports its library inside its constructor, after checking that
the board can run it: on a PC, merely constructing ``rpi_ws281x.PixelStrip``
makes the interpreter segfault at exit, and Blinka's ``neopixel`` raises on
import. The choice comes from the rig file's ``leds.backend`` unless the
``AZUL_LED_BACKEND`` environment variable names another.
"""
from __future__ import annotations

import array
import importlib
import os
import sys
import types
from pathlib import Path
from typing import Mapping, Optional

from hardware.board import BACKEND_LIBRARIES, DEVICE_TREE, PIO_DEVICE, Machine, auto_backend
from hardware.frame import Frame
from hardware.rig import BACKENDS, Rig, RigError

BACKEND_VARIABLE = "AZUL_LED_BACKEND"
"""Environment variable that overrides the rig file's ``leds.backend``."""
HARDWARE_BACKENDS = ("rpi_ws281x", "pi5", "blinka")

WS281X_PWM_PINS = ({12, 18}, {13, 19})
"""rpi_ws281x: the pins of PWM channel 0 and PWM channel 1."""
WS281X_SINGLE_PINS = {10: "SPI", 21: "PCM"}
"""rpi_ws281x: other modes, one chain only."""
PI5_MAX_BYTES = 65535
"""The Pi 5 PIO driver refuses larger writes ("Too much data")."""


class BackendUnavailable(RuntimeError):
    """The chosen LED backend cannot run on this machine; the message says why and what to do."""


def board_model() -> Optional[str]:
    """This machine's Raspberry Pi model string from the device tree, or None on a machine without one."""
    return Machine().model()


def resolve_backend(rig: Rig, environ: Mapping[str, str] = os.environ, model: Optional[str] = ...) -> str:
    """The backend to use: the environment variable, else the rig file; ``auto`` decided by the board.

    ``auto`` picks ``pi5`` on a Raspberry Pi 5, ``rpi_ws281x`` on an older Pi and
    ``simulator`` anywhere else. ``model`` defaults to :func:`board_model`.
    """
    name = environ.get(BACKEND_VARIABLE) or rig.backend
    if name not in BACKENDS:
        raise ValueError(f"{BACKEND_VARIABLE}={name!r} is not an LED backend; use one of {', '.join(BACKENDS)}")
    if name != "auto":
        return name
    return auto_backend(board_model() if model is ... else model)


def open_led_sink(rig: Rig, backend: str, model: Optional[str] = ...):
    """The hardware sink for ``backend`` (one of :data:`HARDWARE_BACKENDS`), ready to write frames.

    :raises BackendUnavailable: the board or its libraries cannot run that backend here.
    :raises RigError: the rig's data pins do not suit that backend.
    """
    model = board_model() if model is ... else model
    sinks = {"rpi_ws281x": Ws281xSink, "pi5": Pi5PioSink, "blinka": BlinkaSink}
    if backend not in sinks:
        raise ValueError(f"{backend!r} is not an LED hardware backend; use one of {', '.join(sinks)}")
    return sinks[backend](rig, model)


BOARDS = {"rpi_ws281x": ("Raspberry Pi", "Raspberry Pi 5"), "pi5": ("Raspberry Pi 5", None), "blinka": ("Raspberry Pi", None)}
"""Per hardware backend: the model names it needs, and one it refuses."""


def require_board(backend: str, model: Optional[str]) -> None:
    """Raise :class:`BackendUnavailable` unless the board ``model`` can run ``backend``."""
    wanted, refused = BOARDS[backend]
    machine = model or f"a machine without a Raspberry Pi device tree ({sys.platform}, no {DEVICE_TREE / 'model'})"
    if model is None or not model.startswith(wanted) or (refused and model.startswith(refused)):
        raise BackendUnavailable(
            f"LED backend {backend!r} needs a {wanted}{' other than a ' + refused if refused else ''}; "
            f"this is {machine}. Set {BACKEND_VARIABLE}=simulator (or auto) to run without LED hardware."
        )


def data_pin_problem(rig: Rig, backend: str) -> Optional[str]:
    """Why ``backend`` cannot drive the rig's LED data pins and chains, or None when it can."""
    pins, counts = rig.led_pins, rig.channel_led_counts()
    if backend == "rpi_ws281x":
        if len(pins) == 1 and pins[0] in WS281X_SINGLE_PINS:
            return None
        if len(pins) <= 2 and all(pin in WS281X_PWM_PINS[index] for index, pin in enumerate(pins)):
            return None
        return (
            f"rpi_ws281x cannot drive LED data pins {list(pins)}: use PWM (channel 0 on GPIO18 or 12, "
            "channel 1 on GPIO13 or 19), or a single chain on GPIO10 (SPI) or GPIO21 (PCM)"
        )
    if backend == "pi5":
        for pin, count in zip(pins, counts):
            if 3 * count > PI5_MAX_BYTES:
                return f"the chain on GPIO{pin} has {count} LEDs; the Pi 5 driver sends at most {PI5_MAX_BYTES // 3}"
    if backend == "blinka" and len(pins) != 1:
        return f"the blinka backend drives one LED chain; this rig has {len(pins)} (pins {list(pins)})"
    return None


def needs_root(rig: Rig, backend: str) -> bool:
    """rpi_ws281x drives PWM and PCM through /dev/mem, which only root may open; SPI on GPIO10 does not need it."""
    return backend == "rpi_ws281x" and tuple(rig.led_pins) != (10,)


def _check_data_pins(rig: Rig, backend: str) -> None:
    problem = data_pin_problem(rig, backend)
    if problem:
        raise RigError(problem)


def _import(backend: str, module: str, package: str) -> types.ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise BackendUnavailable(
            f"LED backend {backend!r} needs the Python module {module!r} ({error}); "
            f"install it with: pip install '{package}' (or the project's [pi] extra)"
        ) from error


def _packed_colours(wire: bytes) -> array.array:
    """Wire bytes b0 b1 b2 per LED as ints 0x00b0b1b2, the form rpi_ws281x sends as-is with an RGB strip type."""
    padded = bytearray(4 * (len(wire) // 3))
    padded[1::4], padded[2::4], padded[3::4] = wire[0::3], wire[1::3], wire[2::3]
    colours = array.array("I", bytes(padded))
    if sys.byteorder == "little":
        colours.byteswap()
    return colours


class Ws281xSink:
    """Raspberry Pi 3/4 through rpi_ws281x: PWM (one or two chains), SPI on GPIO10 or PCM on GPIO21.

    Uses the library's low-level module so both PWM channels share one DMA
    transfer. Gamma and brightness are already applied, so the library gets an
    identity gamma and full brightness, and an RGB strip type so our wire bytes
    go out unchanged.
    """

    DMA_CHANNEL = 10
    FREQUENCY_HZ = 800_000

    def __init__(self, rig: Rig, model: Optional[str]):
        require_board("rpi_ws281x", model)
        _check_data_pins(rig, "rpi_ws281x")
        ws = _import("rpi_ws281x", *BACKEND_LIBRARIES["rpi_ws281x"][0])
        self._ws = ws
        self._leds = ws.new_ws2811_t()
        self._channels = []
        for index in range(2):
            channel = ws.ws2811_channel_get(self._leds, index)
            count = rig.channel_led_counts()[index] if index < len(rig.led_pins) else 0
            ws.ws2811_channel_t_count_set(channel, count)
            ws.ws2811_channel_t_gpionum_set(channel, rig.led_pins[index] if count else 0)
            ws.ws2811_channel_t_invert_set(channel, 0)
            ws.ws2811_channel_t_brightness_set(channel, 255 if count else 0)
            ws.ws2811_channel_t_strip_type_set(channel, ws.WS2811_STRIP_RGB)
            if count:
                self._channels.append(channel)
        ws.ws2811_t_freq_set(self._leds, self.FREQUENCY_HZ)
        ws.ws2811_t_dmanum_set(self._leds, self.DMA_CHANNEL)
        result = ws.ws2811_init(self._leds)
        if result != ws.WS2811_SUCCESS:
            ws.delete_ws2811_t(self._leds)
            self._leds = None
            hint = " (PWM and PCM need root; SPI on GPIO10 needs the gpio group)" if result == -5 else ""
            raise BackendUnavailable(f"rpi_ws281x could not start: {ws.ws2811_get_return_t_str(result)} (code {result}){hint}")

    def write(self, frame: Frame) -> None:
        ws = self._ws
        for channel, wire in zip(self._channels, frame.channels):
            for index, colour in enumerate(_packed_colours(wire)):
                ws.ws2811_led_set(channel, index, colour)
        result = ws.ws2811_render(self._leds)
        if result != ws.WS2811_SUCCESS:
            raise RuntimeError(f"rpi_ws281x could not send a frame: {ws.ws2811_get_return_t_str(result)} (code {result})")

    def close(self) -> None:
        """Darken the chains and release the DMA channel; safe to call twice."""
        if self._leds is not None:
            self.write(Frame(0, tuple(bytes(3 * self._ws.ws2811_channel_t_count_get(c)) for c in self._channels), 0.0, 1.0))
            self._ws.ws2811_fini(self._leds)
            self._ws.delete_ws2811_t(self._leds)
            self._leds = None


class Pi5PioSink:
    """Raspberry Pi 5 through the RP1 PIO (``adafruit-blinka-raspberry-pi5-neopixel``, GPL-2.0).

    Any GPIO can carry data; several chains are written one after the other.
    Needs ``/dev/pio0`` readable by the service user (see docs/rig.md).
    """

    DEVICE = Path(PIO_DEVICE)

    def __init__(self, rig: Rig, model: Optional[str]):
        require_board("pi5", model)
        _check_data_pins(rig, "pi5")
        if not self.DEVICE.exists():
            raise BackendUnavailable(f"LED backend 'pi5' needs {self.DEVICE}; update the Pi's firmware and kernel")
        self._driver = _import("pi5", *BACKEND_LIBRARIES["pi5"][0])
        self._pins = [types.SimpleNamespace(id=pin) for pin in rig.led_pins]
        self._counts = rig.channel_led_counts()
        self._open = True

    def write(self, frame: Frame) -> None:
        for pin, wire in zip(self._pins, frame.channels):
            self._driver.neopixel_write(pin, wire)

    def close(self) -> None:
        """Darken the chains and free the PIO state machine; safe to call twice."""
        if self._open:
            self.write(Frame(0, tuple(bytes(3 * count) for count in self._counts), 0.0, 1.0))
            self._driver.free_pio()
            self._open = False


class BlinkaSink:
    """Adafruit NeoPixel through Blinka: the known-good fallback, one chain only.

    Blinka's Raspberry Pi NeoPixel support drives a single strip (on a Pi 3/4
    it is rpi_ws281x underneath), so the rig must have one data pin.
    """

    def __init__(self, rig: Rig, model: Optional[str]):
        require_board("blinka", model)
        _check_data_pins(rig, "blinka")
        # Blinka offers to pip install what it misses when run on a terminal; the [blinka] extra
        # installs all of it, and a table must never stop at a prompt.
        os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")
        board = _import("blinka", *BACKEND_LIBRARIES["blinka"][0])
        try:
            neopixel = importlib.import_module("neopixel")
        except ImportError as error:
            raise BackendUnavailable(f"LED backend 'blinka' needs 'neopixel' ({error}); pip install adafruit-circuitpython-neopixel") from error
        except NotImplementedError as error:
            raise BackendUnavailable(f"Blinka does not support this board for NeoPixels: {error}") from error
        pin_name = f"D{rig.led_pins[0]}"
        if not hasattr(board, pin_name):
            raise BackendUnavailable(f"Blinka's board module has no pin {pin_name} on this board")
        self._strip = neopixel.NeoPixel(
            getattr(board, pin_name),
            rig.channel_led_counts()[0],
            bpp=3,
            brightness=1.0,
            auto_write=False,
            pixel_order=neopixel.RGB,
        )

    def write(self, frame: Frame) -> None:
        wire = frame.channels[0]
        self._strip[:] = list(zip(wire[0::3], wire[1::3], wire[2::3]))
        self._strip.show()

    def close(self) -> None:
        if self._strip is not None:
            self._strip.fill((0, 0, 0))
            self._strip.show()
            self._strip.deinit()
            self._strip = None

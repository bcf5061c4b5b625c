"""Our LED backends through the real Pi libraries' own code, with only their hardware-touching layer replaced.

Each case runs tests/hardware/on_a_forced_pi.py in a process of its own (see
its docstring for exactly what is replaced) and checks what would reach the
wire: the bytes per LED, the channel and strip-type settings, the library's
brightness left at full (ours is already applied), and closing.
"""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.board import Machine

SCRIPT = Path(__file__).with_name("on_a_forced_pi.py")
WS2811_STRIP_RGB = 0x00100800
"""rpi_ws281x's strip type that sends a colour's bytes in the order given: our wire order."""


def needs(*modules):
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    return pytest.mark.skipif(bool(missing), reason=f"not installed here: {', '.join(missing)} (the dev extra installs them)")


on_a_real_pi = pytest.mark.skipif(Machine().is_pi(), reason="on a real Pi this would drive the real LED hardware")


def run(scenario):
    result = subprocess.run([sys.executable, str(SCRIPT), scenario], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr[-2000:]}"
    return json.loads(result.stdout)


def packed(wire_hex, channel=0):
    """The rpi_ws281x colour words our wire bytes should become: 0x00b0b1b2 for every lit LED."""
    wire = bytes.fromhex(wire_hex)
    return {f"{channel}:{index // 3}": int.from_bytes(wire[index:index + 3], "big")
            for index in range(0, len(wire), 3) if any(wire[index:index + 3])}


@needs("_rpi_ws281x")
def test_rpi_ws281x_gets_both_channels_in_one_controller_and_our_bytes_unchanged():
    seen = run("ws281x")
    assert seen["calls"] == ["init", "render", "render", "fini"]
    assert seen["controller"] == {"freq": 800_000, "dma": 10}
    assert seen["channels"] == [
        {"gpionum": 18, "count": 1024, "invert": 0, "brightness": 255, "strip_type": WS2811_STRIP_RGB},
        {"gpionum": 13, "count": 512, "invert": 0, "brightness": 255, "strip_type": WS2811_STRIP_RGB},
    ]
    lit, dark = seen["frames"]
    assert lit == packed(seen["wire"][0]) | packed(seen["wire"][1], channel=1)
    assert len(lit) == 3 and lit["0:240"] == 0x094000  # GRB: green 128 and red 255 at a quarter of full level
    assert dark == {}  # closing darkens every LED before releasing the controller


@on_a_real_pi
@needs("_rpi_ws281x")
def test_the_real_rpi_ws281x_refuses_a_pc_and_we_say_so_without_crashing():
    seen = run("ws281x-real-init")
    assert seen == {"calls": [], "error": "BackendUnavailable: rpi_ws281x could not start: Hardware revision is not supported (code -3)"}


@needs("_rpi_ws281x", "board", "neopixel", "gpiod")
def test_blinka_on_a_pi_4_passes_our_bytes_to_rpi_ws281x():
    seen = run("blinka-pi4")
    assert seen["calls"] == ["request GPIO18 for adafruit_blinka", "init", "render", "render", "render", "release GPIO"]
    assert seen["channels"][0] == {"gpionum": 18, "count": 8, "invert": 0, "brightness": 255, "strip_type": WS2811_STRIP_RGB}
    assert seen["channels"][1]["count"] == 0
    lit, *closing = seen["frames"]
    assert lit == packed(seen["wire"][0]) and len(lit) == 2  # no reordering, no second brightness
    assert closing == [{}, {}]


@needs("board", "neopixel", "gpiod")
def test_blinka_on_a_pi_5_passes_our_bytes_to_the_pio_driver():
    seen = run("blinka-pi5")
    wire = seen["wire"][0]
    assert seen["writes"] == [[18, wire], [18, "00" * 24], [18, "00" * 24]]
    assert seen["calls"][0] == "request GPIO18 for adafruit_blinka" and seen["calls"][-1] == "release GPIO"


def test_pi5_writes_each_chain_to_its_pin_and_frees_the_pio():
    seen = run("pi5")
    assert seen["writes"] == [[18, seen["wire"][0]], [13, seen["wire"][1]], [18, "00" * 3 * 1024], [13, "00" * 3 * 512]]
    assert seen["calls"][-1] == "free_pio"


@on_a_real_pi
@needs("adafruit_raspberry_pi5_neopixel_write")
def test_the_real_pi5_driver_takes_our_pins_and_bytes_and_stops_only_at_the_missing_pio():
    assert run("pi5-driver") == {"calls": [], "error": "RuntimeError: Failed to open PIO device (error -22)"}

"""Backend choice and the hardware backends' guards, on a PC: no hardware library is loaded here.

How the backends drive the real libraries is in test_real_libraries.py.
"""
import sys

import pytest

from hardware import BACKEND_VARIABLE, BackendUnavailable, RigError, open_hardware, parse_rig, resolve_backend
from hardware.backends import BlinkaSink, Pi5PioSink, Ws281xSink, open_led_sink
from hardware.board import Machine
from hardware.rig import REFERENCE_RIG

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
HARDWARE_MODULES = ("_rpi_ws281x", "adafruit_raspberry_pi5_neopixel_write", "board", "neopixel")


@pytest.fixture(autouse=True)
def no_hardware_libraries(monkeypatch):
    """Make every LED library unimportable unless a test installs a stand-in."""
    for name in HARDWARE_MODULES:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delenv(BACKEND_VARIABLE, raising=False)


def rig_with(old, new):
    text = REFERENCE_RIG.read_text()
    assert old in text
    return parse_rig(text.replace(old, new))


@pytest.mark.parametrize(
    "model, expected",
    [(None, "simulator"), ("Generic x86 board", "simulator"), (PI4, "rpi_ws281x"), ("Raspberry Pi 3 Model B Plus Rev 1.3", "rpi_ws281x"), (PI5, "pi5")],
)
def test_auto_picks_by_board(rig, model, expected):
    assert resolve_backend(rig, {}, model=model) == expected


def test_environment_variable_overrides_the_rig_file(rig):
    assert resolve_backend(rig, {BACKEND_VARIABLE: "blinka"}, model=None) == "blinka"
    pinned = rig_with('backend = "auto"', 'backend = "simulator"')
    assert resolve_backend(pinned, {}, model=PI5) == "simulator"
    assert resolve_backend(pinned, {BACKEND_VARIABLE: "pi5"}, model=None) == "pi5"


def test_unknown_backend_in_the_environment(rig):
    with pytest.raises(ValueError, match=f"{BACKEND_VARIABLE}='ws2812' is not an LED backend"):
        resolve_backend(rig, {BACKEND_VARIABLE: "ws2812"})


def test_the_model_comes_from_the_device_tree(tmp_path):
    machine = Machine(device_tree=tmp_path)
    assert machine.model() is None and not machine.is_pi()
    (tmp_path / "model").write_bytes(PI5.encode() + b"\0")
    assert machine.model() == PI5 and machine.is_pi()
    assert Machine(root=tmp_path).model() is None


@pytest.mark.parametrize("backend", ["rpi_ws281x", "pi5", "blinka"])
def test_hardware_backends_refuse_a_pc(rig, backend):
    with pytest.raises(BackendUnavailable, match=f"'{backend}' needs a Raspberry Pi.*{BACKEND_VARIABLE}=simulator"):
        open_led_sink(rig, backend, model=None)


def test_open_hardware_names_the_problem_on_a_pc(rig, monkeypatch):
    monkeypatch.setattr("hardware.backends.board_model", lambda: None)
    with pytest.raises(BackendUnavailable, match="'rpi_ws281x' needs a Raspberry Pi"):
        open_hardware(rig, backend="rpi_ws281x")
    monkeypatch.setenv(BACKEND_VARIABLE, "pi5")
    with pytest.raises(BackendUnavailable, match="'pi5' needs a Raspberry Pi 5"):
        open_hardware(rig)


def test_rpi_ws281x_refuses_a_pi_5(rig):
    with pytest.raises(BackendUnavailable, match="other than a Raspberry Pi 5"):
        open_led_sink(rig, "rpi_ws281x", model=PI5)


def test_missing_library_says_what_to_install(rig):
    with pytest.raises(BackendUnavailable, match="needs the Python module '_rpi_ws281x'.*pip install 'rpi-ws281x"):
        open_led_sink(rig, "rpi_ws281x", model=PI4)


@pytest.mark.parametrize("pins", [(13, 18), (18, 12), (10, 13), (12, 18)])
def test_rpi_ws281x_pin_rules(pins):
    text = REFERENCE_RIG.read_text().replace("pin = 18", "pin = FIRST").replace("pin = 13", "pin = SECOND")
    text = text.replace("FIRST", str(pins[0])).replace("SECOND", str(pins[1]))
    text = text.replace("PREV = 7\nNEXT = 8\nOK = 9\nBACK = 11", "PREV = 2\nNEXT = 3\nOK = 14\nBACK = 15")
    with pytest.raises(RigError, match=rf"rpi_ws281x cannot drive LED data pins \[{pins[0]}, {pins[1]}\]"):
        Ws281xSink(parse_rig(text), PI4)


def test_pi5_needs_the_pio_device(rig, monkeypatch, tmp_path):
    monkeypatch.setattr(Pi5PioSink, "DEVICE", tmp_path / "pio0")
    with pytest.raises(BackendUnavailable, match="needs .*pio0"):
        open_led_sink(rig, "pi5", model=PI5)


def test_blinka_drives_one_chain_only(rig):
    with pytest.raises(RigError, match="the blinka backend drives one LED chain; this rig has 2"):
        BlinkaSink(rig, PI4)

"""Backend choice and the hardware backends' guards, on a PC: no hardware library is ever really loaded.

Where a backend's frame writing is checked, a recording stand-in module is put
in ``sys.modules`` under the library's name, so our code runs and the native
library (which segfaults at exit on a PC) never does.
"""
import sys
import types

import pytest

from hardware import BACKEND_VARIABLE, BackendUnavailable, FrameBuffer, Layout, RigError, open_hardware, parse_rig, resolve_backend
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


class FakeWs281x(types.ModuleType):
    """Records what the rpi_ws281x backend asks of the library's low-level module."""

    WS2811_SUCCESS = 0
    WS2811_STRIP_RGB = 0x00100800

    def __init__(self, init_result=0):
        super().__init__("_rpi_ws281x")
        self.init_result = init_result
        self.channels = [dict(leds={}), dict(leds={})]
        self.renders = 0
        self.deleted = self.finished = False

    def new_ws2811_t(self):
        return "struct"

    def ws2811_channel_get(self, leds, index):
        return index

    def __getattr__(self, name):
        prefix = "ws2811_channel_t_"
        if name.startswith(prefix) and name.endswith("_set"):
            field = name[len(prefix) : -len("_set")]
            return lambda channel, value: self.channels[channel].__setitem__(field, value)
        if name.startswith(prefix) and name.endswith("_get"):
            field = name[len(prefix) : -len("_get")]
            return lambda channel: self.channels[channel][field]
        if name in ("ws2811_t_freq_set", "ws2811_t_dmanum_set"):
            return lambda leds, value: setattr(self, name, value)
        raise AttributeError(name)

    def ws2811_init(self, leds):
        return self.init_result

    def ws2811_get_return_t_str(self, code):
        return "Hardware revision is not supported"

    def ws2811_led_set(self, channel, index, colour):
        self.channels[channel]["leds"][index] = colour

    def ws2811_render(self, leds):
        self.renders += 1
        return 0

    def ws2811_fini(self, leds):
        self.finished = True

    def delete_ws2811_t(self, leds):
        self.deleted = True


def test_rpi_ws281x_sends_our_wire_bytes_on_both_channels(rig, monkeypatch):
    fake = FakeWs281x()
    monkeypatch.setitem(sys.modules, "_rpi_ws281x", fake)
    sink = Ws281xSink(rig, PI4)
    assert [(c["count"], c["gpionum"], c["brightness"], c["strip_type"]) for c in fake.channels] == [
        (1024, 18, 255, fake.WS2811_STRIP_RGB),
        (512, 13, 255, fake.WS2811_STRIP_RGB),
    ]
    assert (fake.ws2811_t_dmanum_set, fake.ws2811_t_freq_set) == (10, 800_000)
    layout = Layout(rig)
    leds = FrameBuffer(layout, sink)
    leds["centre", 15, 15] = (255, 0, 0)  # wire index 0 of channel 0
    leds["seat3", 0, 0] = (0, 0, 255)  # wire index 256 of channel 1
    leds.show()
    assert fake.renders == 1
    assert fake.channels[0]["leds"][0] == 0x008000  # GRB: green byte first, then red 128, blue 0
    assert fake.channels[1]["leds"][256] == 0x000080
    assert len(fake.channels[0]["leds"]) == 1024 and len(fake.channels[1]["leds"]) == 512
    sink.close()
    assert fake.renders == 2 and not any(fake.channels[0]["leds"].values())
    assert fake.finished and fake.deleted
    sink.close()
    assert fake.renders == 2


def test_rpi_ws281x_init_failure_is_reported_and_cleaned_up(rig, monkeypatch):
    fake = FakeWs281x(init_result=-3)
    monkeypatch.setitem(sys.modules, "_rpi_ws281x", fake)
    with pytest.raises(BackendUnavailable, match=r"rpi_ws281x could not start: Hardware revision is not supported \(code -3\)"):
        Ws281xSink(rig, PI4)
    assert fake.deleted and not fake.finished


def test_pi5_needs_the_pio_device(rig, monkeypatch, tmp_path):
    monkeypatch.setattr(Pi5PioSink, "DEVICE", tmp_path / "pio0")
    with pytest.raises(BackendUnavailable, match="needs .*pio0"):
        open_led_sink(rig, "pi5", model=PI5)


def test_pi5_writes_each_chain_to_its_pin(rig, monkeypatch, tmp_path):
    (tmp_path / "pio0").touch()
    monkeypatch.setattr(Pi5PioSink, "DEVICE", tmp_path / "pio0")
    writes, freed = [], []
    driver = types.SimpleNamespace(neopixel_write=lambda pin, wire: writes.append((pin.id, bytes(wire))), free_pio=lambda: freed.append(True))
    monkeypatch.setitem(sys.modules, "adafruit_raspberry_pi5_neopixel_write", driver)
    sink = open_led_sink(rig, "pi5", model=PI5)
    frame = FrameBuffer(Layout(rig), sink).show()
    assert writes == [(18, frame.channels[0]), (13, frame.channels[1])]
    sink.close()
    assert freed == [True] and writes[-1] == (13, bytes(3 * 512))


def test_blinka_drives_one_chain_only(rig):
    with pytest.raises(RigError, match="the blinka backend drives one LED chain; this rig has 2"):
        BlinkaSink(rig, PI4)

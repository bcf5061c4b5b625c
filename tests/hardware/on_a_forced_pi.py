"""Runs one of our LED backends through the real Pi libraries on a PC, in a process of its own.

``python tests/hardware/on_a_forced_pi.py SCENARIO`` prints JSON of what reached
the lowest, hardware-touching layer, which is the only part replaced:

- the real ``_rpi_ws281x`` extension keeps its structures and accessors (the
  channel settings are read back through its own getters), but ``ws2811_init``,
  ``ws2811_led_set``, ``ws2811_render`` and ``ws2811_fini`` (which map the
  Pi's DMA and PWM registers, or write into buffers only ``init`` allocates)
  are recorded instead;
- Blinka and adafruit-circuitpython-neopixel run unchanged; the board
  detection is forced to a Pi (``BLINKA_FORCEBOARD``/``BLINKA_FORCECHIP`` and
  the revision code the detector reads from the device tree), and the GPIO
  chip that libgpiod would open is a recorder;
- ``adafruit_raspberry_pi5_neopixel_write`` is one native module that opens
  the PIO device at once, so its two functions are recorded (the ``pi5-driver``
  scenario calls the real one instead, to show it accepts our arguments).

A separate process because the native libraries cannot be unloaded and
Blinka detects the board once, at import; and because a mistake in how we
drive rpi_ws281x on a PC is a segfault, which the test sees as the exit code.
"""
import json
import os
import sys
import types
from pathlib import Path

SCENARIOS = ("ws281x", "ws281x-real-init", "blinka-pi4", "blinka-pi5", "pi5", "pi5-driver")
REVISIONS = {"RASPBERRY_PI_4B": ("c03114", "Raspberry Pi 4 Model B Rev 1.4"),
             "RASPBERRY_PI_5": ("d04170", "Raspberry Pi 5 Model B Rev 1.0")}
"""Blinka board id: the revision code the detector reads from the device tree, and our model string."""
record = {"calls": []}


def recorded_ws281x():
    """The real ``_rpi_ws281x`` with its hardware-touching functions recorded."""
    import _rpi_ws281x as real

    module = types.ModuleType("_rpi_ws281x")
    module.__dict__.update({name: getattr(real, name) for name in dir(real) if not name.startswith("__")})
    module.__spec__ = real.__spec__
    leds = {}

    def init(strip):
        record["calls"].append("init")
        record["controller"] = {"freq": real.ws2811_t_freq_get(strip), "dma": real.ws2811_t_dmanum_get(strip)}
        record["channels"] = []
        for index in range(2):
            channel = real.ws2811_channel_get(strip, index)
            record["channels"].append({
                field: getattr(real, f"ws2811_channel_t_{field}_get")(channel)
                for field in ("gpionum", "count", "invert", "brightness", "strip_type")
            })
        return real.WS2811_SUCCESS

    def led_set(channel, index, colour):
        leds[(channel_number(real, channel), index)] = colour
        return real.WS2811_SUCCESS

    def render(strip):
        record["calls"].append("render")
        record.setdefault("frames", []).append({f"{c}:{i}": colour for (c, i), colour in sorted(leds.items()) if colour})
        return real.WS2811_SUCCESS

    module.ws2811_init = init
    module.ws2811_led_set = led_set
    module.ws2811_render = render
    module.ws2811_fini = lambda strip: record["calls"].append("fini")
    return module


def channel_number(real, channel):
    """Which of the two channels a channel pointer is (by its GPIO, read through the real getter)."""
    pins = [entry["gpionum"] for entry in record["channels"]]
    gpio = real.ws2811_channel_t_gpionum_get(channel)
    return pins.index(gpio) if gpio and gpio in pins else 0


def force_blinka(board_id):
    """Make Blinka's detection see ``board_id`` and give libgpiod a recording GPIO chip."""
    revision, _ = REVISIONS[board_id]
    os.environ.update(BLINKA_FORCEBOARD=board_id, BLINKA_FORCECHIP="BCM2XXX")
    import adafruit_platformdetect.board

    adafruit_platformdetect.board.Board._pi_rev_code = lambda self: revision
    import gpiod
    from adafruit_blinka.microcontroller.generic_linux import raspberry_pi_pin

    label = "pinctrl-rp1" if board_id == "RASPBERRY_PI_5" else "pinctrl-bcm2711"

    class LineRequest:
        def set_value(self, line, value):
            pass

        def get_value(self, line):
            return 0

        def reconfigure_lines(self, config):
            pass

        def release(self):
            record["calls"].append("release GPIO")

    class Chip:
        def __init__(self, path):
            self.path = path

        def get_info(self):
            return types.SimpleNamespace(label=label, num_lines=54)

        def request_lines(self, config, consumer):
            record["calls"].append(f"request GPIO{','.join(map(str, config))} for {consumer}")
            return LineRequest()

        def close(self):
            pass

    gpiod.Chip = Chip
    raspberry_pi_pin._chip_paths = lambda: [Path("/dev/gpiochip0")]


def recorded_pi5_driver():
    module = types.ModuleType("adafruit_raspberry_pi5_neopixel_write")

    def neopixel_write(pin, buffer):
        gpio = pin._pin.id if hasattr(pin, "_pin") else pin.id
        record["calls"].append(f"neopixel_write GPIO{gpio}")
        record.setdefault("writes", []).append([gpio, bytes(buffer).hex()])

    module.neopixel_write = neopixel_write
    module.free_pio = lambda: record["calls"].append("free_pio")
    return module


ONE_CHAIN_RIG = """
[leds]
colour_order = "GRB"
[[leds.channel]]
pin = 18
[power]
budget_amps = 10.0
[buttons]
host = 4
[[panel]]
name = "seat0"
size = [4, 2]
position = [0, 0]
[[panel.module]]
offset = [0, 0]
size = [4, 2]
channel = 0
chain = 0
[[seat]]
panel = "seat0"
PREV = 5
NEXT = 6
OK = 16
BACK = 17
"""
"""A one-chain rig on GPIO18 (Blinka drives one chain): 8 LEDs, serpentine, GRB."""


def main(scenario):
    from hardware import FrameBuffer, Layout, load_rig, parse_rig
    from hardware.backends import BlinkaSink, Pi5PioSink, Ws281xSink

    rig = load_rig()
    if scenario in ("ws281x", "blinka-pi4"):
        sys.modules["_rpi_ws281x"] = recorded_ws281x()
    if scenario in ("pi5", "blinka-pi5"):
        sys.modules["adafruit_raspberry_pi5_neopixel_write"] = recorded_pi5_driver()
    if scenario.startswith("blinka"):
        board_id = "RASPBERRY_PI_5" if scenario == "blinka-pi5" else "RASPBERRY_PI_4B"
        force_blinka(board_id)
        rig, model = parse_rig(ONE_CHAIN_RIG), REVISIONS[board_id][1]
    elif scenario.startswith("pi5"):
        Pi5PioSink.DEVICE = Path(os.devnull)  # stands for /dev/pio0 being there
        model = REVISIONS["RASPBERRY_PI_5"][1]
    else:
        model = REVISIONS["RASPBERRY_PI_4B"][1]

    sink_class = {"ws281x": Ws281xSink, "blinka": BlinkaSink, "pi5": Pi5PioSink}[scenario.split("-")[0]]
    try:
        sink = sink_class(rig, model)
    except Exception as error:  # the scenario reports what the real library said
        record["error"] = f"{type(error).__name__}: {error}"
        return record
    leds = FrameBuffer(Layout(rig), sink, brightness=0.5)
    first = rig.panels[0].name
    leds[first, 0, 0] = (255, 128, 0)
    leds[first, 1, 0] = (0, 0, 255)
    leds[rig.panels[-1].name, 0, 0] = (0, 255, 0)
    try:
        frame = leds.show()
    except Exception as error:
        record["error"] = f"{type(error).__name__}: {error}"
        return record
    record["wire"] = [channel.hex() for channel in frame.channels]
    sink.close()
    return record


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
    sys.stdout.flush()

"""Fixtures for the hardware tests: the reference rig, rig variants from TOML text, a simulator on a manual clock."""
import pytest

from hardware import Layout, ManualClock, load_rig, parse_rig, simulate
from hardware.rig import REFERENCE_RIG


@pytest.fixture(scope="session")
def rig():
    return load_rig()


@pytest.fixture(scope="session")
def layout(rig):
    return Layout(rig)


@pytest.fixture
def reference_text():
    return REFERENCE_RIG.read_text()


@pytest.fixture
def sim():
    hw = simulate(clock=ManualClock())
    yield hw
    hw.close()


@pytest.fixture
def small_rig():
    return lambda modules, **options: parse_rig(_small_rig_text(modules, **options))


@pytest.fixture
def small_rig_text():
    return _small_rig_text


def _small_rig_text(modules, *, size=(4, 3), colour_order="RGB", pins="[[leds.channel]]\npin = 18\n"):
    """TOML of a one-panel rig (panel "p") around the given ``[[panel.module]]`` text."""
    return f"""
[leds]
colour_order = "{colour_order}"
max_brightness = 1.0
{pins}
[power]
budget_amps = 100.0
[buttons]
host = 4
[[panel]]
name = "p"
size = [{size[0]}, {size[1]}]
position = [0, 0]
{modules}
[[seat]]
panel = "p"
PREV = 5
NEXT = 6
OK = 16
BACK = 17
"""

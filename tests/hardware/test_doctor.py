"""The doctor's hardware checks on Pis described in a temporary directory: each problem named with its command."""
import importlib.util
import os

import pytest

from hardware import BACKEND_VARIABLE, check_hardware, parse_rig
from hardware.board import Machine
from hardware.rig import REFERENCE_RIG

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
ALL_PRESENT = {"_rpi_ws281x", "adafruit_raspberry_pi5_neopixel_write", "board", "neopixel", "gpiod", "lgpio", "gpiozero"}


def pi(tmp_path, model, *files, user="azul", groups=("gpio", "spi"), gpio_users=None):
    """A Machine rooted in tmp_path with ``model`` in its device tree and ``files`` present."""
    tree = tmp_path / "proc" / "device-tree"
    tree.mkdir(parents=True)
    (tree / "model").write_bytes(model.encode() + b"\0")
    for name in files:
        path = tmp_path / name.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    machine = Machine(root=tmp_path, user=user, groups=frozenset(groups))
    machine.gpio_users = lambda: {} if gpio_users is None else gpio_users
    return machine


@pytest.fixture
def libraries(monkeypatch):
    """Which modules the doctor finds; start with all the rig's libraries present."""
    present = set(ALL_PRESENT)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object() if name in present else real(name) if name == "gpiozero" else None)
    monkeypatch.delenv(BACKEND_VARIABLE, raising=False)
    return present


def lines(findings):
    return [str(finding) for finding in findings]


def failures(findings):
    return [str(finding) for finding in findings if not finding.ok]


def test_a_pc_runs_the_simulator(rig, tmp_path, libraries):
    found = lines(check_hardware(rig, Machine(root=tmp_path)))
    assert found[0] == "ok  board: no Raspberry Pi here (no device tree model); LED backend simulator (rig file: auto): LEDs and buttons simulated"
    assert found[1:] == [
        "ok  libraries: gpiozero installed",
        "ok  buttons: 17 buttons simulated (gpiozero mock pins)",
        "ok  power: 1536 LEDs: 1.5 A dark, 47.8 A all white at the cap; the limiter keeps frames under 10 A: use a 5 V supply of 12 A or more",
    ]


def test_a_ready_pi_5(rig, tmp_path, libraries):
    machine = pi(tmp_path, PI5, "/dev/pio0")
    found = check_hardware(rig, machine)
    assert failures(found) == []
    assert lines(found)[:3] == [
        f"ok  board: {PI5}; LED backend pi5 (rig file: auto)",
        "ok  libraries: adafruit-blinka-raspberry-pi5-neopixel, python3-lgpio, gpiozero installed",
        "ok  data pins: GPIO18, GPIO13: 1024, 512 LEDs, usable by pi5",
    ]
    assert "ok  groups: azul is in gpio" in lines(found)


def test_pi_5_without_pio_device_library_and_group(rig, tmp_path, libraries):
    libraries -= {"adafruit_raspberry_pi5_neopixel_write", "lgpio"}
    found = failures(check_hardware(rig, pi(tmp_path, PI5, groups=("azul",))))
    assert found == [
        "FIX libraries: missing adafruit_raspberry_pi5_neopixel_write, lgpio: pip install 'adafruit-blinka-raspberry-pi5-neopixel' "
        "(make run installs the [pi5] extra); sudo apt install python3-lgpio (the venv must see system packages: make run sets it up)",
        "FIX data pins: no /dev/pio0, the Pi 5's PIO: sudo apt update && sudo apt full-upgrade, then reboot",
        "FIX groups: azul is not in gpio: sudo usermod -aG gpio azul, then log in again",
    ]


def test_pio_device_the_user_cannot_open(rig, tmp_path, libraries):
    machine = pi(tmp_path, PI5, "/dev/pio0")
    machine.accessible = lambda path: False
    (found,) = failures(check_hardware(rig, machine))
    assert found.startswith("FIX data pins: /dev/pio0 is not readable and writable by this user: echo 'SUBSYSTEM==\"*-pio\", GROUP=\"gpio\", MODE=\"0660\"' | sudo tee")


def test_pwm_on_a_pi_4_needs_the_audio_off_and_root(rig, tmp_path, libraries):
    found = failures(check_hardware(rig, pi(tmp_path, PI4, "/sys/module/snd_bcm2835/refcnt", user="pi")))
    assert found == [
        "FIX data pins: GPIO18, GPIO13 use the PWM, which the analog audio (snd_bcm2835) holds: echo 'blacklist snd_bcm2835' | "
        "sudo tee /etc/modprobe.d/snd-blacklist.conf, set dtparam=audio=off in /boot/firmware/config.txt, then reboot",
        "FIX data pins: rpi_ws281x drives PWM and PCM only as root (this is pi): sudo .venv/bin/azul-table "
        "(sudo make install runs the service as root for it)",
    ]
    (tmp_path / "sys" / "module" / "snd_bcm2835" / "refcnt").unlink()
    (tmp_path / "sys" / "module" / "snd_bcm2835").rmdir()
    ready = Machine(root=tmp_path, user="root", groups=frozenset())
    ready.gpio_users = dict
    assert failures(check_hardware(rig, ready)) == []


def one_chain_spi_rig(small_rig_text):
    text = small_rig_text('[[panel.module]]\noffset = [0, 0]\nsize = [32, 16]\nchannel = 0\nchain = 0\n', size=(32, 16),
                          pins="[[leds.channel]]\npin = 10\n")
    return parse_rig(text)


def test_spi_needs_the_interface_on_a_big_buffer_and_the_spi_group(small_rig_text, tmp_path, libraries):
    rig = one_chain_spi_rig(small_rig_text)
    found = failures(check_hardware(rig, pi(tmp_path, PI4, groups=("gpio",))))
    assert found == [
        "FIX data pins: GPIO10 sends on SPI, which is off (no /dev/spidev0.0): sudo raspi-config nonint do_spi 0, then reboot",
        "FIX groups: azul is not in spi: sudo usermod -aG spi azul, then log in again",
    ]
    machine = pi(tmp_path / "with-spi", PI4, "/dev/spidev0.0")
    assert failures(check_hardware(rig, machine)) == [
        "FIX data pins: the SPI buffer holds 4096 bytes, the chain needs 6208: add spidev.bufsiz=32768 "
        "to the line in /boot/firmware/cmdline.txt, then reboot"]
    bufsiz = tmp_path / "with-spi" / "sys" / "module" / "spidev" / "parameters" / "bufsiz"
    bufsiz.parent.mkdir(parents=True)
    bufsiz.write_text("32768\n")
    assert failures(check_hardware(rig, machine)) == []


def test_pins_in_use_are_named_with_their_user(rig, tmp_path, libraries):
    machine = pi(tmp_path, PI5, "/dev/pio0", gpio_users={5: "lg", 18: "pwm-pio"})
    assert failures(check_hardware(rig, machine)) == [
        "FIX data pins: GPIO18 is in use by 'pwm-pio': stop that program or driver (is azul-table already running?)",
        "FIX buttons: GPIO5 (seat 0 PREV) is in use by 'lg': is azul-table already running (sudo systemctl stop azul-table)?",
    ]


def test_backend_the_board_cannot_run(rig, tmp_path, libraries):
    found = check_hardware(rig, pi(tmp_path, PI5), environ={BACKEND_VARIABLE: "rpi_ws281x"})
    assert lines(found)[0].startswith("FIX board: LED backend 'rpi_ws281x' needs a Raspberry Pi other than a Raspberry Pi 5")
    assert [finding.subject for finding in found] == ["board", "power"]
    assert lines(check_hardware(rig, pi(tmp_path / "x", PI4), environ={BACKEND_VARIABLE: "nope"})) == [
        f"FIX board: {BACKEND_VARIABLE}='nope' is not an LED backend; use one of auto, simulator, rpi_ws281x, pi5, blinka"]


def test_pins_the_backend_cannot_drive(tmp_path, libraries):
    text = REFERENCE_RIG.read_text().replace("pin = 18", "pin = 12").replace("pin = 13", "pin = 26")
    text = text.replace("OK = 26", "OK = 19")
    found = failures(check_hardware(parse_rig(text), pi(tmp_path, PI4, user="root")))
    assert found == ["FIX data pins: rpi_ws281x cannot drive LED data pins [12, 26]: use PWM (channel 0 on GPIO18 or 12, "
                     "channel 1 on GPIO13 or 19), or a single chain on GPIO10 (SPI) or GPIO21 (PCM)"]


def test_this_machine_reads_its_own_groups():
    user, groups = Machine().user_and_groups()
    assert user and groups and all(isinstance(name, str) for name in groups)
    assert Machine().gpio_users() is None or isinstance(Machine().gpio_users(), dict)
    assert os.path.isdir("/")

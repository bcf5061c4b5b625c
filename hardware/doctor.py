"""The machine checked against the rig file, one finding a line: the hardware half of ``azul-table doctor``.

Every finding says what is right, or what to change with the exact command.
The table program runs the same checks at start-up on a Pi and stops with
these words, instead of failing in a library or at the first frame. Nothing
here imports a hardware library: libraries are looked up, not loaded.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import os
from typing import Mapping, Optional

from hardware.backends import (
    BACKEND_VARIABLE,
    HARDWARE_BACKENDS,
    BackendUnavailable,
    data_pin_problem,
    needs_root,
    require_board,
    resolve_backend,
)
from hardware.board import (
    ANALOG_AUDIO_MODULE,
    BACKEND_EXTRAS,
    BACKEND_LIBRARIES,
    BUTTON_LIBRARY,
    PIO_DEVICE,
    SPI_BUFSIZ,
    SPI_BYTES_PER_LED,
    SPI_DEVICE,
    Machine,
)
from hardware.frame import estimate_milliamps, level_table
from hardware.rig import Rig

PIO_UDEV_RULE = 'SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"'
SUPPLY_MARGIN = 1.2
"""docs/rig.md: choose a supply rated at least 20 % above the budget."""


@dataclasses.dataclass(frozen=True)
class Finding:
    """One line of the doctor: what was checked, whether it is right, and what is (or what to do)."""

    subject: str
    ok: bool
    text: str

    def __str__(self) -> str:
        return f"{'ok ' if self.ok else 'FIX'} {self.subject}: {self.text}"


def check_hardware(rig: Rig, machine: Optional[Machine] = None, environ: Mapping[str, str] = os.environ) -> list[Finding]:
    """Board and backend, libraries, data pins, button pins, groups and power, for ``rig`` on ``machine``."""
    machine = machine or Machine()
    model = machine.model()
    try:
        backend = resolve_backend(rig, environ, model=model)
    except ValueError as error:
        return [Finding("board", False, str(error))]
    findings = [_board(rig, backend, model, environ)]
    if not findings[0].ok:
        return findings + [_power(rig)]
    on_pi = machine.is_pi()
    findings.append(_libraries(backend, on_pi))
    if backend in HARDWARE_BACKENDS:
        findings += _data_pins(rig, backend, machine)
    findings.append(_buttons(rig, on_pi and backend != "simulator", machine))
    if on_pi and backend != "simulator":
        findings.append(_groups(rig, machine))
    findings.append(_power(rig))
    return findings


def _board(rig: Rig, backend: str, model: Optional[str], environ: Mapping[str, str]) -> Finding:
    chosen = f"{BACKEND_VARIABLE}={environ[BACKEND_VARIABLE]}" if environ.get(BACKEND_VARIABLE) else f"rig file: {rig.backend}"
    if backend == "simulator":
        where = model or "no Raspberry Pi here (no device tree model)"
        return Finding("board", True, f"{where}; LED backend simulator ({chosen}): LEDs and buttons simulated")
    try:
        require_board(backend, model)
    except BackendUnavailable as error:
        return Finding("board", False, str(error))
    return Finding("board", True, f"{model}; LED backend {backend} ({chosen})")


def _libraries(backend: str, on_pi: bool) -> Finding:
    wanted = list(BACKEND_LIBRARIES.get(backend, ()))
    if on_pi:
        wanted.append(BUTTON_LIBRARY)
    wanted.append(("gpiozero", "gpiozero"))
    missing = [(module, package) for module, package in wanted if importlib.util.find_spec(module) is None]
    names = ", ".join(package for _, package in wanted)
    if not missing:
        return Finding("libraries", True, f"{names} installed")
    fixes = []
    for module, package in missing:
        if module == BUTTON_LIBRARY[0]:
            fixes.append(f"sudo apt install {BUTTON_LIBRARY[1]} (the venv must see system packages: make run sets it up)")
        else:
            extra = BACKEND_EXTRAS.get(backend)
            fixes.append(f"pip install '{package}'" + (f" (make run installs the [{extra}] extra)" if extra else ""))
    return Finding("libraries", False, f"missing {', '.join(m for m, _ in missing)}: " + "; ".join(fixes))


def _data_pins(rig: Rig, backend: str, machine: Machine) -> list[Finding]:
    pins = ", ".join(f"GPIO{pin}" for pin in rig.led_pins)
    problem = data_pin_problem(rig, backend)
    if problem:
        return [Finding("data pins", False, problem)]
    users = machine.gpio_users() or {}
    taken = [f"GPIO{pin} is in use by {users[pin]!r}" for pin in rig.led_pins if pin in users]
    if taken:
        return [Finding("data pins", False, "; ".join(taken) + ": stop that program or driver (is azul-table already running?)")]
    findings = []
    if backend == "rpi_ws281x" and not needs_root(rig, backend):
        findings += _spi(rig, machine)
    elif backend == "rpi_ws281x":
        if machine.exists(ANALOG_AUDIO_MODULE) and 21 not in rig.led_pins:
            findings.append(Finding("data pins", False, (
                f"{pins} use the PWM, which the analog audio (snd_bcm2835) holds: "
                "echo 'blacklist snd_bcm2835' | sudo tee /etc/modprobe.d/snd-blacklist.conf, "
                "set dtparam=audio=off in /boot/firmware/config.txt, then reboot")))
        user, _ = machine.user_and_groups()
        if user != "root":
            findings.append(Finding("data pins", False, (
                f"rpi_ws281x drives PWM and PCM only as root (this is {user}): sudo .venv/bin/azul-table "
                "(sudo make install runs the service as root for it)")))
    elif backend == "pi5":
        if not machine.exists(PIO_DEVICE):
            findings.append(Finding("data pins", False, (
                f"no {PIO_DEVICE}, the Pi 5's PIO: sudo apt update && sudo apt full-upgrade, then reboot")))
        elif not machine.accessible(PIO_DEVICE):
            findings.append(Finding("data pins", False, (
                f"{PIO_DEVICE} is not readable and writable by this user: "
                f"echo '{PIO_UDEV_RULE}' | sudo tee /etc/udev/rules.d/99-azul-pio.rules && "
                "sudo udevadm control --reload && sudo udevadm trigger")))
    if not findings:
        findings.append(Finding("data pins", True, f"{pins}: {', '.join(map(str, rig.channel_led_counts()))} LEDs, "
                                                   f"usable by {backend}"))
    return findings


def _spi(rig: Rig, machine: Machine) -> list[Finding]:
    if not machine.exists(SPI_DEVICE):
        return [Finding("data pins", False, (
            f"GPIO10 sends on SPI, which is off (no {SPI_DEVICE}): sudo raspi-config nonint do_spi 0, then reboot"))]
    needed = SPI_BYTES_PER_LED * rig.channel_led_counts()[0] + 64
    bufsiz = machine.read_int(SPI_BUFSIZ) or 4096
    if bufsiz < needed:
        size = max(32768, 1 << (needed - 1).bit_length())
        return [Finding("data pins", False, (
            f"the SPI buffer holds {bufsiz} bytes, the chain needs {needed}: add spidev.bufsiz={size} to the "
            "line in /boot/firmware/cmdline.txt, then reboot"))]
    return []


def _buttons(rig: Rig, on_hardware: bool, machine: Machine) -> Finding:
    pins = rig.button_pins()
    if not on_hardware:
        return Finding("buttons", True, f"{len(pins)} buttons simulated (gpiozero mock pins)")
    users = machine.gpio_users()
    if users is None:
        return Finding("buttons", False, "cannot read the GPIO chip (/dev/gpiochip*): this user needs the gpio group")
    taken = [f"GPIO{pin} ({'HOST' if seat is None else f'seat {seat} {name}'}) is in use by {users[pin]!r}"
             for (seat, name), pin in pins.items() if pin in users]
    if taken:
        return Finding("buttons", False, "; ".join(taken) + ": is azul-table already running (sudo systemctl stop azul-table)?")
    return Finding("buttons", True, f"{len(pins)} button pins free: " + ", ".join(f"GPIO{pin}" for pin in sorted(pins.values())))


def _groups(rig: Rig, machine: Machine) -> Finding:
    user, groups = machine.user_and_groups()
    if user == "root":
        return Finding("groups", True, "running as root")
    needed = ["gpio"] + (["spi"] if 10 in rig.led_pins else [])
    missing = [group for group in needed if group not in groups]
    if missing:
        return Finding("groups", False, (
            f"{user} is not in {', '.join(missing)}: sudo usermod -aG {','.join(missing)} {user}, then log in again"))
    return Finding("groups", True, f"{user} is in {', '.join(needed)}")


def _power(rig: Rig) -> Finding:
    idle = rig.led_count * rig.idle_milliamps / 1000
    full = estimate_milliamps(rig, level_table(rig.gamma, rig.max_brightness)[255:] * 3 * rig.led_count) / 1000
    return Finding("power", True, (
        f"{rig.led_count} LEDs: {idle:.1f} A dark, {full:.1f} A all white at the cap; the limiter keeps frames "
        f"under {rig.budget_amps:g} A: use a 5 V supply of {SUPPLY_MARGIN * rig.budget_amps:g} A or more"))

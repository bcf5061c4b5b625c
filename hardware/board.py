"""The machine the rig runs on: which board (from the device tree), which LED
backend fits it, and what each backend needs from the system.

Standard library only, and nothing here imports a hardware library: the
Makefile asks these questions with the bare system Python before the venv
exists (``tools/make_venv.py``), and ``azul-table doctor`` asks them before
any LED is driven. Every path is looked up under :class:`Machine`'s ``root``,
so tests describe a Pi in a temporary directory.
"""
from __future__ import annotations

import dataclasses
import fcntl
import grp
import os
import pwd
import struct
from pathlib import Path
from typing import Optional

DEVICE_TREE = Path("/proc/device-tree")
"""Where Linux shows the device tree; ``model`` there names a Raspberry Pi."""

BACKEND_LIBRARIES = {
    "rpi_ws281x": (("_rpi_ws281x", "rpi-ws281x"),),
    "pi5": (("adafruit_raspberry_pi5_neopixel_write", "adafruit-blinka-raspberry-pi5-neopixel"),),
    "blinka": (("board", "adafruit-blinka"), ("neopixel", "adafruit-circuitpython-neopixel"), ("gpiod", "gpiod")),
}
"""Per hardware backend: (module it imports, package that provides it)."""
BACKEND_EXTRAS = {"rpi_ws281x": "ws281x", "pi5": "pi5", "blinka": "blinka"}
"""The project's pip extra that installs each backend's library (pyproject.toml)."""

BUTTON_LIBRARY = ("lgpio", "python3-lgpio")
"""gpiozero's pin library on a Pi (the only one that works on a Pi 5): module, Debian package."""
LGPIO_WHEEL_PYTHONS = ((3, 11), (3, 12))
"""Pythons for which PyPI has lgpio wheels for the Pi; on others only Debian's package fits."""

PIO_DEVICE = "/dev/pio0"
SPI_DEVICE = "/dev/spidev0.0"
SPI_BUFSIZ = "/sys/module/spidev/parameters/bufsiz"
ANALOG_AUDIO_MODULE = "/sys/module/snd_bcm2835"
SPI_BYTES_PER_LED = 12
"""rpi_ws281x's SPI buffer per LED: 4 colour bytes (room for RGBW), every bit sent as 3 SPI bits."""

# Linux GPIO character device, uAPI v1 (linux/gpio.h): chip and line info.
_CHIPINFO = struct.Struct("32s32sI")
_LINEINFO = struct.Struct("II32s32s")
_GPIO_GET_CHIPINFO_IOCTL = 0x8044B401
_GPIO_GET_LINEINFO_IOCTL = 0xC048B402
_GPIOLINE_FLAG_KERNEL = 1
HEADER_CHIP_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835", "pinctrl-bcm2712")
"""gpiochip labels of the 40-pin header's GPIOs on the Pi 5, 4 and 3."""


def auto_backend(model: Optional[str]) -> str:
    """The backend ``auto`` means on a board: ``pi5``, ``rpi_ws281x`` on older Pis, else ``simulator``."""
    if model is None or not model.startswith("Raspberry Pi"):
        return "simulator"
    return "pi5" if model.startswith("Raspberry Pi 5") else "rpi_ws281x"


def backend_extras(backend: str, model: Optional[str]) -> list[str]:
    """The pip extras ``backend`` needs on the board ``model``: Blinka also needs the board's own LED driver."""
    extras = [BACKEND_EXTRAS[backend]] if backend in BACKEND_EXTRAS else []
    if backend == "blinka" and auto_backend(model) in BACKEND_EXTRAS:
        extras.append(BACKEND_EXTRAS[auto_backend(model)])
    return extras


@dataclasses.dataclass
class Machine:
    """This computer as the rig sees it; ``root`` prefixes every system path (``/`` for real)."""

    root: Path = Path("/")
    device_tree: Optional[Path] = None
    """The device tree directory; default ``root``/proc/device-tree."""
    user: Optional[str] = None
    """The user the checks are for; default this process's."""
    groups: Optional[frozenset[str]] = None
    """That user's groups; default this process's own (a new group counts only after logging in again)."""

    def path(self, system_path: str) -> Path:
        return self.root / system_path.lstrip("/")

    def model(self) -> Optional[str]:
        """The Raspberry Pi model string from the device tree, or None on a machine without one."""
        tree = self.device_tree if self.device_tree is not None else self.path(str(DEVICE_TREE))
        try:
            return (tree / "model").read_bytes().rstrip(b"\0").decode("ascii", "replace").strip() or None
        except OSError:
            return None

    def is_pi(self) -> bool:
        return auto_backend(self.model()) != "simulator"

    def exists(self, system_path: str) -> bool:
        return self.path(system_path).exists()

    def read_int(self, system_path: str) -> Optional[int]:
        try:
            return int(self.path(system_path).read_text().strip())
        except (OSError, ValueError):
            return None

    def accessible(self, system_path: str) -> bool:
        """Readable and writable by this process."""
        return os.access(self.path(system_path), os.R_OK | os.W_OK)

    def user_and_groups(self) -> tuple[str, frozenset[str]]:
        """The user the checks are for and the groups it has (see the fields)."""
        user = self.user or pwd.getpwuid(os.geteuid()).pw_name
        if self.groups is not None:
            return user, self.groups
        names = set()
        for gid in {os.getegid(), *os.getgroups()}:
            try:
                names.add(grp.getgrgid(gid).gr_name)
            except KeyError:
                pass
        return user, frozenset(names)

    def gpio_users(self) -> Optional[dict[int, str]]:
        """The header's GPIO lines in use, as ``{pin: user}``; None when no header GPIO chip is readable."""
        for chip in sorted(self.path("/dev").glob("gpiochip*")):
            try:
                with open(chip, "rb") as device:
                    info = bytearray(_CHIPINFO.size)
                    fcntl.ioctl(device, _GPIO_GET_CHIPINFO_IOCTL, info)
                    _, label, lines = _CHIPINFO.unpack(info)
                    if label.rstrip(b"\0").decode() not in HEADER_CHIP_LABELS:
                        continue
                    users = {}
                    for line in range(min(lines, 28)):
                        buffer = bytearray(_LINEINFO.pack(line, 0, b"", b""))
                        fcntl.ioctl(device, _GPIO_GET_LINEINFO_IOCTL, buffer)
                        _, flags, _, consumer = _LINEINFO.unpack(buffer)
                        if flags & _GPIOLINE_FLAG_KERNEL:
                            users[line] = consumer.rstrip(b"\0").decode(errors="replace") or "the kernel"
                    return users
            except OSError:
                continue
        return None

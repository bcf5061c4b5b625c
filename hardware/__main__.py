"""Rig tools for the person building the table: ``python -m hardware COMMAND [--rig FILE]``.

- ``pattern``: show the orientation pattern (red top-left, green top-right, blue bottom-left, arrow up).
- ``walk``: light the LEDs one after another in wire order, to check chain order and wiring.
- ``buttons``: print every button event until Ctrl-C.
- ``docs DIR``: write the wiring diagram, the orientation snapshot and the table to build into DIR and print the pin table.
- ``build-files --out DIR [--paper a4|letter]``: write the files to build the table itself (plate, grids,
  template, cut list, picture; needs the ``build`` extra).
- ``backend``: print the LED backend this board and rig file get, and ``root`` or ``user``: who may drive it
  (``make install`` runs the service as root only when it must).

The LED backend is chosen as for the table (rig file, then AZUL_LED_BACKEND);
in the simulator the frames are drawn in this terminal.
"""
import argparse
import sys
import time
from pathlib import Path

from hardware import FrameBuffer, Layout, MemorySink, load_rig, open_hardware, render_png, resolve_backend
from hardware.backends import needs_root
from hardware.board import Machine
from hardware.construction.picture import table_png
from hardware.construction.plan import plan_table
from hardware.patterns import orientation, wire_walk
from hardware.wiring import pin_table, wiring_png


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("pattern", "walk", "buttons", "docs", "backend", "build-files"))
    parser.add_argument("directory", nargs="?", default="docs/img", help="where 'docs' writes its pictures")
    parser.add_argument("--rig", help="rig file (default: the reference rig)")
    parser.add_argument("--device-tree", type=Path, help="'backend': device tree directory (default: /proc/device-tree)")
    parser.add_argument("--out", type=Path, default=Path("table-build"), help="'build-files': folder to write into")
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4", help="'build-files': the template's paper")
    parser.add_argument("--fps", type=float, default=30.0, help="frames per second for 'walk'")
    options = parser.parse_args(argv)
    try:
        rig = load_rig(options.rig)
    except ValueError as error:
        print(f"python -m hardware: {error}", file=sys.stderr)
        return 1

    if options.command == "build-files":
        from hardware.construction.files import main as build_files

        return build_files(rig, options.out, options.paper)

    if options.command == "backend":
        backend = resolve_backend(rig, model=Machine(device_tree=options.device_tree).model())
        print(backend, "root" if needs_root(rig, backend) else "user")
        return 0

    if options.command == "docs":
        directory = Path(options.directory)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "rig_wiring.png").write_bytes(wiring_png(rig))
        (directory / "build_table.png").write_bytes(table_png(plan_table(rig)))
        layout = Layout(rig)
        sink = MemorySink(layout)
        leds = FrameBuffer(layout, sink)
        orientation(leds)
        leds.show()
        render_png(layout, sink.panels().display, directory / "rig_orientation.png")
        sys.stdout.write(pin_table(rig))
        return 0

    terminal = {"terminal": sys.stdout} if options.command != "buttons" else {}
    with open_hardware(rig, **terminal) as hardware:
        try:
            if options.command == "pattern":
                orientation(hardware.leds)
                hardware.leds.show()
                input("Orientation pattern shown; press Enter to finish. ")
            elif options.command == "walk":
                for step in range(max(rig.channel_led_counts())):
                    wire_walk(hardware.leds, step)
                    hardware.leds.show()
                    time.sleep(1 / options.fps)
            else:
                print("Press the rig's buttons; Ctrl-C to stop.")
                while True:
                    print(hardware.events.get())
        except KeyboardInterrupt:
            pass
        hardware.leds.clear()
        hardware.leds.show()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``azul-table``: start the table (the simulator on a PC, the rig file's hardware on a Pi)."""
import argparse
import signal
import sys
import threading

import hardware
from firmware_py import games
from firmware_py.keyboard import HELP, KeyboardButtons
from firmware_py.session import AI_LEVELS, Seat, Session, Setup
from firmware_py.table import Table


def parse_seats(text: str) -> tuple:
    """``rig,phone,ai:hard`` (or just a number of rig seats) as :class:`Seat` values."""
    if text.isdigit():
        return tuple(Seat() for _ in range(int(text)))
    seats = []
    for item in text.split(","):
        kind, _, level = item.strip().partition(":")
        try:
            seats.append(Seat(kind=kind, level=level or "normal"))
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return tuple(seats)


def parse_flag(text: str) -> tuple:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"rules flags are NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="azul-table", description=__doc__, epilog=HELP)
    parser.add_argument("--rig", help="rig file (TOML); default: the shipped reference rig")
    parser.add_argument("--game", choices=sorted(games.GAMES), default="duel")
    parser.add_argument("--seats", type=parse_seats, default=None,
                        help=f"number of seats, or kinds: rig, phone, ai[:{'|'.join(AI_LEVELS)}], comma-separated")
    parser.add_argument("--seed", type=int, default=None, help="deal seed, for a reproducible game")
    parser.add_argument("--flag", type=parse_flag, action="append", default=[], dest="flags",
                        help="rules flag NAME=VALUE (duel: stack_reveal=end|each; pavilion: side=coloured|monochrome)")
    parser.add_argument("--png", help="simulator: also draw every frame to this PNG file")
    parser.add_argument("--no-terminal", action="store_true", help="simulator: do not draw the LEDs in the terminal")
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    seats = args.seats or tuple(Seat() for _ in range(games.spec(args.game).min_players))
    try:
        setup = Setup(game=args.game, seats=seats, seed=args.seed, flags=tuple(args.flags))
        rig = hardware.load_rig(args.rig) if args.rig else None
        interactive = sys.stdout.isatty() and not args.no_terminal
        hw = hardware.open_hardware(rig, png_path=args.png, terminal=sys.stdout if interactive else None)
    except (ValueError, hardware.BackendUnavailable) as error:
        print(f"azul-table: {error}", file=sys.stderr)
        return 2
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    table = Table(hw, Session(setup))
    keyboard = KeyboardButtons(hw) if isinstance(hw, hardware.SimulatedHardware) else None
    print(f"azul-table: {games.spec(args.game).title}, {len(seats)} seats, LEDs on {hw.backend}", file=sys.stderr)
    if keyboard is not None:
        print(HELP, file=sys.stderr)
    try:
        table.start()
        if keyboard is not None:
            keyboard.start()
        while not stopping.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if keyboard is not None:
            keyboard.stop()
        table.close()
    print("azul-table: stopped, LEDs off", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

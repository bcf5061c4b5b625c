"""The table program: the simulator on a PC, the rig file's hardware on a Pi.

``azul-table`` runs :func:`main` with the phone remote plugged in
(``web_remote.cli``); here the table knows only that add-ons may add options
and start something beside it, so the imports still flow one way.
"""
import argparse
import signal
import sys
import threading

import hardware
from firmware_py import games
from firmware_py.console import Console
from firmware_py.journal import DATA_VARIABLE, Journal, check_data_dir, data_dir
from firmware_py.keyboard import HELP, KEYS, KeyboardButtons
from firmware_py.players import check_levels
from firmware_py.reviewer import Reviewer
from firmware_py.session import AI_LEVELS, HOST_CODE_S, Seat, Session, Setup
from firmware_py.table import Table, tell

DESCRIPTION = (
    "Play Azul Duel or Azul: Summer Pavilion at the table. On the rig (a Raspberry Pi with the LED panels "
    "and buttons of its rig file) the game is on the LEDs; on any other computer the LEDs are drawn in this "
    "terminal and on a simulator page, and the keyboard presses the buttons. Phones on the same network join "
    "at the address printed at the start. An unfinished game resumes where it stopped."
)


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


def build_parser(addons=()) -> argparse.ArgumentParser:

    parser = argparse.ArgumentParser(prog="azul-table", description=DESCRIPTION, epilog=HELP)
    parser.add_argument("command", nargs="?", choices=("play", "doctor", "build-files"), default="play",
                        help="play (the default); doctor: check this machine against the rig file, one line "
                             "each, with what to change; build-files --out DIR [--paper a4|letter]: write the "
                             "files to build the table (plate, grids, template, cut list; the build extra)")
    parser.add_argument("--rig", help="rig file (TOML); default: the shipped reference rig")
    parser.add_argument("--game", choices=sorted(games.GAMES), default="duel")
    parser.add_argument("--seats", type=parse_seats, default=None,
                        help=f"number of seats, or kinds: rig, phone, ai[:{'|'.join(AI_LEVELS)}], comma-separated")
    parser.add_argument("--seed", type=int, default=None, help="deal seed, for a reproducible game")
    parser.add_argument("--flag", type=parse_flag, action="append", default=[], dest="flags",
                        help="rules flag NAME=VALUE (duel: stack_reveal=end|each; pavilion: side=coloured|monochrome)")
    parser.add_argument("--png", help="simulator: also draw every frame to this PNG file")
    parser.add_argument("--no-terminal", action="store_true", help="simulator: do not draw the LEDs in the terminal")
    parser.add_argument("--data", help=f"data directory of the game journal (default: ${DATA_VARIABLE}, "
                                       "else ~/.local/share/azul-table)")
    parser.add_argument("--new", action="store_true", help="start a new game even if one is unfinished")
    parser.add_argument("--console", action="store_true",
                        help="read moves in notation and seat commands from standard input, one a line "
                             "(docs/journal.md)")
    for addon in addons:
        addon.add_arguments(parser)
    return parser


def open_session(args, setup: Setup, journal: Journal) -> Session:
    """The unfinished game in the journal (unless ``--new``), else a new game of ``setup``, journaled."""
    resumed = None if args.new else journal.resume()
    if journal.notice:
        print(f"azul-table: {journal.notice}", file=sys.stderr)
    if resumed is not None:
        print(f"azul-table: resuming game {resumed.game_id} after {resumed.decisions} decisions "
              "(--new starts a new game)", file=sys.stderr)
        setup = resumed.setup
    session = Session(setup, game=resumed.game if resumed else None, journal=journal, **journal.settings())
    session.subscribe(journal.keep_settings)
    return session


def print_host_codes(session: Session, tell=tell):
    """Tell each host code on the terminal while the HOST menu shows it (it is not told otherwise)."""
    shown = [None]

    def announce(snapshot):
        if snapshot.host_code != shown[0]:
            tell(None if snapshot.host_code is None else
                 f"host code {snapshot.host_code} (for the phone's host page; works once, within "
                 f"{int(HOST_CODE_S // 60)} minutes)", note="host")
        shown[0] = snapshot.host_code

    session.subscribe(announce)


def serve_console(session: Session, stopping: threading.Event):
    """Answer console commands from standard input on a thread; the table stops when the input ends."""
    console = Console(session, reply=lambda line: print(line, flush=True))

    def run():
        console.run(sys.stdin)
        stopping.set()

    console.ready()
    threading.Thread(target=run, name="console", daemon=True).start()


def check_machine(args, rig, addons=()) -> list:
    """The doctor's findings: the hardware against the rig, the data directory, and each add-on's own checks."""
    findings = hardware.check_hardware(rig)
    findings.append(check_data_dir(data_dir(args.data)))
    for addon in addons:
        if hasattr(addon, "check"):
            findings += addon.check(args)
    return findings


def doctor(args, addons=()) -> int:
    """``azul-table doctor``: print every finding; exit 1 if any needs fixing."""
    try:
        rig = hardware.load_rig(args.rig)
    except ValueError as error:
        print(f"FIX rig file: {error}")
        return 1
    print(f"ok  rig file: {rig.source}")
    findings = check_machine(args, rig, addons) + [check_levels()]
    for finding in findings:
        print(finding)
    return 0 if all(finding.ok for finding in findings) else 1


def ready_for_hardware(args, addons=()) -> bool:
    """On real hardware, run the doctor's checks first and stop with its words if any fails."""
    rig = hardware.load_rig(args.rig)
    if hardware.resolve_backend(rig) not in hardware.HARDWARE_BACKENDS:
        return True
    problems = [finding for finding in check_machine(args, rig, addons) if not finding.ok]
    for finding in problems:
        print(f"azul-table: {finding}", file=sys.stderr)
    if problems:
        print("azul-table: the rig is not ready; fix the lines above (azul-table doctor checks again)", file=sys.stderr)
    return not problems


def main(argv=None, addons=()) -> int:
    """Run the table until Ctrl-C, SIGTERM, SIGHUP or the console's end of input.

    ``addons`` plug things in beside the table: each has ``add_arguments(parser)``
    and ``start(args, table)``, which returns something to ``close()`` at the end, or None.
    """
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["build-files"]:  # its own options, as python -m hardware takes them
        from hardware.__main__ import main as rig_tools

        return rig_tools(arguments)
    args = build_parser(addons).parse_args(argv)
    if args.command == "doctor":
        return doctor(args, addons)
    try:
        if not ready_for_hardware(args, addons):
            return 2
    except ValueError as error:
        print(f"azul-table: {error}", file=sys.stderr)
        return 2
    seats = args.seats or tuple(Seat() for _ in range(games.spec(args.game).min_players))
    journal = None
    try:
        setup = Setup(game=args.game, seats=seats, seed=args.seed, flags=tuple(args.flags))
        journal = Journal(data_dir(args.data))
        session = open_session(args, setup, journal)
        rig = hardware.load_rig(args.rig) if args.rig else None
        interactive = sys.stdout.isatty() and not args.no_terminal and not args.console
        hw = hardware.open_hardware(rig, png_path=args.png, terminal=sys.stdout if interactive else None)
    except (ValueError, hardware.BackendUnavailable) as error:
        if journal is not None:
            journal.close()
        print(f"azul-table: {error}", file=sys.stderr)
        return 2
    reviewer = Reviewer(journal)  # finished games' review, at the lowest priority
    session.subscribe(reviewer.notice)
    stopping = threading.Event()
    for stop_signal in (signal.SIGTERM, signal.SIGHUP):  # a service stop, or the terminal closing
        signal.signal(stop_signal, lambda *_: stopping.set())
    table = Table(hw, session)
    print_host_codes(session, table.tell)
    started = [addon.start(args, table) for addon in addons]
    simulated = isinstance(hw, hardware.SimulatedHardware)
    keyboard = KeyboardButtons(hw) if simulated and not args.console else None
    terminal = hw.terminal if simulated else None
    print(f"azul-table: {games.spec(session.setup.game).title}, {len(session.setup.seats)} seats, "
          f"LEDs on {hw.backend}, journal {journal.path}", file=sys.stderr)
    if keyboard is not None:
        if terminal is not None:
            terminal.note("keys", KEYS)
        else:
            print(HELP, file=sys.stderr)
    try:
        table.start()
        reviewer.start()
        if keyboard is not None:
            keyboard.start()
        if args.console:
            serve_console(session, stopping)
        while not stopping.wait(0.2):
            if terminal is not None:
                terminal.refit()  # a resized terminal is drawn again at once
    except KeyboardInterrupt:
        pass
    finally:
        if keyboard is not None:
            keyboard.stop()
        for running in started:
            if running is not None:
                running.close()
        table.close()
        reviewer.close()
        journal.close()
    print("azul-table: stopped, LEDs off", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

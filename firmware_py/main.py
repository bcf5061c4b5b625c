"""``azul-table``: start the table (the simulator on a PC, the rig file's hardware on a Pi)."""
import argparse
import signal
import sys
import threading

import hardware
from firmware_py import games
from firmware_py.console import Console
from firmware_py.journal import DATA_VARIABLE, Journal, data_dir
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
    from web_remote.i18n import LANGUAGES  # the console script is where the table and its remote meet

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
    parser.add_argument("--data", help=f"data directory of the game journal (default: ${DATA_VARIABLE}, "
                                       "else ~/.local/share/azul-table)")
    parser.add_argument("--new", action="store_true", help="start a new game even if one is unfinished")
    parser.add_argument("--console", action="store_true",
                        help="read moves in notation and seat commands from standard input, one a line "
                             "(docs/journal.md)")
    parser.add_argument("--host", default="0.0.0.0", help="address the phone remote listens on (default: all)")
    parser.add_argument("--port", type=int, default=8080, help="port of the phone remote (0: any free port)")
    parser.add_argument("--no-web", action="store_true", help="do not start the phone remote")
    parser.add_argument("--language", default="en", choices=tuple(LANGUAGES),
                        help="the table's language on phones that ask for none of ours")
    return parser


def start_remote(args, table: Table):
    """The phone remote in this process, with its address and QR code on the terminal and the host
    PIN on the terminal and the centre panel (again for every game set up from a phone)."""
    from web_remote import runner
    from web_remote.service import RemoteService

    def announce(remote):
        print(f"azul-table: host PIN {remote.pin}", file=sys.stderr)
        table.display.show_pin(remote.pin)

    hw = table.hardware
    simulated = hw if isinstance(hw, hardware.SimulatedHardware) else None
    service = RemoteService(table.session, hardware=simulated, language=args.language, on_credentials=announce)
    try:
        remote = runner.start(service, host=args.host, port=args.port, display=table.display)
    except OSError as error:
        print(f"azul-table: no phone remote ({args.host}:{args.port}: {error.strerror or error})", file=sys.stderr)
        return None
    print(f"azul-table: phones join at {remote.url}", file=sys.stderr)
    print(runner.qr_text(remote.url), file=sys.stderr)
    if simulated is not None:
        print(f"azul-table: simulator page at {remote.url.removesuffix('join')}simulator/", file=sys.stderr)
    return remote


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


def serve_console(session: Session, stopping: threading.Event):
    """Answer console commands from standard input on a thread; the table stops when the input ends."""
    console = Console(session, reply=lambda line: print(line, flush=True))

    def run():
        console.run(sys.stdin)
        stopping.set()

    console.ready()
    threading.Thread(target=run, name="console", daemon=True).start()


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    seats = args.seats or tuple(Seat() for _ in range(games.spec(args.game).min_players))
    try:
        setup = Setup(game=args.game, seats=seats, seed=args.seed, flags=tuple(args.flags))
        journal = Journal(data_dir(args.data))
        session = open_session(args, setup, journal)
        rig = hardware.load_rig(args.rig) if args.rig else None
        interactive = sys.stdout.isatty() and not args.no_terminal and not args.console
        hw = hardware.open_hardware(rig, png_path=args.png, terminal=sys.stdout if interactive else None)
    except (ValueError, hardware.BackendUnavailable) as error:
        print(f"azul-table: {error}", file=sys.stderr)
        return 2
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    table = Table(hw, session)
    remote = None if args.no_web else start_remote(args, table)
    simulated = isinstance(hw, hardware.SimulatedHardware)
    keyboard = KeyboardButtons(hw) if simulated and not args.console else None
    print(f"azul-table: {games.spec(session.setup.game).title}, {len(session.setup.seats)} seats, "
          f"LEDs on {hw.backend}, journal {journal.path}", file=sys.stderr)
    if keyboard is not None:
        print(HELP, file=sys.stderr)
    try:
        table.start()
        if keyboard is not None:
            keyboard.start()
        if args.console:
            serve_console(session, stopping)
        while not stopping.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if keyboard is not None:
            keyboard.stop()
        if remote is not None:
            remote.close()
        table.close()
        journal.close()
    print("azul-table: stopped, LEDs off", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``azul-table``: the table program with the phone remote served beside it, in one process."""
import argparse
import contextlib
import errno
import ipaddress
import socket
import sys

import hardware
from firmware_py import main as table_program
from hardware.terminal import qr_text
from web_remote import network
from web_remote.i18n import LANGUAGES


def table_name(text: str) -> str:
    try:
        return network.check_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class PhoneRemote:
    """The table program's add-on that serves the phone page (see :func:`firmware_py.main.main`)."""

    def add_arguments(self, parser):
        parser.add_argument("--host", default="0.0.0.0", help="address the phone remote listens on (default: all)")
        parser.add_argument("--port", type=int, default=8080, help="port of the phone remote (0: any free port)")
        parser.add_argument("--name", type=table_name, default=network.DEFAULT_NAME,
                            help="the table's name on the network: phones open http://NAME.local:PORT "
                                 f"(default: {network.DEFAULT_NAME})")
        parser.add_argument("--no-web", action="store_true", help="do not start the phone remote")
        parser.add_argument("--language", default="en", choices=tuple(LANGUAGES),
                            help="the table's language on phones that ask for none of ours")
        parser.add_argument("--simulator-network", action="store_true",
                            help="let other computers on the network use the simulator page, whose buttons play "
                                 "for every seat (by default only this computer can; the host PIN stays hidden)")

    def check(self, args):
        """The doctor's line for the web port: free to listen on, for this user."""
        if args.no_web:
            return [hardware.Finding("web port", True, "phone remote off (--no-web)")]
        if args.port == 0:
            return [hardware.Finding("web port", True, "any free port (--port 0)")]
        try:
            with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind((args.host, args.port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                fix = "another program listens there (is azul-table already running?): stop it or choose --port"
            elif error.errno == errno.EACCES:
                fix = ("ports below 1024 need root or the CAP_NET_BIND_SERVICE capability (sudo make install "
                       "gives the service it), or choose --port 8080")
            else:
                fix = error.strerror or str(error)
            return [hardware.Finding("web port", False, f"{args.host}:{args.port}: {fix}")]
        return [hardware.Finding("web port", True, f"{args.host}:{args.port} free")]

    def start(self, args, table):
        """The remote for ``table``, with its address, QR code and join code on the terminal (kept under
        the LEDs' drawing there) and the join code on the centre panel (again for every new game); None
        without it."""
        if args.no_web:
            return None
        from web_remote import runner, server  # the server and its pages load only for a table that serves them
        from web_remote.service import RemoteService

        def announce(remote):
            table.tell(f"join code {remote.join_code}", note="code")
            table.display.show_pin(remote.join_code)

        hw = table.hardware
        simulated = hw if isinstance(hw, hardware.SimulatedHardware) else None
        service = RemoteService(table.session, hardware=simulated, language=args.language, on_credentials=announce)
        server.raise_open_file_limit()
        try:
            remote = runner.start(service, host=args.host, port=args.port, display=table.display,
                                  host_names=network.host_names(args.name),
                                  config={"SIMULATOR_NETWORK": args.simulator_network})
        except OSError as error:
            table.tell(f"no phone remote ({args.host}:{args.port}: {error.strerror or error})", note="address")
            return None
        table.display.address = remote.url.removeprefix("http://")
        others = f" (also {', '.join(remote.urls[1:])})" if remote.urls[1:] else ""
        table.tell(f"phones join at {remote.url}{others}", note="address")
        table.tell(qr_text(remote.url).rstrip("\n"), note="qr")
        if simulated is not None:
            table.tell(f"simulator page at {remote.url.removesuffix('join')}simulator/", note="simulator")
        running = contextlib.ExitStack()
        running.callback(remote.close)
        advertisement = self._advertise(args.name, remote, table)
        if advertisement is not None:
            running.callback(advertisement.close)  # first: the name goes before the page does
        return running

    @staticmethod
    def _advertise(name, remote, table):
        """The table's name on mDNS for the addresses phones can reach; None for a loopback-only remote
        or where the network takes no multicast."""
        reachable = [a for a in remote.addresses if not ipaddress.ip_address(a).is_loopback]
        if not reachable:
            return None

        def claimed(found):
            remote.app.config["TABLE_HOST_NAMES"] = network.host_names(found)
            local = network.join_url(f"{found}.local", remote.port)
            table.display.address = f"{remote.url.removeprefix('http://')} {local.removeprefix('http://')}"
            table.tell(f"phones also find the table at {local}", note="name")

        try:
            return network.Advertisement(name, remote.port, reachable, on_name=claimed)
        except OSError as error:
            table.tell(f"the table's name is not announced ({error.strerror or error})", note="name")
            return None


def main(argv=None) -> int:
    return table_program.main(argv, addons=(PhoneRemote(),))


if __name__ == "__main__":
    sys.exit(main())

"""The phone remote inside the table's process: waitress on a thread, its address and QR code.

``azul-table`` calls :func:`start`; tests and benchmarks use it too, on port 0.
"""
import io
import threading

import qrcode

from web_remote import create_app, history, network, serve
from web_remote.service import RemoteService

STOP_TIMEOUT_S = 3.0
LOOP_TURN_S = 0.2


def qr_text(url: str) -> str:
    """``url`` as a QR code of block characters, scannable from a terminal."""
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


class RunningRemote:
    """A started web remote: ``urls`` of its join page (one per address phones can use, the
    first is ``url``), its Flask ``app``, ``service``, ``close()``."""

    def __init__(self, service: RemoteService, app, server, urls: list):
        self.service = service
        self.app = app
        self.server = server
        self.urls = urls
        self.url = urls[0]
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self._thread.start()

    def _serve(self):
        """waitress's socket loop, in short turns so that :meth:`close` can stop it between them."""
        from waitress import wasyncore

        while not self._stopping.is_set():
            wasyncore.loop(timeout=LOOP_TURN_S, map=self.server._map, count=1)

    @property
    def port(self) -> int:
        return self.server.effective_port

    def close(self):
        """End the event streams and let the workers finish, then stop the loop and close every socket.

        Sockets are closed only after the loop thread has left ``select``, so it
        never waits on a closed descriptor.
        """
        from waitress import wasyncore

        self.service.close()
        self.server.task_dispatcher.shutdown(timeout=STOP_TIMEOUT_S)
        self._stopping.set()
        self._thread.join(STOP_TIMEOUT_S)
        self.server.close()
        wasyncore.close_all(self.server._map)


def start(service: RemoteService, host: str = "0.0.0.0", port: int = 8080, display=None,
          host_names=()) -> RunningRemote:
    """Serve the remote for ``service`` on a daemon thread; returns at once.

    ``display`` (the table's :class:`~firmware_py.display.TableDisplay`) lets the
    host show replayed positions on the LEDs; ``host_names`` are the names besides
    its addresses that the table answers to (``app.config["TABLE_HOST_NAMES"]``).
    Without a usable interface address the URL is the loopback one."""
    app = create_app(service)
    app.config["TABLE_HOST_NAMES"] = tuple(host_names)
    if display is not None:
        history.attach_display(app, display)
    server = serve(app, host=host, port=port)
    addresses = network.listening_addresses(host) or ["127.0.0.1"]
    urls = [f"http://{network.url_host(a)}:{server.effective_port}/join" for a in addresses]
    return RunningRemote(service, app, server, urls)

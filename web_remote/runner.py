"""The phone remote inside the table's process: its server on a thread and its addresses.

``azul-table`` calls :func:`start`; tests and benchmarks use it too, on port 0.
"""
from web_remote import create_app, history, network, server
from web_remote.service import RemoteService


class RunningRemote:
    """A started web remote: the ``addresses`` phones can use and ``urls`` of its join page at
    each (the first is ``url``), ``port``, its Flask ``app``, ``service``, ``close()``."""

    def __init__(self, service: RemoteService, app, running: server.RunningServer, addresses: list):
        self.service = service
        self.app = app
        self.server = running
        self.addresses = addresses
        self.urls = [network.join_url(a, self.port) for a in addresses]
        self.url = self.urls[0]

    @property
    def port(self) -> int:
        return int(self.server.port)

    def close(self):
        """End the event streams, then stop the server and close every connection."""
        self.service.close()
        self.server.close()


def start(service: RemoteService, host: str = "0.0.0.0", port: int = 8080, display=None,
          host_names=(), config=None) -> RunningRemote:
    """Serve the remote for ``service`` on a daemon thread; returns at once. :raise OSError: cannot listen.

    ``display`` (the table's :class:`~firmware_py.display.TableDisplay`) lets the
    host show replayed positions on the LEDs; ``host_names`` are the names besides
    its addresses that the table answers to (``app.config["TABLE_HOST_NAMES"]``);
    ``config`` goes into the app's config (see :func:`web_remote.create_app`).
    Without a usable interface address the URL is the loopback one."""
    app = create_app(service)
    app.config["TABLE_HOST_NAMES"] = tuple(host_names)
    app.config.update(config or {})
    if display is not None:
        history.attach_display(app, display)
    running = server.start(app, host=host, port=port)
    addresses = network.listening_addresses(host) or ["127.0.0.1"]
    return RunningRemote(service, app, running, addresses)

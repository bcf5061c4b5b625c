"""The order ``make test``'s workers take the suite in: the tests marked ``long`` first (see :class:`LongFirst`)."""
import os

import pytest


class LongFirst:
    """``make test``'s workers take the suite in contiguous blocks (pytest-xdist's ``worksteal``), and a worker
    that runs out takes over the end of a busy one's block. A test of a minute that comes late in a block
    therefore starts late and runs on alone after the others have finished, one core idle. The tests marked
    ``long`` open the blocks instead, spread over the workers, so that the run ends on short tests."""

    @pytest.hookimpl(trylast=True)  # after the run's choice of tests (-m, -k): the blocks are cut from those
    def pytest_collection_modifyitems(self, items):
        workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
        if workers < 2:
            return
        long = [item for item in items if item.get_closest_marker("long")]
        rest = [item for item in items if not item.get_closest_marker("long")]
        ordered = []
        for worker in range(workers):
            # The block pytest-xdist gives this worker first: an even share of what no worker has yet.
            size = (len(items) - len(ordered)) // (workers - worker)
            opening = long[worker::workers]
            taken = max(0, size - len(opening))
            ordered += opening + rest[:taken]
            del rest[:taken]
        items[:] = ordered + rest

"""Crash test: the real ``azul-table`` is killed with SIGKILL at random points while it plays.

Each run feeds the rest of a scripted game to ``azul-table --console`` and
kills it at a random moment (sometimes before it even says ``ready``). After
every kill the journal must hold every move the table acknowledged, in order,
and its position must be exactly the scripted game's position after those
moves, RNG included, so the future draws are the same; the restarted table
must announce that very position. Every game is played to its end through
the kills and must finish exactly like the uninterrupted game.
"""
import contextlib
import math
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import settings

from firmware_py.journal import Journal
from journal_games import AVAILABLE, random_line, random_setup
from tests.patience import patient

AZUL_TABLE = Path(sys.executable).with_name("azul-table")
KILLS = settings().max_examples // 2  # 50 in all with the default hypothesis profile, shared between the games


class TableProcess:
    """One ``azul-table --console`` run; collects its answer lines on a thread."""

    def __init__(self, data, setup):
        seats = ",".join(seat.kind for seat in setup.seats)
        self.process = subprocess.Popen(
            [str(AZUL_TABLE), "--console", "--no-terminal", "--no-web", "--data", str(data),
             "--game", setup.game, "--seats", seats, "--seed", str(setup.seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self.started = time.monotonic()
        self.ready_after = None
        """Seconds from the start to the first answer line (``ready PLY``), once it came."""
        self.lines = []
        self.ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.process.stdout:
            if self.ready_after is None:
                self.ready_after = time.monotonic() - self.started
            self.lines.append(line.rstrip("\n"))
            self.ready.set()

    def send(self, moves):
        try:
            self.process.stdin.write("".join(f"{move}\n" for move in moves))
            self.process.stdin.flush()
        except BrokenPipeError:
            pass

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(patient(10))
        self._reader.join(10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            with contextlib.suppress(BrokenPipeError):
                stream.close()

    def acknowledged(self) -> int:
        """The most moves the table had confirmed (``ok PLY ...``) before it died."""
        plies = [int(line.split()[1]) for line in self.lines if line.startswith("ok ")]
        return max(plies, default=0)


def check_journal(data, moves, positions, acknowledged):
    """The journal after a kill: the acknowledged moves (at least) in order, and the exact position after them."""
    journal = Journal(data)
    try:
        summaries = journal.games()
        assert len(summaries) <= 1, "a restart started a second game instead of resuming"
        record = journal.export(summaries[0].id) if summaries else None
        played = len(record.moves) if record else 0
        assert played >= acknowledged, f"{acknowledged} moves were acknowledged, {played} survived"
        assert moves[:played] == list(record.moves if record else ())
        finished = bool(summaries) and summaries[0].status == "finished"
        resumed = journal.resume()
        if summaries and not finished:
            assert resumed.decisions == played
            assert resumed.game.to_dict() == positions[played].to_dict(), "resumed position or RNG differs"
        return played, finished
    finally:
        journal.close()


class StartUp:
    """How long a table takes to say ``ready`` on this machine now, from the last one that did: a kill meant for
    start-up and resuming lands within it however busy the machine is (on one running other tests beside this,
    a fixed time would end before most start-ups got to the journal)."""

    MARGIN = 1.2  # past the time measured: now and then a kill just after ready
    seconds = patient(0.5)  # until a table has said ready

    def window(self) -> float:
        return self.MARGIN * self.seconds

    def saw(self, table):
        if table.ready_after is not None:
            self.seconds = table.ready_after


def play_through_kills(data, setup, kills, chooser, start_up):
    moves, positions = random_line(setup, policy_seed=setup.seed)
    played, killed = 0, 0
    while True:
        table = TableProcess(data, setup)
        if chooser.random() < 0.2:
            time.sleep(chooser.uniform(0.0, start_up.window()))  # somewhere in start-up and resuming
        else:
            assert table.ready.wait(patient(30)), "the table did not start"
            assert table.lines[0] == f"ready {played}", "the restarted table does not show the saved position"
            table.send(moves[played:])
            time.sleep(chooser.uniform(0.0, patient(0.5)))
        table.kill()
        start_up.saw(table)
        killed += 1
        played, finished = check_journal(data, moves, positions, table.acknowledged())
        if finished or killed >= kills:
            return killed, finished, played


@pytest.mark.long
def test_sigkill_at_random_points_loses_no_acknowledged_move(tmp_path):
    chooser, start_up = random.Random(2024), StartUp()
    per_game = math.ceil(KILLS / len(AVAILABLE))
    total = 0
    for game in AVAILABLE:
        seed = 100
        killed = 0
        while killed < per_game:
            setup = random_setup(game, seed)
            data = tmp_path / f"{game}-{seed}"
            done, finished, played = play_through_kills(data, setup, per_game - killed, chooser, start_up)
            killed += done
            if not finished:
                finish_game(data, setup, played)
            seed += 1
        total += killed
    assert total >= KILLS


def finish_game(data, setup, played):
    """Play the rest of the game without kills; it must end exactly like the uninterrupted game."""
    moves, positions = random_line(setup, policy_seed=setup.seed)
    table = TableProcess(data, setup)
    assert table.ready.wait(patient(30))
    assert table.lines[0] == f"ready {played}"
    table.send(moves[played:] + ["quit"])
    assert table.process.wait(patient(60)) == 0
    table.kill()
    assert table.lines[-1] == "over " + " ".join(map(str, positions[-1].scores()))
    journal = Journal(data)
    record = journal.export(journal.games()[0].id)
    journal.close()
    assert record.moves == tuple(moves) and record.final_scores == tuple(positions[-1].scores())

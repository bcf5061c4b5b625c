"""A line console for a running table: moves in notation and seat commands on standard input.

``azul-table --console`` reads one command a line and answers one line for
each, so a script (the crash test, a rig check, a tournament runner) can drive
the real program. A move is answered only after the session accepted it, and
the session accepts a move only after the journal committed it: an ``ok`` line
means the move survives a power cut.

Commands (seats are numbered from 1, as on the table)::

    NOTATION              play it for the seat whose decision it is
    undo SEAT             SEAT asks to undo the last decision
    accept SEAT           SEAT agrees to the undo asked for
    refuse SEAT           SEAT refuses it
    press SEAT|host BUTTON    tap a button (PREV, NEXT, OK, BACK, HOST)
    hold SEAT|host BUTTON     hold a button
    show                  the position: decisions so far, whose turn, pending decision, options
    quit                  stop the table

Answers: ``ok PLY NOTATION`` for a move (PLY = decisions in the game so far),
``ok`` for other commands, ``refused REASON``, ``position ...`` for ``show``,
and ``over SCORES`` after the move that ends the game.
"""
from firmware_py.session import AnswerUndo, CommandRejected, Play, Press, RequestUndo


class ConsoleError(ValueError):
    """A console line that is not a command."""


class Console:
    """Runs console commands against ``session``, one line in, one or two lines out."""

    def __init__(self, session, reply):
        self.session = session
        self._reply = reply  # called with each answer line

    def ready(self):
        """Announce the table: ``ready PLY`` (decisions already in the game, e.g. after a resume)."""
        self._reply(f"ready {len(self.session.snapshot.history)}")

    def run(self, lines) -> None:
        """Execute ``lines`` until they end or one is ``quit``."""
        for line in lines:
            line = line.strip()
            if line == "quit":
                return
            if line:
                self.execute(line)

    def execute(self, line: str):
        try:
            command = self._command(line)
            if command is None:
                return
            self.session.call(command)
        except (CommandRejected, ConsoleError) as refusal:
            self._reply(f"refused {refusal}")
            return
        snapshot = self.session.snapshot
        if isinstance(command, Play):
            self._reply(f"ok {len(snapshot.history)} {snapshot.history[-1][1] if snapshot.history else ''}")
            if snapshot.over:
                self._reply("over " + " ".join(map(str, snapshot.scores)))
        else:
            self._reply("ok")

    def _command(self, line: str):
        word, _, rest = line.partition(" ")
        args = rest.split()
        if word == "show":
            self._show()
            return None
        if word in ("undo", "accept", "refuse"):
            seat = self._seat(args, 1)
            return RequestUndo(seat) if word == "undo" else AnswerUndo(seat, word == "accept")
        if word in ("press", "hold"):
            if len(args) != 2:
                raise ConsoleError(f"{word} takes a seat (or host) and a button")
            seat = None if args[0] == "host" else self._seat(args[:1], 1)
            return Press(seat, args[1].upper(), word)
        if args:
            raise ConsoleError(f"unknown command {word!r}")
        if self.session.snapshot.over:
            raise ConsoleError("the game is over")
        return Play(self.session.snapshot.current_player, line)

    def _seat(self, args, count):
        if len(args) != count or not args[0].isdigit():
            raise ConsoleError("give the seat as a number from 1")
        return int(args[0]) - 1

    def _show(self):
        snapshot = self.session.snapshot
        turn = "-" if snapshot.current_player is None else snapshot.current_player + 1
        self._reply(f"position ply={len(snapshot.history)} turn={turn} pending={snapshot.pending} "
                    f"scores={','.join(map(str, snapshot.scores))} options={' '.join(snapshot.options)}")

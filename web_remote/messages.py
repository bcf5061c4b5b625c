"""Every string the phone pages show, by key, in English: the source of the gettext catalogues.

Pages, scripts and views name a string by its key (``t("join.title")``); the
English text here is the msgid that translators see in
``translations/<language>/LC_MESSAGES/messages.po``. Mark each entry so
``make translations`` extracts it:

- ``N_(text)`` for a plain string;
- ``P_(singular, plural)`` for a string with a count: the field ``n`` picks the
  form by the language's plural rules (Chinese has one form, English two);
- ``C_(context, text)`` when the same English needs another translation here.

Fields are written ``{name}`` and filled in by :func:`web_remote.i18n.translate`
(and ``Remote.t`` in the scripts).
"""
from typing import NamedTuple


class Plural(NamedTuple):
    singular: str
    plural: str


class Contextual(NamedTuple):
    context: str
    text: str


def N_(text: str) -> str:
    return text


def P_(singular: str, plural: str) -> Plural:
    return Plural(singular, plural)


def C_(context: str, text: str) -> Contextual:
    return Contextual(context, text)


MESSAGES = {
    "app.title": N_("Azul table"),

    "board.back.special": N_("top: special"),
    "board.back.wild": N_("top: wild"),
    "board.broken": N_("Broken"),
    "board.centre": N_("Centre"),
    "board.chip": N_("Chip"),
    "board.chips": N_("Bonus chips"),
    "board.display": N_("Dome plates on display"),
    "board.drawn": N_("Drawn plates"),
    "board.factory": N_("Factory {n}"),
    "board.hand": N_("In hand"),
    "board.large_factory": N_("Large Factory"),
    "board.moon": N_("Moon"),
    "board.passed": N_("passed"),
    "board.stack": N_("Plate stack: {n}"),
    "board.supply": N_("Supply"),
    "board.wild": N_("Wild colour"),

    "breakdown.floor": N_("Score floor at {n}"),
    "breakdown.leftover": N_("Leftover tiles"),
    "breakdown.number": N_("All {n}s covered"),
    "breakdown.rounds": N_("Rounds 1-{last}"),
    "breakdown.star.B": N_("Blue star complete"),
    "breakdown.star.C": N_("Centre star complete"),
    "breakdown.star.G": N_("Green star complete"),
    "breakdown.star.O": N_("Orange star complete"),
    "breakdown.star.P": N_("Purple star complete"),
    "breakdown.star.R": N_("Red star complete"),
    "breakdown.star.Y": N_("Yellow star complete"),

    "button.BACK": N_("Back"),
    "button.HOST": N_("HOST"),
    "button.NEXT": N_("Next ▶"),
    "button.OK": N_("OK"),
    "button.PREV": N_("◀ Prev"),

    "colour.duel.B": N_("dark blue"),
    "colour.duel.K": N_("black"),
    "colour.duel.R": N_("red"),
    "colour.duel.T": N_("turquoise"),
    "colour.duel.Y": N_("yellow"),
    "colour.pavilion.B": N_("blue"),
    "colour.pavilion.G": N_("green"),
    "colour.pavilion.O": N_("orange"),
    "colour.pavilion.P": N_("purple"),
    "colour.pavilion.R": N_("red"),
    "colour.pavilion.Y": N_("yellow"),

    "error.bad_host": N_("This table does not answer to that name: open it by its own address."),
    "error.bad_host_token": N_("The host key is not valid for the current game: unlock the host page again with a host code from the table."),
    "error.bad_json": N_("The body is not valid JSON, or it is nested deeper than {n} levels."),
    "error.bad_origin": N_("Requests from another site are refused."),
    "error.bad_request": N_("The request cannot be read."),
    "error.bad_token": N_("This seat token is not valid for the current game: join again."),
    "error.brightness": N_("Brightness must be between 5% and 100%."),
    "error.busy": N_("Too many live connections: this page now updates every few seconds instead."),
    "error.game_over": N_("The game is over."),
    "error.hints_off": N_("Hints are turned off for this game."),
    "error.host_or_seat_changed": N_("This phone does not hold that seat or the host role in the game being played now."),
    "error.internal": N_("Something went wrong at the table; nothing was changed."),
    "error.invalid_field": N_("The field {field} has an invalid value."),
    "error.json_required": N_("Send a JSON object (Content-Type: application/json)."),
    "error.locked_out": N_("Too many wrong codes: try again in {seconds} s."),
    "error.method": N_("This address does not take that kind of request."),
    "error.missing_field": N_("The field {field} is missing."),
    "error.name_too_long": P_("Names are at most {n} character.", "Names are at most {n} characters."),
    "error.network": N_("The table cannot be reached."),
    "error.no_such_seat": N_("There is no such seat in this game."),
    "error.no_token": N_("Join a seat first: this request carries no seat token."),
    "error.no_undo_request": N_("Nobody asked for an undo."),
    "error.not_a_phone_seat": N_("That seat is not played from a phone."),
    "error.not_an_option": N_("That option is not available any more."),
    "error.not_asked": N_("This undo request waits for {names}, not for {seat}."),
    "error.not_found": N_("There is nothing at this address."),
    "error.not_host": N_("Only the host can do this: unlock the host page with a host code (hold HOST at the table, choose HOST)."),
    "error.not_your_turn": N_("Not your turn: it is {name}'s decision."),
    "error.nothing_to_undo": N_("There is nothing to undo."),
    "error.refused": N_("Refused: {reason}"),
    "error.seat_count": N_("This game is for {min} to {max} seats."),
    "error.seat_taken": N_("That seat is already taken."),
    "error.simulator_local": N_("The simulator answers only on the table's own computer "
                                "(start the table with --simulator-network to open it to the network)."),
    "error.stale": N_("The game moved on since this screen was drawn: choose again."),
    "error.timeout": N_("The table did not answer in time; try again."),
    "error.too_large": N_("The request is too large."),
    "error.undo_open": N_("An undo request is already open."),
    "error.undo_revealed": N_("The last decision revealed hidden tiles or plates: it cannot be undone."),
    "error.wrong_host_code": N_("Wrong or expired host code."),
    "error.wrong_join_code": N_("Wrong join code."),

    "flag.objectives": N_("Objectives"),
    "flag.objectives.chosen": N_("chosen"),
    "flag.objectives.random": N_("random"),
    "flag.objectives.tablet": N_("Tablet {tablet}"),
    "flag.objectives.unused": N_("not used"),
    "flag.side": N_("Board side"),
    "flag.side.coloured": N_("coloured"),
    "flag.side.monochrome": N_("grey (free placement)"),
    "flag.stack_reveal": N_("Drawing from the plate stack"),
    "flag.stack_reveal.each": N_("see each plate as you draw it"),
    "flag.stack_reveal.end": N_("see the fronts after you stop drawing"),

    "game.duel": N_("Azul Duel"),
    "game.pavilion": N_("Azul: Summer Pavilion"),

    "hint.request": N_("Hint"),
    "hint.text": N_("Hint: {label} ({notation})"),
    "hint.thinking": N_("Thinking…"),

    "history.bad_record": N_("This record cannot be imported: {reason}"),
    "history.damaged": N_("(damaged in the journal)"),
    "history.damaged_game": N_("Game {n} is damaged in the journal and cannot be shown."),
    "history.date": N_("Date"),
    "history.decisions": N_("Decisions: {n}"),
    "history.download": N_("Download the record"),
    "history.earlier": N_("Earlier moves ({n})"),
    "history.first": N_("Before the first move"),
    "history.game": N_("Game"),
    "history.host_tools": N_("For the host"),
    "history.import": N_("Import"),
    "history.import_file": N_("Import a record file"),
    "history.imported": N_("(imported)"),
    "history.last": N_("Last move"),
    "history.later": N_("Later moves ({n})"),
    "history.moves": N_("Moves"),
    "history.next": N_("Next"),
    "history.no_game": N_("There is no game {n}."),
    "history.no_games": N_("No games yet."),
    "history.no_journal": N_("This table keeps no journal of its games."),
    "history.no_leds": N_("The table's LEDs are not connected to this web page."),
    "history.no_move": N_("This game has moves 0-{last}, not {ply}."),
    "history.picture": N_("The table after move {ply}"),
    "history.players": N_("Players and scores"),
    "history.playing": N_("(playing)"),
    "history.position": N_("{game}: move {ply} of {moves}"),
    "history.previous": N_("Previous"),
    "history.record": N_("Record file"),
    "history.replay": N_("Replay"),
    "history.replay_title": N_("Replay of game {n}"),
    "history.show_live": N_("Show the live game on the table"),
    "history.show_move": N_("Show this move on the table"),
    "history.shown_live": N_("The table shows the live game again."),
    "history.shown_move": N_("The table shows this move; the live game comes back with its next change."),
    "history.title": N_("Past games"),
    "history.too_large": N_("The file is larger than {mb} MB: it is not a game record."),
    "history.undone": N_("taken back: {n}"),
    "history.unfinished": N_("(unfinished)"),
    "history.unfinished_record": N_("Game {n} is not finished: its record holds what the rules hide (the plates and "
                                    "tiles still to come), so it can be downloaded once the game is over."),

    "host.game": N_("Game"),
    "host.kind": N_("Plays"),
    "host.language": N_("Table language"),
    "host.level": N_("Level"),
    "host.login": N_("Host code: hold HOST at the table and choose HOST in the menu; the code shows on the centre panel"),
    "host.login_button": N_("Unlock"),
    "host.name": N_("Name"),
    "host.pin_now": N_("Join code for this game:"),
    "host.players": N_("Players"),
    "host.release": N_("Free this seat"),
    "host.rules": N_("Rules"),
    "host.seats": N_("Number of seats"),
    "host.seats_now": N_("Seats now"),
    "host.start": N_("Start the game"),
    "host.started": N_("New game started. Its join code is {code}."),
    "host.table": N_("Table"),
    "host.title": N_("Set up a game"),

    "join.button": N_("Join"),
    "join.free": N_("free"),
    "join.no_free_seat": N_("No phone seat is free."),
    "join.pick_seat": N_("Pick a free seat first."),
    "join.pin": N_("Join code shown on the table"),
    "join.qr": N_("Scan to open this page on another phone"),
    "join.seat": N_("Seat"),
    "join.taken": N_("taken"),
    "join.title": N_("Join the game"),
    "join.watch": N_("Watch without a seat"),

    "kind.ai": N_("computer"),
    "kind.phone": N_("on a phone"),
    "kind.rig": N_("at the table"),

    "level.easy": N_("easy"),
    "level.hard": N_("hard"),
    "level.normal": N_("normal"),

    "live.board": N_("The table"),
    "live.connection_live": N_("live"),
    "live.connection_polling": N_("reconnecting… (updating every 2 s)"),
    "live.join_prompt": N_("Join a seat"),
    "live.last_moves": N_("Last moves"),
    "live.no_moves": N_("No moves yet"),
    "live.options": N_("Your options"),
    "live.player": N_("Player"),
    "live.restarted": N_("The table was restarted; this phone is still on its seat."),
    "live.round": N_("Round {round}"),
    "live.score": N_("Score"),
    "live.turn": N_("{name} to play: {decision}"),
    "live.watching": N_("Watching (no seat)"),
    "live.you_are": N_("You play {name}"),
    "live.your_turn": N_("Your turn: {decision}"),

    "nav.history": N_("Past games"),
    "nav.host": N_("Host"),
    "nav.join": N_("Join"),
    "nav.live": C_("navigation", "Game"),
    "nav.settings": N_("Settings"),
    "nav.simulator": N_("Simulator"),

    "objective.colourful": N_("Colourful rows"),
    "objective.corners": N_("Corner plates"),
    "objective.diagonals": N_("Diagonals"),
    "objective.horizontal": N_("Horizontal rows"),
    "objective.outer": N_("Outer fields"),
    "objective.special": N_("Special fields"),
    "objective.vertical": N_("Vertical rows"),
    "objective.wild": N_("Wild fields"),

    "option.chip": N_("Bonus chip of Factory {n}"),
    "option.display": N_("Dome plate {n} from the display"),
    "option.draw": N_("Draw from the plate stack"),
    "option.floor": N_("Broken tiles"),
    "option.keep": N_("Keep plate {plate}"),
    "option.line": N_("Pattern line {n}"),
    "option.moon": N_("Moons: {colour}"),
    "option.nopay": N_("Do not use bonus chips"),
    "option.order": N_("Moon stack, bottom first: {colours}"),
    "option.pavilion.bonus": N_("Bonus tile: {colour}"),
    "option.pavilion.centre": N_("Centre: {colour}"),
    "option.pavilion.discard": N_("Discard the rest"),
    "option.pavilion.keep": N_("Keep one tile: {colour}"),
    "option.pavilion.pass": N_("Pass"),
    "option.pavilion.pay": P_("Pay with {n} wild tile", "Pay with {n} wild tiles"),
    "option.pavilion.place": N_("{colour} on {star}, space {space}"),
    "option.pavilion.take": N_("Factory {n}: {colour}"),
    "option.pay": N_("Pay with bonus chips: {chips}"),
    "option.place": N_("Dome slot {slot}, turned {degrees}°"),
    "option.stop": N_("Stop drawing"),
    "option.sun": N_("Factory {n} sun: {colour}"),
    "option.sun_large": N_("Large Factory sun: {colour}"),
    "option.tile": N_("Dome row {row}, column {column}"),
    "option.under": N_("Plate {plate} under the stack"),

    "over.part": N_("Scoring"),
    "over.shared": N_("Shared victory: {names}"),
    "over.title": N_("Game over"),
    "over.total": N_("Total"),
    "over.winner": N_("{names} wins!"),

    "palette.colour-blind": N_("colour-blind friendly"),
    "palette.standard": N_("standard colours"),

    "pending.duel.action": N_("Take tiles, a dome plate or a bonus chip"),
    "pending.duel.draw": N_("Draw from the plate stack, or stop"),
    "pending.duel.keep": N_("Keep one of the drawn plates"),
    "pending.duel.line": N_("Choose a pattern line"),
    "pending.duel.order": N_("Choose the order of the tiles on the moon"),
    "pending.duel.over": N_("Game over"),
    "pending.duel.pay": N_("Pay with bonus chips?"),
    "pending.duel.place": N_("Place the dome plate"),
    "pending.duel.return": N_("Put a plate back under the stack"),
    "pending.duel.setup": N_("Take a starting dome plate"),
    "pending.duel.tile": N_("Choose a dome space for the tile"),
    "pending.other": N_("Decision: {kind}"),
    "pending.pavilion.bonus": N_("Take bonus tiles from the supply"),
    "pending.pavilion.draft": N_("Take tiles from a factory or the centre"),
    "pending.pavilion.keep": N_("Keep up to 4 tiles for the next round"),
    "pending.pavilion.over": N_("Game over"),
    "pending.pavilion.pay": N_("How many wild tiles to pay with"),
    "pending.pavilion.place": N_("Place a tile, or pass"),

    "seat.default": N_("Player {n}"),

    "settings.brightness": N_("Brightness cap (%)"),
    "settings.hints": N_("Allow hints"),
    "settings.language": N_("Language on this phone"),
    "settings.needs_host": N_("Unlock the host page with the PIN first:"),
    "settings.palette": N_("Palette"),
    "settings.save": N_("Save"),
    "settings.saved": N_("Saved."),
    "settings.table": N_("Table (host only)"),
    "settings.title": N_("Settings"),

    "sim.help": N_("The LED panels as the table shows them. Tap a seat's buttons to play with them."),
    "sim.hold": N_("Hold (long press)"),
    "sim.seat": N_("Seat {n}"),
    "sim.title": N_("Simulated table"),

    "star.B": N_("Blue star"),
    "star.C": N_("Centre star"),
    "star.G": N_("Green star"),
    "star.O": N_("Orange star"),
    "star.P": N_("Purple star"),
    "star.R": N_("Red star"),
    "star.Y": N_("Yellow star"),

    "undo.accept": N_("Allow"),
    "undo.asked": N_("{name} asks to undo {label}; waiting for {names}"),
    "undo.asked_you": N_("{name} asks to undo your decision {label}. Do you agree?"),
    "undo.decline": N_("Refuse"),
    "undo.request": N_("Ask to undo the last decision"),
    "undo.waiting": N_("Waiting for {names} to answer your undo request"),
}

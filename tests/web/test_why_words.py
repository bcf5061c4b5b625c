"""Every reason a rules core gives for a refused move has its sentence in every language, with all its
fields filled in, over the reasons of random positions of both games."""
import random

from core_ext import duel, pavilion
from firmware_py import games
from web_remote import i18n
from web_remote.messages import MESSAGES

CORES = {"duel": duel, "pavilion": pavilion}
NAMES = ["Ana", "Bo", "Cy", "Di"]


def reasons(game, count):
    """The first reason of each code met over ``count`` random games: code -> Reason."""
    core, found = CORES[game], {}
    moves = []
    for code in range(400):
        try:
            moves.append(core.Move.from_code(code))
        except ValueError:
            continue
    for seed in range(count):
        played, chooser = games.spec(game).new(2 + seed % (1 if game == "duel" else 3), seed, {}), random.Random(seed)
        while True:
            for move in moves:
                for seat in (None, (played.current_player + 1) % len(played.scores())):
                    reason = played.why_not(move, seat)
                    if reason is not None:
                        found.setdefault(reason.code, reason)
            if played.is_over():
                break
            played.push(chooser.choice(played.legal_moves()))
    return found


def test_every_reason_code_has_its_sentence_key():
    for game, core in CORES.items():
        for code in core.REASONS:
            key = f"why.{code}" if code in ("game_over", "not_your_turn", "other_decision") else f"why.{game}.{code}"
            assert key in MESSAGES, key


def test_the_reasons_of_random_positions_read_as_whole_sentences_in_every_language():
    for game in CORES:
        found = reasons(game, 6)
        assert len(found) >= 15, sorted(found)
        for reason in found.values():
            for language in i18n.LANGUAGES:
                text = i18n.why_text(language, game, reason, NAMES)
                assert text.strip() and "{" not in text and "}" not in text, (game, reason, language, text)

"""Every "Last decision" line is a whole sentence naming who did what, in every language."""
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from core_ext import duel, pavilion
from web_remote import i18n

NAMES = ("Ana", "Bertil", "Chiara", "Duarte")
GAMES = {"duel": duel, "pavilion": pavilion}
NOBODYS = {"en": ("The table", "Round"), "it": ("Il tavolo", "Il round"), "pt": ("A mesa", "A rodada"),
           "sv": ("Bordet", "Omgång"), "zh": ("桌面", "轮")}
"""How a sentence of an event nobody made begins (or, in Chinese, what it names): the table or the round."""
NOTATION = re.compile(r"[A-Z]{2,}|\b[BKRTYGOP]\b|[{}]")
"""Raw notation: colour initials, a run of them, or a field left unfilled."""


def random_decisions(game, seed):
    """(events, state before) of every decision of a game played at random."""
    rng = random.Random(seed)
    position = GAMES[game].Game(seed=seed) if game == "duel" else pavilion.Game(players=rng.choice((2, 3, 4)),
                                                                                 seed=seed)
    while not position.is_over():
        yield position.push(rng.choice(position.legal_moves()))


def check_sentences(game, events, language):
    names = NAMES[:4]
    for event in events:
        key = i18n.event_key(game, event)
        if key is None:
            continue
        [sentence] = i18n.decision_words(language, game, [event], names)
        assert sentence.endswith((".", "。")), (language, sentence)
        assert not NOTATION.search(sentence), (language, sentence)
        if event["player"] is None:
            assert any(word in sentence for word in NOBODYS[language]), (language, sentence)
        else:
            assert names[event["player"]] in sentence, (language, sentence)
        if language != "en":
            english = i18n.decision_words("en", game, [event], names)[0]
            assert sentence != english, f"{key} is not translated into {language}"


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), language=st.sampled_from(sorted(i18n.LANGUAGES)))
def test_every_event_of_a_random_game_is_told_in_a_whole_sentence(game, seed, language):
    for events in random_decisions(game, seed):
        check_sentences(game, events, language)


SAMPLE_FIELDS = {
    "factory": 1, "count": 2, "position": 1, "plate": 0, "slot": 1, "rotation": 0, "order": "RT", "chip": "R",
    "line": 1, "to_tower": 1, "cell": (1, 1), "chips": ["R", "TY"], "broken": 2, "start_tile": True, "round": 1,
    "objective": "diagonals", "space": "B3", "wilds": 1, "structure": "S-Orange/Red", "star": "B", "number": 3,
    "points": -3,
}
"""A value for every field an event can carry, one that makes each event worth a sentence."""


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_every_event_kind_has_a_whole_sentence(game, language):
    """Every kind the rules core lists, also those random games seldom reach (a supply emptied, a star
    scored), has its sentence."""
    module = GAMES[game]
    colour = module.COLOURS[0]
    for kind, fields in module.EVENTS:
        player = None if kind in ("display_refilled", "round_ended", "factories_refilled", "supply_refilled",
                                  "game_over") else 1
        event = {"event": kind, "player": player, **{field: SAMPLE_FIELDS.get(field, colour) for field in fields}}
        if "points" not in event and kind in module.SCORING_EVENTS:
            event["points"] = SAMPLE_FIELDS["points"]
        assert i18n.event_key(game, event) is not None, kind
        check_sentences(game, [event], language)


@pytest.mark.parametrize("game, event", [
    ("duel", {"event": "line_filled", "player": 0, "line": 0, "colour": "R", "count": 2}),
    ("duel", {"event": "penalty", "player": 1, "points": 0}),
    ("pavilion", {"event": "tiles_discarded", "player": 2, "count": 0, "points": 0}),
])
def test_an_event_that_says_nothing_new_has_no_line(game, event):
    assert i18n.event_key(game, event) is None
    assert i18n.decision_words("en", game, [event], NAMES) == []


POINTS = re.compile(r"(Ana|Bertil|Chiara|Duarte) ([+-]\d+)")


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_the_summary_of_every_decision_tells_each_seats_points_and_the_end_of_a_round(game, seed):
    """The action bar's summary of a decision adds up its points per seat as the core counts them, says
    when it ends the round or the game, and else tells what the decision did."""
    for events in random_decisions(game, seed):
        summary = i18n.preview_summary("en", game, events, NAMES, i18n.decision_words("en", game, events, NAMES))
        changes = {}
        for event in events:
            if event.get("points") and event["player"] is not None:
                changes[NAMES[event["player"]]] = changes.get(NAMES[event["player"]], 0) + event["points"]
        told = {name: int(points) for name, points in POINTS.findall(summary)} if summary.startswith("Points:") else {}
        assert told == {name: points for name, points in changes.items() if points}, (summary, events)
        ended = [event for event in events if event["event"] in ("round_ended", "game_over")]
        assert all(i18n.decision_words("en", game, [event], NAMES)[0] in summary for event in ended), summary
        if not told and not ended:
            assert summary == i18n.decision_words("en", game, events, NAMES)[0], summary


def test_a_take_that_ends_the_round_is_summed_up_by_its_points_and_the_round_end():
    events = [{"event": "chip_taken", "player": 0, "factory": 1},
              {"event": "penalty", "player": 1, "broken": 3, "start_tile": True, "points": -4},
              {"event": "round_ended", "player": None, "round": 1},
              {"event": "factories_refilled", "player": None, "round": 2}]
    for language, summary in (("en", "Points: Bertil -4. Round 1 is over."),
                              ("it", "Punti: Bertil -4. Il round 1 è finito.")):
        told = i18n.decision_words(language, "duel", events, NAMES)
        assert i18n.preview_summary(language, "duel", events, NAMES, told) == summary

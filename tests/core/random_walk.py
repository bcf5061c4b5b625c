"""One random game, checked at every step for what every rules core must keep."""
import pytest

from core_ext.errors import IllegalMoveError


def play_checked(game, chooser, *, check_state, illegal_codes, min_options=1):
    """Play ``game`` to its end with ``chooser``'s random options; before every decision check:
    the state's own invariants (``check_state``), an exact JSON round trip, rounds in order,
    at least ``min_options`` options and ``legal_moves`` equal to ``legal_codes``, the pending
    decision and its owner as the state says, every sampled illegal code (``illegal_codes(chooser)``)
    refused with the game unchanged, and a copy that the next move leaves alone."""
    game_type = type(game)
    last_round = 1
    while not game.is_over():
        text = game.to_json()
        state = game.to_dict()
        check_state(state)
        assert game_type.from_json(text).to_json() == text
        assert game.round in (last_round, last_round + 1)
        last_round = game.round
        legal = game.legal_codes()
        assert len(legal) >= min_options
        assert [m.code for m in game.legal_moves()] == legal
        assert game.current_player == state["current_player"] and game.pending == state["pending"]
        for code in illegal_codes(chooser):
            if code not in legal:
                with pytest.raises(IllegalMoveError):
                    game.push_code(code)
                assert game.to_json() == text
        twin = game.copy()
        game.push(chooser.choice(game.legal_moves()))
        assert twin.to_json() == text


def assert_push_accepts_exactly_the_legal(game, codes):
    """Each of ``codes`` pushed on a copy: accepted exactly when it is legal; ``game`` itself unchanged."""
    text = game.to_json()
    legal = set(game.legal_codes())
    for code in codes:
        trial = game.copy()
        try:
            trial.push_code(code)
        except IllegalMoveError:
            assert code not in legal
        else:
            assert code in legal
    assert game.to_json() == text

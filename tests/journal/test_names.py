"""One name policy for every name the table accepts: NFKC, no invisible or controlling characters (named in the
refusal), emoji sequences kept, no name confusable with a player's or a computer player's, and CSV cells
neutralised after NFKC."""
import json
import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from firmware_py.journal import Journal
from firmware_py.profiles import MAX_NAME, ProfileError, clean_name
from firmware_py.records import Record, RecordError
from firmware_py.session import Seat, Setup
from web_remote.exports import cell


@pytest.fixture
def journal(tmp_path):
    kept = Journal(tmp_path)
    yield kept
    kept.close()


@pytest.mark.parametrize("name, character", [
    ("Bo\tb", "U+0009"), ("Bo\nb", "U+000A"), ("\x1b[31mRed", "U+001B"), ("Ana\u2028", "U+2028"),
    ("\u3164", "U+3164 HANGUL FILLER"), ("\u2800", "U+2800 BRAILLE PATTERN BLANK"), ("A\u200bna", "U+200B"),
    ("A\u200dna", "U+200D"), ("Bo\u202eb", "U+202E"), ("Ana\x00", "U+0000"),
])
def test_invisible_and_controlling_characters_are_refused_naming_the_character(journal, name, character):
    with pytest.raises(ProfileError) as refused:
        journal.players.create(name)
    assert refused.value.key == "players.bad_character" and character in refused.value.fields["character"]


@pytest.mark.parametrize("name", ["👩\u200d👩\u200d👧 Fam", "Bo 👍🏽", "🏳\ufe0f\u200d🌈 Cy", "Zoë", "李雷", "Ana-Lima"])
def test_emoji_sequences_and_letters_of_every_script_are_names(journal, name):
    assert journal.players.create(name).name == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize("existing, lookalike", [
    ("Ana", "\u0410na"), ("Ana", "Ａｎａ"), ("Computer (hard)", "Computer (hard)"), ("Computer (easy)", "Cоmputer (easy)"),
    ("Sam", "Ѕam"), ("Eva", "Εva"),
])
def test_names_confusable_with_a_players_or_a_computers_are_refused_naming_the_lookalike(journal, existing, lookalike):
    if not existing.startswith("Computer"):
        journal.players.create(existing)
    with pytest.raises(ProfileError) as refused:
        journal.players.create(lookalike)
    assert refused.value.key in ("players.confusable", "players.name_taken")
    assert existing in (refused.value.fields.get("other"), refused.value.fields.get("name"))


def test_the_setup_an_imported_record_and_a_rename_follow_the_same_policy(journal):
    ana = journal.players.create("Ana")
    bea = journal.players.create("Bea")
    with pytest.raises(ProfileError) as refused:
        journal.players.update(bea.id, name="\u0410na")
    assert refused.value.key == "players.confusable"
    setup = Setup(seats=(Seat(name="Ana"), Seat(name="x")), seed=1)
    record = Record(setup=setup, start=setup.new_game().to_json(), moves=())
    doc = json.loads(record.to_json())
    doc["players"][1]["name"] = "Bo\u3164"
    with pytest.raises(RecordError, match="U\\+3164"):
        Record.from_json(json.dumps(doc))
    assert journal.players.get(ana.id).name == "Ana"


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=MAX_NAME + 4))
def test_any_text_is_refused_with_a_clear_reason_or_kept_visible_and_nfkc(text):
    try:
        name = clean_name(text)
    except ProfileError as error:
        assert error.status == 400 and error.key in (
            "players.bad_character", "players.empty_name", "players.long_name", "players.confusable")
        return
    assert name == unicodedata.normalize("NFKC", name) == name.strip() and "  " not in name
    assert 0 < len(name) <= MAX_NAME
    assert not any(unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") for char in name)
    assert all(char == "\u200d" for char in name if unicodedata.category(char) == "Cf")


@pytest.mark.parametrize("value", ["=2+2", "＝2+2", "﹦1", "＋1", "－1", "＠A", "+1", "-1", "@A", "\t=1"])
def test_a_csv_cell_that_becomes_a_formula_under_nfkc_is_made_plain_text(value):
    assert cell(value) == "'" + value

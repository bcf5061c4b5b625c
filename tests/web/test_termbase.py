"""One word per thing, per language: every catalogue, template and rules text uses the termbase's term for
each thing of the games and the termbase's one form of address (web_remote/termbase.toml), never a synonym
it forbids."""
import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from web_remote import i18n
from web_remote.messages import MESSAGES, Contextual, Plural

ROOT = Path(__file__).resolve().parents[2] / "web_remote"
TERMBASE = tomllib.loads((ROOT / "termbase.toml").read_text(encoding="utf-8"))
SPACED = {"en", "it", "pt", "sv"}  # languages whose words are set apart by spaces; Chinese is matched anywhere
FIELD = re.compile(r"\{[^{}]*\}")  # a field a text fills in ({name}, {colour}, ...) is no word of the text


def pattern(entry: str, language: str, exact_case: bool = False) -> re.Pattern:
    """A forbidden entry as a pattern: a whole word or phrase ("word*": the word and its inflections)."""
    if language not in SPACED:
        return re.compile(re.escape(entry))
    end = r"[\w-]*" if entry.endswith("*") else r"(?![\w-])"
    return re.compile(r"(?<![\w-])" + re.escape(entry.rstrip("*")) + end, 0 if exact_case else re.IGNORECASE)


def forbidden(language: str) -> list:
    """(pattern, what it stands for) of every word ``language`` must not use."""
    found = []
    for name, concept in TERMBASE["terms"].items():
        for entry in concept.get("forbidden", {}).get(language, ()):
            found.append((pattern(entry, language), f"{entry!r} for the {name} (say {concept[language]!r})"))
    address = TERMBASE["address"][language]
    for entry in address.get("forbidden", ()):
        found.append((pattern(entry, language), f"{entry!r}: the texts say {address['form']}"))
    for entry in address.get("forbidden_sentence_start", ()):
        found.append((re.compile(rf"(?:^|[.!?:;]\s+|\n){re.escape(entry)}(?!\w)"),
                      f"{entry!r} opening a sentence: the texts say {address['form']}"))
    for entry in address.get("forbidden_exact_case", ()):
        found.append((pattern(entry, language, exact_case=True), f"{entry!r}: the texts say {address['form']}"))
    return found


def clashes(text: str, language: str) -> list:
    """What ``text`` says that the termbase forbids in ``language``."""
    words = FIELD.sub(" ", text)
    return [why for found, why in forbidden(language) if found.search(words)]


def catalogue_texts(language: str):
    """(msgid, text) of every translation in ``language``'s catalogue (each plural form apart)."""
    path = ROOT / "translations" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as po:
        for message in read_po(po):
            if message.id:
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                yield from ((message.id, text) for text in strings if text)


def english_texts():
    for key, entry in MESSAGES.items():
        if isinstance(entry, Plural):
            yield key, entry.singular
            yield key, entry.plural
        else:
            yield key, entry.text if isinstance(entry, Contextual) else entry


def template_texts():
    """The words a template writes itself (outside its Jinja tags): those are English."""
    for path in sorted((ROOT / "templates").rglob("*.html")):
        source = re.sub(r"\{[{%#].*?[}%#]\}", " ", path.read_text(encoding="utf-8"), flags=re.DOTALL)
        yield str(path.relative_to(ROOT)), re.sub(r"<[^>]*>", " ", source)


def test_the_termbase_has_one_term_per_thing_in_every_language_and_forbids_none_of_its_own_terms():
    languages = set(i18n.LANGUAGES)
    assert set(TERMBASE["address"]) == languages
    for name, concept in TERMBASE["terms"].items():
        assert languages <= set(concept), (name, languages - set(concept))
        assert set(concept["games"]) <= {"duel", "pavilion"} and concept["games"], name
        assert set(concept.get("forbidden", {})) <= languages, name
    for language in languages:
        terms = [concept[language] for concept in TERMBASE["terms"].values()]
        for term in terms:
            assert not clashes(term, language), (language, term, clashes(term, language))


@pytest.mark.parametrize("language, text", [
    ("it", "Prendi una piastrella"), ("it", "Pescare dal mazzo"), ("it", "Lei può prendere"),
    ("pt", "Quem és tu?"), ("pt", "Põe a placa na tua cúpula"), ("pt", "Na ronda 2"), ("pt", "Azulejos quebrados"),
    ("pt", "uma peça de cor {colour}"), ("pt", "Escolhe um espaço."), ("pt", "Fim. Põe-na aqui"), ("pt", "fichas de bónus"), ("sv", "Två jokerbrickor"), ("zh", "请您选择"),
    ("sv", "Ni har tur"),
])
def test_a_forbidden_synonym_or_the_other_form_of_address_is_caught(language, text):
    assert clashes(text, language)


@pytest.mark.parametrize("language, text", [
    ("it", "Prendi una tessera dalla pila di plance"), ("pt", "Você pega uma peça em {colour} da pilha"),
    ("pt", "A rodada termina"), ("pt", "Escolha uma cúpula"), ("sv", "Du tar en vild bricka"),
    ("it", "La tessera va sulla cupola"), ("pt", "a montagem"), ("pt", "Ana escolhe. Escolha você."), ("zh", "你拿瓷砖"),
])
def test_the_terms_themselves_and_words_that_only_begin_alike_pass(language, text):
    assert not clashes(text, language), clashes(text, language)


@pytest.mark.parametrize("language", sorted(set(i18n.LANGUAGES) - {i18n.SOURCE_LANGUAGE}))
def test_every_catalogue_text_keeps_to_the_termbase(language):
    found = [(msgid[:60], text[:120], why) for msgid, text in catalogue_texts(language)
             for why in clashes(text, language)]
    assert not found, "\n".join(map(str, found))


def test_portuguese_never_names_a_colour_right_after_cor():
    """The colour names are nouns ("amarelo"): "uma peça da cor amarelo" does not agree, "uma peça em amarelo"
    does (the termbase cannot say it: a field is no word)."""
    found = [text for _, text in catalogue_texts("pt") if re.search(r"\bcor \{colour\}", text)]
    assert not found, found


def test_every_english_text_and_template_keeps_to_the_termbase():
    found = [(key, text[:120], why) for key, text in [*english_texts(), *template_texts()]
             for why in clashes(text, "en")]
    assert not found, "\n".join(map(str, found))

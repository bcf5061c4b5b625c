"""An update of the phone page changes only what changed, in real headless Chromium: ``Remote.morph`` turns
any children into any others (hypothesis over random trees), keeping the nodes that stay equal; on the live
page every update leaves the board as a fresh drawing of the same state would be, and the moves already
listed keep their nodes (the oldest goes once the list is full)."""
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from firmware_py.session import Play, Seat, Setup
from tests.web.phones import PHONE, base_url, shown
from web_remote.payload import HISTORY_SHOWN

pytest.importorskip("playwright")

# Builds trees of [tag, {attributes}, [children]] (a string is a text node); morphs the first list into the
# second in a parent of its own; returns whether the parent's children are then equal to the second list's
# (attributes in any order), and how many of the old children are still among them.
MORPH = """([before, after]) => {
  const build = (item) => {
    if (typeof item === "string") return document.createTextNode(item);
    const [tag, attributes, children] = item;
    const node = tag === "rect" || tag === "g"
      ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
    Object.entries(attributes).forEach(([name, value]) => node.setAttribute(name, value));
    children.forEach((child) => node.appendChild(build(child)));
    return node;
  };
  const parent = document.createElement("div");
  before.forEach((item) => parent.appendChild(build(item)));
  const old = [...parent.childNodes];
  const wanted = document.createElement("div");
  after.forEach((item) => wanted.appendChild(build(item)));
  Remote.morph(parent, after.map(build));
  const now = [...parent.childNodes];
  return { equal: parent.isEqualNode(wanted), kept: old.filter((node) => now.includes(node)).length };
}"""

TAGS = st.sampled_from(["li", "span", "g", "rect"])
ATTRIBUTES = st.dictionaries(st.sampled_from(["class", "x", "data-hit"]), st.sampled_from(["a", "b", "1"]), max_size=2)
TEXT = st.sampled_from(["", "Ada", "3", "×2"])
TREES = st.recursive(TEXT, lambda children: st.tuples(TAGS, ATTRIBUTES, st.lists(children, max_size=3)).map(list),
                     max_leaves=12)
CHILDREN = st.lists(TREES, max_size=6)


@st.composite
def changes(draw):
    """(before, after, how many of the old children stay): the same list, one child come or gone anywhere (all
    the others stay), or any other list (what stays is not told: None)."""
    before = draw(CHILDREN)
    how = draw(st.sampled_from(["same", "came", "went", "any"]))
    if how == "same":
        return before, list(before), len(before)
    if how == "came":
        at = draw(st.integers(0, len(before)))
        return before, before[:at] + [draw(TREES)] + before[at:], len(before)
    if how == "went" and before:
        at = draw(st.integers(0, len(before) - 1))
        return before, before[:at] + before[at + 1:], len(before) - 1
    return before, draw(CHILDREN), None


def watched(browser, start_table, game, seats):
    """The live page of a new table of ``game`` with ``seats`` phones, watched by a phone holding no seat; the
    running table as its ``running``."""
    names = ("Ada", "Bo", "Cy", "Di")[:seats]
    remote, running = start_table(Setup(game=game, seats=tuple(Seat("phone", name) for name in names), seed=4))
    opened = browser.new_context(base_url=base_url(remote), **PHONE).new_page()
    opened.goto("/")
    shown(opened, running.session.snapshot.version)
    opened.running = running
    return opened


@pytest.fixture
def scripts_page(browser, start_table):
    """A page of the remote, with its scripts loaded."""
    return watched(browser, start_table, "duel", 2)


@pytest.fixture(params=[("duel", 2), ("pavilion", 3)], ids=lambda value: f"{value[0]}-{value[1]}")
def live_page(browser, start_table, request):
    return watched(browser, start_table, *request.param)


# One page for all the examples: each builds nodes of its own, apart from the page's.
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(change=changes())
def test_morph_turns_any_children_into_any_others_and_keeps_all_but_what_changed(scripts_page, change):
    before, after, staying = change
    result = scripts_page.evaluate(MORPH, [before, after])
    assert result["equal"]
    if staying is not None:
        assert result["kept"] >= staying


# The board as drawn on the page against a fresh drawing of the same state in a parent of its own; the moves
# listed that were listed before, still the same nodes.
SAME_AS_FRESH = """async () => {
  const payload = await (await fetch("/api/state")).json();
  const fresh = Board.draw(document.createElement("div"), payload);
  const listed = [...document.querySelectorAll("#history li")];
  return {
    version: payload.version,
    same: document.getElementById("board").childElementCount === fresh.childElementCount
      && [...fresh.children].every((part, index) => part.isEqualNode(document.getElementById("board").children[index])),
    kept: listed.filter((item) => item.keptFrom !== undefined).length,
    before: window.listedBefore ?? 0,
    listed: listed.length,
  };
}"""
TAG_LISTED = """() => {
  const listed = [...document.querySelectorAll("#history li:not(.empty)")];
  listed.forEach((item, index) => { item.keptFrom = index; });
  window.listedBefore = listed.length;
}"""


def test_every_update_leaves_the_board_as_a_fresh_drawing_and_the_listed_moves_in_place(live_page):
    page = live_page
    session = page.running.session
    for _ in range(40):
        snapshot = session.snapshot
        page.evaluate(TAG_LISTED)
        session.call(Play(snapshot.current_player, snapshot.options[len(snapshot.history) % len(snapshot.options)]))
        shown(page, session.snapshot.version)
        result = page.evaluate(SAME_AS_FRESH)
        assert result["version"] == session.snapshot.version
        assert result["same"], json.dumps(result)
        assert result["listed"] == min(len(session.snapshot.history), HISTORY_SHOWN)
        # Every move listed before stays, but the oldest once the list is full.
        assert result["kept"] == min(result["before"], HISTORY_SHOWN - 1), "a move listed before was drawn again"

"use strict";
// A first game (a seat set up or joined as "learning"): before each kind of decision first comes up for
// the player, the phone explains it over a copy of the board as it stands, its choices outlined; after
// each round it tells what scored and why; and the hint's best choice is outlined without asking, unless
// the player turns that off. The overlay has three states, "closed", "explaining" a decision kind and
// "round" (a round's scoring); every one of them leads back to the game with one touch.
const Learn = (() => {
  const SEEN_KEY = "azul.learned"; // {"<who>:<game>": [decision kinds explained]}
  const AUTO_HINT_KEY = "azul.auto_hint"; // "off" when the player turned the outlined best choice off
  const $ = (id) => document.getElementById(id);
  let state = { name: "closed" };
  let lastRound = null; // "<game_id> <run>" -> the round the phone last saw, to notice a round's end
  let toTell = null; // a round that ended and whose scoring is still to be shown
  let autoAsked = null; // the position an automatic hint was asked for (once per position)

  const dialog = () => $("learn");

  function seen() {
    try {
      return JSON.parse(localStorage.getItem(SEEN_KEY)) || {};
    } catch {
      return {};
    }
  }

  // A player is known by their profile across games; a player without one by their seat in this game.
  const whoOf = (payload, mine) => {
    const player = payload.seats[mine].player;
    return `${player !== null && player !== undefined ? `p${player}` : `s${payload.game_id}.${mine}`}:${payload.game}`;
  };

  function explained(payload, mine, kind) {
    return (seen()[whoOf(payload, mine)] || []).includes(kind);
  }

  function markExplained(payload, mine, kind) {
    const all = seen();
    const key = whoOf(payload, mine);
    all[key] = [...new Set([...(all[key] || []), kind])];
    localStorage.setItem(SEEN_KEY, JSON.stringify(all));
  }

  const autoHint = () => localStorage.getItem(AUTO_HINT_KEY) !== "off";

  function open(next, nodes) {
    state = next;
    $("learn-body").replaceChildren(...nodes);
    $("learn-board").replaceChildren();
    if (next.name === "explaining") {
      // The board as it stands, its choices outlined as on the live drawing above.
      [...$("board").children].forEach((part) => $("learn-board").appendChild(part.cloneNode(true)));
    }
    $("learn-board").hidden = next.name !== "explaining";
    if (!dialog().open) dialog().showModal();
  }

  function close() {
    state = { name: "closed" };
    if (dialog().open) dialog().close();
  }

  // The overlay for ``payload``, then the page says which version the overlay has caught up with.
  let latest = null; // the newest payload's version: an answer that comes after a newer payload is dropped
  async function update(payload, mine, askHint) {
    latest = payload.version;
    await decide(payload, mine, askHint);
    if (latest === payload.version) document.body.dataset.learnVersion = String(payload.version); // caught up
  }

  // A round's scoring first (it happened before), then the decision.
  async function decide(payload, mine, askHint) {
    const learner = mine !== null && payload.seats[mine] && payload.seats[mine].learning;
    $("auto-hint-row").hidden = !learner || !payload.settings.hints;
    if (!learner) {
      close();
      return;
    }
    const game = `${payload.game_id} ${payload.run}`;
    const round = payload.over ? payload.rounds : payload.round - 1; // the last round that ended
    if (lastRound !== null && lastRound.game === game && round > lastRound.round && payload.journal_game !== null
        && payload.journal_game !== undefined) {
      toTell = { path: `/history/${payload.journal_game}/rounds/${round}`, round };
    }
    lastRound = { game, round };
    const yours = !payload.over && payload.current_player === mine;
    if (toTell !== null && state.name !== "round") {
      const telling = toTell;
      const nodes = await Remote.fragment(telling.path).catch(() => null);
      if (nodes && latest === payload.version && toTell === telling) { // else told with a later payload
        toTell = null;
        open({ name: "round", round: telling.round }, nodes);
      }
      return;
    }
    if (state.name === "round") return; // read first; closing it brings the decision's explanation
    if (state.name === "explaining" && (!yours || state.kind !== payload.pending)) {
      markExplained(state.payload, state.mine, state.kind); // the decision was made: it has been met
      close();
    }
    const explaining = () => state.name === "explaining" && state.kind === payload.pending;
    if (yours && !explained(payload, mine, payload.pending) && !explaining()) {
      const nodes = await Remote.fragment(`/rules/${payload.game}/explain/${payload.pending}`).catch(() => null);
      // Only the newest payload's answer opens it (an older one may have been overtaken by the game).
      if (nodes && latest === payload.version && !explaining() && state.name === "closed") {
        open({ name: "explaining", kind: payload.pending, payload, mine }, nodes);
      }
    }
    const position = `${payload.game_id} ${payload.run} ${payload.moves}`;
    const waiting = payload.hint !== null && payload.hint.seat === mine;
    if (yours && autoHint() && payload.settings.hints && !waiting && autoAsked !== position) {
      autoAsked = position;
      askHint();
    }
  }

  // "Got it" (or Escape, or a touch outside the card) closes the overlay; an explanation is then met.
  function dismiss(redraw) {
    if (state.name === "explaining") markExplained(state.payload, state.mine, state.kind);
    close();
    redraw();
  }

  function attach(redraw) {
    $("learn-close").addEventListener("click", () => dismiss(redraw));
    dialog().addEventListener("cancel", (event) => {
      event.preventDefault();
      dismiss(redraw);
    });
    dialog().addEventListener("click", (event) => {
      if (event.target === dialog()) dismiss(redraw);
    });
    $("auto-hint").checked = autoHint();
    $("auto-hint").addEventListener("change", () => {
      localStorage.setItem(AUTO_HINT_KEY, $("auto-hint").checked ? "on" : "off");
      redraw();
    });
  }

  return { update, attach, state: () => state.name };
})();

"use strict";
// The live view: follows the table through server-sent events (polling while the stream is down),
// draws it, lets the seat play by touching the board (touch.js), with the options also as a list.
// What the seat can do now (Confirm, Back, Pass, Hint, Undo) and what came of its touches stay in the
// action bar at the bottom of the screen, where the thumb is.
(() => {
  const { t, call, element } = Remote;
  const POLL_MS = 2000;
  const RECONNECT_MS = 30000; // a stream the server refused (503 when too many are open) is tried again this late
  let payload = null;
  let held = Remote.seat();
  let pollTimer = null;
  let wasMyTurn = false;
  const baseTitle = document.title;

  const $ = (id) => document.getElementById(id);

  // What came of this phone's last action (a refused move or undo), in the action bar.
  function say(text, kind = "error") {
    Remote.show(text, kind, "feedback");
  }

  function isMyTurn(mine) {
    return mine !== null && !payload.over && payload.current_player === mine;
  }

  function mySeat() {
    return held && payload && held.game_id === payload.game_id ? held.seat : null;
  }

  function seatName(seat) {
    return payload.seats[seat].name;
  }

  function renderStatus(mine) {
    $("title").textContent = payload.title;
    $("round").textContent = payload.round ? t("live.round", { round: payload.round, rounds: payload.rounds }) : "";
    $("who").textContent = mine === null ? t("live.watching") : t("live.you_are", { name: seatName(mine) });
    const current = payload.current_player;
    let turn = t("over.title");
    if (!payload.over && current !== null) {
      turn = current === mine
        ? t("live.your_turn", { decision: payload.pending_label })
        : t("live.turn", { name: seatName(current), decision: payload.pending_label });
    }
    $("turn").textContent = turn;
    // The rules section of the decision on the table (its anchor is the decision's kind).
    $("rules-help").hidden = payload.over || current === null;
    $("rules-link").href = `/rules/${payload.game}#${payload.pending}`;
    $("join-link").hidden = mine !== null;
    const myTurn = isMyTurn(mine);
    document.title = myTurn ? `▶ ${t("live.your_turn_title")} – ${baseTitle}` : baseTitle;
    if (myTurn && !wasMyTurn && navigator.vibrate) navigator.vibrate(200);
    wasMyTurn = myTurn;
    $("last").hidden = !payload.last;
    if (payload.last) $("last-words").textContent = payload.last.words.join(" ") || payload.history[payload.history.length - 1].label;
  }

  function renderScores() {
    const rows = payload.seats.map((seat, index) => {
      const row = element("tr", { "data-seat": index, class: index === payload.current_player ? "turn" : "" });
      row.appendChild(element("td", {}, `${seat.name} (${seat.kind_label})`));
      row.appendChild(element("td", { class: "score" }, String(seat.score)));
      return row;
    });
    Remote.morph($("scoreboard").tBodies[0], rows);
  }

  // Each objective in play, its points per player so far, and a link to its rules section.
  function renderObjectives() {
    $("objectives").hidden = !payload.objectives.length;
    Remote.morph($("objective-list"), payload.objectives.map((objective) => {
      const item = element("li", {});
      item.appendChild(element("a", { href: `/rules/${payload.game}#objective_${objective.name}` }, objective.label));
      const values = objective.points.map((points, seat) => `${seatName(seat)}: ${points}`).join(" · ");
      item.appendChild(element("span", { class: "objective-points" }, ` ${values}`));
      return item;
    }));
  }

  async function play(option, buttons) {
    buttons.forEach((button) => { button.disabled = true; });
    try {
      await call("/api/move", { body: { option, version: payload.version }, seatToken: held.token });
      say("");
    } catch (error) {
      refused(error);
      buttons.forEach((button) => { button.disabled = false; });
    }
  }

  // A seat command was refused: say why, unless the seat is no longer this phone's.
  function refused(error) {
    if (error.status === 403 && error.code === "seat_not_held") seatFreed();
    else say(error.message);
  }

  // A touch on a part of the board that is not outlined: the table's reason why not, in a sentence next
  // to the part (a phone without a seat, or waiting for its turn, is told whose turn it is).
  let whyShown = 0;
  async function whyNot(notation, part) {
    const mine = mySeat();
    if (mine === null || payload.over) return;
    const shown = ++whyShown;
    let text = t("live.touch_prompt");
    if (payload.current_player !== mine) {
      text = t("why.not_your_turn", { current: seatName(payload.current_player) });
    } else if (notation !== null) {
      try {
        const answer = await call("/api/why", { body: { option: notation }, seatToken: held.token });
        text = answer.legal ? t("live.touch_next") : answer.text;
      } catch (error) {
        refused(error);
        return;
      }
    }
    if (shown !== whyShown) return; // a later touch is being answered
    const note = $("why-not");
    note.textContent = text;
    note.hidden = false;
    const box = (part || $("board")).getBoundingClientRect();
    const width = Math.min(note.offsetWidth, document.documentElement.clientWidth - 8);
    const left = Math.max(4, Math.min(box.left + box.width / 2 - width / 2, document.documentElement.clientWidth - width - 4));
    // Under the part; over it where under it would be under the action bar or off the screen.
    const floor = freeBottom();
    let top = box.bottom + 4;
    if (top + note.offsetHeight > floor) top = box.top - note.offsetHeight - 4;
    top = Math.max(0, Math.min(top, floor - note.offsetHeight));
    note.style.setProperty("--why-left", `${left + window.scrollX}px`);
    note.style.setProperty("--why-top", `${top + window.scrollY}px`);
    setTimeout(() => { if (shown === whyShown) note.hidden = true; }, WHY_SHOWN_MS);
  }

  // Where the page stops being visible: the top of the action bar over its foot, while it shows (as this
  // update leaves it: the bar's own observer would show or hide it only after the update).
  function freeBottom() {
    fitActionBar();
    const bar = $("action-bar");
    return bar.hidden ? window.innerHeight : Math.min(window.innerHeight, bar.getBoundingClientRect().top);
  }

  // The host freed this phone's seat: it forgets the seat and goes back to the join page, which says so.
  function seatFreed() {
    Remote.setSeat(null);
    held = null;
    Remote.leaveNote("join.freed");
    window.location.assign("/join");
  }

  function wasFreed() {
    const seat = held && held.game_id === payload.game_id ? payload.seats[held.seat] : null;
    return Boolean(seat) && !seat.taken;
  }

  function renderOptions(mine) {
    const yours = isMyTurn(mine);
    $("options-section").hidden = !yours;
    if (!yours) {
      $("options").replaceChildren();
      return;
    }
    // The list is the accessible alternative to touching the board, collapsed by default.
    const buttons = payload.options.map((option) => {
      const button = element("button", { type: "button", class: "option big", "data-option": option.notation });
      button.appendChild(element("span", { class: "option-label" }, option.label));
      return button;
    });
    buttons.forEach((button) => button.addEventListener("click", () => play(button.dataset.option, buttons)));
    $("options").replaceChildren(...buttons);
  }

  const WHY_SHOWN_MS = 5000;

  // The public state says only that a seat's hint came; its phone alone fetches what it is.
  // Until it comes, the hint's line says the computer is thinking about this position.
  let hintShown = null;
  let hintAsked = null; // the position this seat asked a hint for, while the hint has not come
  const position = () => `${payload.game_id} ${payload.run} ${payload.moves}`;

  async function renderHint(mine) {
    const yours = isMyTurn(mine);
    const ready = yours && payload.hint !== null && payload.hint.seat === mine;
    if (!yours || ready || hintAsked !== position()) hintAsked = null;
    $("hint-request").hidden = !yours || !payload.settings.hints || ready || hintAsked !== null;
    if (!ready) {
      hintShown = null;
      $("hint-text").hidden = hintAsked === null;
      $("hint-text").textContent = t("hint.thinking");
      return;
    }
    if (hintShown === payload.version) return;
    hintShown = payload.version;
    try {
      const { hint } = await call("/api/hint", { method: "GET", seatToken: held.token });
      $("hint-text").hidden = hint === null;
      if (hint !== null) $("hint-text").textContent = t("hint.text", { label: hint.label });
      controller.hint(hint === null ? null : hint.notation);
    } catch (error) {
      refused(error);
    }
  }

  async function askHint() {
    hintAsked = position();
    renderHint(mySeat());
    try {
      await call("/api/hint", { body: {}, seatToken: held.token });
    } catch (error) {
      hintAsked = null;
      renderHint(mySeat());
      refused(error);
    }
  }

  // Undo first says what it would take back (or why nothing can be) and asks "Yes" before it acts; an
  // undo request from anyone, or any new decision, closes that question.
  let offering = null; // the table's version when this phone's Undo was touched, while its question shows
  function renderUndo(mine) {
    const request = payload.undo_request;
    const button = $("undo-request");
    const offer = payload.undo && mine !== null ? payload.undo[mine] : null;
    $("undo").hidden = request === null;
    button.hidden = mine === null || payload.over || request !== null || (!offer && payload.moves === 0);
    button.dataset.possible = String(!offer || offer.possible); // touched anyway, it says why not
    if (button.hidden || offering !== payload.version) offering = null;
    $("undo-offer").hidden = offering === null;
    $("action-bar").classList.toggle("offering", offering !== null);
    if (offering !== null) {
      $("undo-offer-text").textContent = offer ? offer.words : t("undo.request");
      $("undo-offer-agree").textContent = offer && offer.agree ? offer.agree : "";
      $("undo-offer-agree").hidden = !(offer && offer.agree);
      $("undo-send").hidden = Boolean(offer) && !offer.possible;
      $("undo-send").textContent = t(offer && offer.agree ? "undo.ask" : "undo.take_back");
    }
    if (request === null) return;
    const waiting = request.waiting.filter((seat) => !request.agreed.includes(seat));
    const names = waiting.map(seatName).join(", ");
    const answering = mine !== null && waiting.includes(mine);
    const fields = { name: seatName(request.seat), label: request.label, names };
    let text = t("undo.asked", fields);
    if (mine === request.seat) text = t("undo.waiting", fields);
    else if (answering && request.decision_seat === mine) text = t("undo.asked_you", fields);
    $("undo-text").textContent = text;
    $("undo-accept").hidden = !answering;
    $("undo-decline").hidden = !answering;
  }

  function offerUndo(open) {
    offering = open ? payload.version : null;
    renderUndo(mySeat());
    if (open) $("undo-offer").scrollIntoView({ block: "nearest" });
  }

  // A new game: a rematch keeps this phone's seat (the token still holds it), any other game does not.
  let checking = null;
  async function recheckSeat() {
    if (checking === held.token) return;
    checking = held.token;
    try {
      const me = await call("/api/me", { method: "GET", seatToken: held.token });
      if (held && me.game_id === payload.game_id) {
        held = { ...held, seat: me.seat, game_id: me.game_id };
        Remote.setSeat(held);
        render(payload);
      }
    } catch (error) {
      if (error.status === 401 || error.status === 403) {
        Remote.setSeat(null);
        held = null;
        render(payload);
      }
    } finally {
      checking = null;
    }
  }

  async function rematch() {
    $("rematch").disabled = true;
    try {
      const answer = await call("/api/host/rematch", { body: {}, host: Remote.hostToken() });
      say(t("over.rematch_started", { code: answer.join_code }), "info");
    } catch (error) {
      say(error.message);
    } finally {
      $("rematch").disabled = false;
    }
  }

  // The rematch button is for the host of this game only (any tab of the browser that unlocked the host
  // page holds its token): a stored host token is checked once a game.
  let hostOf = { game_id: null, host: false };
  function renderRematch() {
    const token = Remote.hostToken();
    if (payload.over && token && hostOf.game_id !== payload.game_id) {
      hostOf = { game_id: payload.game_id, host: false };
      call("/api/host/join-code", { method: "GET", host: token }).then((answer) => {
        if (answer.game_id !== payload.game_id) return;
        hostOf = { game_id: answer.game_id, host: true };
        renderRematch();
      }).catch(() => {});
    }
    $("rematch").hidden = !payload.over || !token || !(hostOf.game_id === payload.game_id && hostOf.host);
  }

  function renderOver() {
    $("over").hidden = !payload.over;
    renderRematch();
    renderStory();
    if (!payload.over) return;
    const names = payload.winners.map(seatName).join(", ");
    $("winners").textContent = payload.winners.length > 1 ? t("over.shared", { names }) : t("over.winner", { names });
    const labels = [];
    payload.breakdown.forEach((parts) => parts.forEach((part) => {
      if (!labels.includes(part.label)) labels.push(part.label);
    }));
    const head = element("tr");
    head.appendChild(element("th", {}, t("over.part")));
    payload.seats.forEach((seat) => head.appendChild(element("th", {}, seat.name)));
    const rows = labels.map((label) => {
      const row = element("tr");
      row.appendChild(element("td", {}, label));
      payload.breakdown.forEach((parts) => {
        const part = parts.find((item) => item.label === label);
        row.appendChild(element("td", { class: "score" }, part ? String(part.points) : "–"));
      });
      return row;
    });
    const total = element("tr", { class: "total" });
    total.appendChild(element("th", {}, t("over.total")));
    payload.seats.forEach((seat) => total.appendChild(element("th", { class: "score" }, String(seat.score))));
    $("breakdown").replaceChildren(head, ...rows, total);
    $("breakdown").dataset.seats = String(payload.seats.length);
    fitNames();
    $("rating-changes").hidden = !payload.ratings.length;
    $("rating-list").replaceChildren(...payload.ratings.map((change) => element("li", {}, change.words)));
  }

  // The seats' names head the score table's columns; where one of them cannot stand whole across its column
  // (on a phone, four seats share the width), they all run down their columns instead of breaking mid-word.
  function fitNames() {
    const table = $("breakdown");
    table.classList.remove("turned");
    const names = [...(table.rows[0]?.cells ?? [])].slice(1);
    if (names.some((cell) => cell.scrollWidth > cell.clientWidth + 1)) table.classList.add("turned");
  }
  window.addEventListener("resize", () => { if (payload?.over) fitNames(); });

  // The finished game's charts come drawn from the past games' pages (the journal's game), once per game.
  let storyShown = null;
  function renderStory() {
    const game = payload.over ? payload.journal_game : null;
    if (game === storyShown) return;
    storyShown = game;
    $("story-charts").replaceChildren();
    if (game === null || game === undefined) return;
    Remote.fragment(`/history/${game}/story`).then((nodes) => {
      if (nodes && storyShown === game) $("story-charts").replaceChildren(...nodes);
    }).catch(() => { storyShown = null; });
  }

  function renderHistory() {
    if (!payload.history.length) {
      Remote.morph($("history"), [element("li", { class: "empty" }, t("live.no_moves"))]);
      return;
    }
    const items = payload.history.slice().reverse().map((entry) => {
      const item = element("li", { value: entry.number });
      item.appendChild(element("span", { class: "who" }, `${seatName(entry.seat)}: `));
      item.appendChild(element("span", { class: "move-label" }, entry.label));
      return item;
    });
    Remote.morph($("history"), items);
  }

  function render(next) {
    // Versions count within one run of the table: after a restart a lower one is news, not stale.
    if (payload && next.game_id === payload.game_id && next.run === payload.run && next.version < payload.version) return;
    if (payload && next.game_id !== payload.game_id) window.scrollTo(0, 0);  // a new game is read from its top
    payload = next;
    $("offline").hidden = true;
    if (wasFreed()) {
      seatFreed();
      return;
    }
    if (held && held.game_id !== payload.game_id) recheckSeat();
    const mine = mySeat();
    renderStatus(mine);
    renderScores();
    renderObjectives();
    renderOptions(mine);
    renderHint(mine);
    renderUndo(mine);
    renderOver();
    renderHistory();
    renderRestarted(mine);
    controller.update(payload, mine);
    Learn.update(payload, mine, askHint);
    document.body.dataset.version = String(payload.version);
  }

  // After a restart a phone seated before it is told that it kept its seat (the table says until when:
  // the first decision since); one seated in this run of the table has nothing to be told.
  function renderRestarted(mine) {
    $("restarted").hidden = !(payload.restarted && mine !== null && held.run !== payload.run);
  }

  // The bar shows while it holds anything but buttons that cannot be used now.
  function fitActionBar() {
    const bar = $("action-bar");
    const usable = (button) => !button.hidden && !button.disabled && button.dataset.possible !== "false";
    const useful = [...bar.children].some((part) => !part.hidden && (part.id !== "tools" || [...part.children].some(usable)));
    if (bar.hidden === useful) bar.hidden = !useful; // only a change: the bar's own observer sees this
  }

  // The page keeps room below its end, the bar's height as laid out (none while it is hidden), so that nothing
  // stays under the bar. Set only when it changes: a property of the root restyles the whole page.
  function keepRoomForBar([seen]) {
    const height = `${seen.borderBoxSize[0].blockSize}px`;
    const root = document.documentElement.style;
    if (root.getPropertyValue("--action-bar-height") !== height) root.setProperty("--action-bar-height", height);
  }

  function setLive(isLive) {
    $("connection").textContent = isLive ? t("live.connection_live") : t("live.connection_polling");
    $("connection").className = isLive ? "connection live" : "connection polling";
    if (isLive && pollTimer !== null) {
      clearInterval(pollTimer);
      pollTimer = null;
    } else if (!isLive && pollTimer === null) {
      pollTimer = setInterval(poll, POLL_MS);
    }
  }

  async function poll() {
    try {
      render(await call("/api/state", { method: "GET" }));
    } catch (error) {
      Remote.show(error.message, "error", "offline");
    }
  }

  function connect() {
    const source = new EventSource("/api/events");
    source.onmessage = (event) => {
      setLive(true);
      render(JSON.parse(event.data));
    };
    source.onerror = () => {
      setLive(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, RECONNECT_MS);
    };
  }

  async function undo(path, body) {
    try {
      await call(path, { body, seatToken: held.token });
      say("");
    } catch (error) {
      refused(error);
    }
  }

  const controller = Touch.create({
    root: $("board"),
    panel: $("controls"),
    onConfirm: (notation) => play(notation, [...document.querySelectorAll("#controls button, #options button")]),
    onStepBack: () => undo("/api/back", {}),
    onRefused: whyNot,
    freeBottom,
  });
  $("hint-request").addEventListener("click", askHint);
  Learn.attach(() => render(payload));
  $("rematch").addEventListener("click", rematch);
  $("undo-request").addEventListener("click", () => offerUndo(true));
  $("undo-cancel").addEventListener("click", () => offerUndo(false));
  $("undo-send").addEventListener("click", () => {
    offerUndo(false);
    undo("/api/undo", {});
  });
  $("undo-accept").addEventListener("click", () => undo("/api/undo/answer", { accept: true }));
  $("undo-decline").addEventListener("click", () => undo("/api/undo/answer", { accept: false }));
  const barWatch = { attributes: true, attributeFilter: ["hidden", "disabled"], childList: true, subtree: true };
  new MutationObserver(fitActionBar).observe($("action-bar"), barWatch);
  new ResizeObserver(keepRoomForBar).observe($("action-bar"));
  setLive(false);
  poll();
  connect();
})();

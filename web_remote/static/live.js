"use strict";
// The live view: follows the table through server-sent events (polling while the stream is down),
// draws it, lets the seat play by touching the board (touch.js), with the options also as a list.
(() => {
  const { t, show, call, element } = Remote;
  const POLL_MS = 2000;
  const RECONNECT_MS = 30000; // a stream the server refused (503 when too many are open) is tried again this late
  let payload = null;
  let held = Remote.seat();
  let pollTimer = null;
  let wasMyTurn = false;
  const baseTitle = document.title;

  const $ = (id) => document.getElementById(id);

  function mySeat() {
    return held && payload && held.game_id === payload.game_id ? held.seat : null;
  }

  function seatName(seat) {
    return payload.seats[seat].name;
  }

  function renderStatus(mine) {
    $("title").textContent = payload.title;
    $("round").textContent = payload.round ? t("live.round", { round: payload.round }) : "";
    $("who").textContent = mine === null ? t("live.watching") : t("live.you_are", { name: seatName(mine) });
    const current = payload.current_player;
    let turn = t("over.title");
    if (!payload.over && current !== null) {
      turn = current === mine
        ? t("live.your_turn", { decision: payload.pending_label })
        : t("live.turn", { name: seatName(current), decision: payload.pending_label });
    }
    $("turn").textContent = turn;
    $("join-link").hidden = mine !== null;
    const myTurn = !payload.over && current !== null && current === mine;
    document.title = myTurn ? `▶ ${t("live.your_turn_title")} – ${baseTitle}` : baseTitle;
    if (myTurn && !wasMyTurn && navigator.vibrate) navigator.vibrate(200);
    wasMyTurn = myTurn;
    $("last").hidden = !payload.last;
    if (payload.last) $("last-words").textContent = payload.last.words.join("; ") || payload.last.notation;
  }

  function renderScores() {
    const rows = payload.seats.map((seat, index) => {
      const row = element("tr", { "data-seat": index, class: index === payload.current_player ? "turn" : "" });
      row.appendChild(element("td", {}, `${seat.name} (${seat.kind_label})`));
      row.appendChild(element("td", { class: "score" }, String(seat.score)));
      return row;
    });
    $("scoreboard").tBodies[0].replaceChildren(...rows);
  }

  async function play(option, buttons) {
    buttons.forEach((button) => { button.disabled = true; });
    try {
      await call("/api/move", { body: { option, version: payload.version }, seatToken: held.token });
      show("");
    } catch (error) {
      show(error.message);
      buttons.forEach((button) => { button.disabled = false; });
    }
  }

  function renderOptions(mine) {
    const yours = mine !== null && !payload.over && payload.current_player === mine;
    $("options-section").hidden = !yours;
    if (!yours) {
      $("options").replaceChildren();
      return;
    }
    // The list is the accessible alternative to touching the board, collapsed by default.
    const buttons = payload.options.map((option) => {
      const button = element("button", { type: "button", class: "option big", "data-option": option.notation });
      button.appendChild(element("span", { class: "option-label" }, option.label));
      button.appendChild(element("span", { class: "notation" }, option.notation));
      return button;
    });
    buttons.forEach((button) => button.addEventListener("click", () => play(button.dataset.option, buttons)));
    $("options").replaceChildren(...buttons);
  }

  // The public state says only that a seat's hint came; its phone alone fetches what it is.
  let hintShown = null;
  async function renderHint(mine) {
    const yours = mine !== null && !payload.over && payload.current_player === mine;
    const ready = payload.hint !== null && payload.hint.seat === mine;
    $("hint-request").hidden = !yours || !payload.settings.hints || ready;
    if (!ready) {
      hintShown = null;
      $("hint-text").hidden = true;
      return;
    }
    if (hintShown === payload.version) return;
    hintShown = payload.version;
    try {
      const { hint } = await call("/api/hint", { method: "GET", seatToken: held.token });
      $("hint-text").hidden = hint === null;
      if (hint !== null) $("hint-text").textContent = t("hint.text", { label: hint.label, notation: hint.notation });
      controller.hint(hint === null ? null : hint.notation);
    } catch (error) {
      show(error.message);
    }
  }

  async function askHint() {
    $("hint-request").disabled = true;
    try {
      await call("/api/hint", { body: {}, seatToken: held.token });
      show(t("hint.thinking"), "info");
    } catch (error) {
      show(error.message);
    } finally {
      $("hint-request").disabled = false;
    }
  }

  function renderUndo(mine) {
    const request = payload.undo_request;
    $("undo").hidden = request === null;
    $("undo-request").hidden = mine === null || payload.over || payload.moves === 0 || request !== null;
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
      show(t("over.rematch_started", { code: answer.join_code }), "info");
    } catch (error) {
      show(error.message);
    } finally {
      $("rematch").disabled = false;
    }
  }

  // The rematch button is for the host of this game only: a stored host token is checked once a game.
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
  }

  function renderHistory() {
    if (!payload.history.length) {
      $("history").replaceChildren(element("li", { class: "empty" }, t("live.no_moves")));
      return;
    }
    const items = payload.history.slice().reverse().map((entry) => {
      const item = element("li", { value: entry.number });
      item.appendChild(element("span", { class: "who" }, `${seatName(entry.seat)}: `));
      item.appendChild(element("span", { class: "notation" }, entry.notation));
      item.appendChild(element("span", { class: "move-label" }, ` (${entry.label})`));
      return item;
    });
    $("history").replaceChildren(...items);
  }

  function render(next) {
    // Versions count within one run of the table: after a restart a lower one is news, not stale.
    if (payload && next.game_id === payload.game_id && next.run === payload.run && next.version < payload.version) return;
    payload = next;
    if (held && held.game_id !== payload.game_id) recheckSeat();
    const mine = mySeat();
    renderStatus(mine);
    renderScores();
    renderOptions(mine);
    renderHint(mine);
    renderUndo(mine);
    renderOver();
    renderHistory();
    $("restarted").hidden = !(payload.restarted && mine !== null);
    controller.update(payload, mine);
    document.body.dataset.version = String(payload.version);
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
      show(error.message);
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
      show("");
    } catch (error) {
      show(error.message);
    }
  }

  const controller = Touch.create({
    root: $("board"),
    panel: $("controls"),
    onConfirm: (notation) => play(notation, [...document.querySelectorAll("#controls button, #options button")]),
    onStepBack: () => undo("/api/back", {}),
  });
  $("hint-request").addEventListener("click", askHint);
  $("rematch").addEventListener("click", rematch);
  $("undo-request").addEventListener("click", () => undo("/api/undo", {}));
  $("undo-accept").addEventListener("click", () => undo("/api/undo/answer", { accept: true }));
  $("undo-decline").addEventListener("click", () => undo("/api/undo/answer", { accept: false }));
  setLive(false);
  poll();
  connect();
})();

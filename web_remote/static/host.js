"use strict";
// The host's setup wizard: unlocked with a host code from the rig, starts a new game with a fresh join code and tokens.
(() => {
  const { t, show, call, element } = Remote;
  const $ = (id) => document.getElementById(id);
  const JOIN_CODE_MS = 10000; // the table draws a new join code when wrong ones pile up: shown here within this
  let joinCodeTimer = null;
  let profiles = null; // GET /api/players: the people and the computer players (none without a journal)
  let newPlayer = null; // the "New player…" fields
  let asking = null; // the seat row whose player select opened them

  async function showJoinCode() {
    const answer = await call("/api/host/join-code", { method: "GET", host: Remote.hostToken() });
    $("join-code-now").textContent = answer.join_code;
  }

  async function unlocked() {
    await showJoinCode();
    clearInterval(joinCodeTimer);
    joinCodeTimer = setInterval(() => showJoinCode().catch(() => {}), JOIN_CODE_MS);
    await loadPlayers();
    startFrom(await call("/api/host/setup", { method: "GET", host: Remote.hostToken() }));
    await showRatings();
    $("login-form").hidden = true;
    $("host-tools").hidden = false; // shown once it holds the last setup, so nothing typed is overwritten
    await listSeats();
  }

  // The form starts from the last setup (the table keeps it across restarts): game, seats, rules.
  function startFrom(last) {
    $("game").value = last.game;
    chooseGame();
    $("seat-count").value = String(last.seats.length);
    last.seats.forEach((seat, index) => {
      const row = document.querySelector(`.seat-row[data-seat="${index}"]`);
      row.querySelector(".seat-name").value = seat.name;
      row.querySelector(".seat-kind").value = seat.kind;
      row.querySelector(".seat-level").value = seat.level;
      row.querySelector(".seat-learning-box").checked = Boolean(seat.learning);
      choosePlayer(row, known(seat.player) ? String(seat.player) : "");
    });
    const { stack_reveal: reveal, objectives, side } = last.flags;
    if (reveal) $("stack-reveal").value = reveal;
    if (side) $("side").value = side;
    const named = Array.isArray(objectives) ? objectives : []; // absent or "random": drawn at random
    $("objectives-mode").value = named.length ? "chosen" : "random";
    document.querySelectorAll(".objective").forEach((select) => {
      const chosen = named.find((name) => [...select.options].some((option) => option.value === name));
      select.value = chosen || "";
    });
    showSeatRows();
  }

  async function listSeats() {
    const payload = await call("/api/state", { method: "GET" });
    $("brightness").value = String(Math.round(payload.settings.brightness * 100));
    $("palette").value = payload.settings.palette;
    const items = payload.seats.map((seat, index) => {
      const item = element("li", {}, `${seat.name} (${seat.kind_label})${seat.taken ? ` – ${t("join.taken")}` : ""} `);
      if (seat.taken) {
        const release = element("button", { type: "button", class: "secondary", "data-seat": index }, t("host.release"));
        release.addEventListener("click", async () => {
          try {
            await call("/api/host/release", { body: { seat: index }, host: Remote.hostToken() });
            await listSeats();
          } catch (error) {
            show(error.message);
          }
        });
        item.appendChild(release);
      } else if (seat.kind === "phone") {
        // The host plays too: this phone takes the seat with the join code shown above, nothing to retype.
        const take = element("button", { type: "button", class: "secondary", "data-join": index }, t("host.join_seat"));
        take.addEventListener("click", async () => {
          try {
            await Remote.takeSeat($("join-code-now").textContent, index);
            window.location.assign("/");
          } catch (error) {
            show(error.message);
            await listSeats();
          }
        });
        item.appendChild(take);
      }
      return item;
    });
    $("seat-list").replaceChildren(...items);
  }

  // -- who plays each seat --------------------------------------------------------------

  const rows = () => [...document.querySelectorAll(".seat-row")];
  const computerSeat = (row) => row.querySelector(".seat-kind").value === "ai";
  const known = (id) => profiles !== null && profiles.players.some((person) => person.id === Number(id));

  // The people and computer players; every seat's player select offers the people again, as chosen.
  async function loadPlayers() {
    try {
      profiles = await call("/api/players", { method: "GET" });
    } catch (error) {
      if (error.status !== 404) throw error;
      profiles = null; // the table keeps no journal: seats have names only
      return;
    }
    newPlayer = newPlayer || Profiles.form($("host-new-player"), profiles.new_look);
    for (const row of rows()) {
      const select = row.querySelector(".seat-player");
      const chosen = select.dataset.chosen || "";
      const options = [element("option", { value: "" }, t("host.no_player"))];
      for (const person of profiles.players) options.push(element("option", { value: String(person.id) }, person.name));
      options.push(element("option", { value: "new" }, t("host.new_player")));
      select.replaceChildren(...options);
      choosePlayer(row, known(chosen) ? chosen : "");
    }
  }

  function choosePlayer(row, value) {
    const select = row.querySelector(".seat-player");
    if (!select.options.length) return;
    select.value = value;
    select.dataset.chosen = value;
  }

  // The seats' players, each in one seat only: a person chosen for another seat is offered no more
  // (the option says which seat has them); a computer seat shows the computer player of its level.
  function showPlayers(count) {
    const chosen = new Map();
    rows().slice(0, count).forEach((row, index) => {
      const value = row.querySelector(".seat-player").value;
      if (!computerSeat(row) && value && value !== "new") chosen.set(value, index);
    });
    rows().forEach((row, index) => {
      const select = row.querySelector(".seat-player");
      const computer = row.querySelector(".seat-computer");
      select.hidden = profiles === null || computerSeat(row);
      computer.hidden = profiles === null || !computerSeat(row);
      row.querySelector(".seat-name").hidden = !select.hidden && Boolean(select.value) && select.value !== "new";
      if (profiles === null) return;
      for (const option of select.options) {
        const person = profiles.players.find((someone) => String(someone.id) === option.value);
        if (!person) continue;
        const elsewhere = chosen.has(option.value) && chosen.get(option.value) !== index;
        option.disabled = elsewhere;
        option.textContent = elsewhere ? t("host.player_in_seat", { name: person.name, n: chosen.get(option.value) + 1 })
          : person.name;
      }
      const level = row.querySelector(".seat-level").value;
      const player = profiles.computers.find((someone) => someone.level === level);
      if (!computer.hidden && player) {
        computer.replaceChildren(Profiles.mark(player.colour, player.symbol),
          document.createTextNode(` ${t("host.computer_player", { name: Profiles.nameOf(player) })}`));
      }
    });
  }

  function seatPlayerChanged(event) {
    const select = event.target;
    const row = select.closest(".seat-row");
    if (select.value !== "new") {
      select.dataset.chosen = select.value;
      if (asking === row) closeNewPlayer();
    } else {
      if (asking && asking !== row) closeNewPlayer();
      asking = row;
      row.after($("player-panel"));
      $("player-panel").hidden = false;
      newPlayer.name.focus();
    }
    showSeatRows();
  }

  // Put the asking seat's select back to its player and fold the new player's fields away.
  function closeNewPlayer() {
    if (asking) choosePlayer(asking, asking.querySelector(".seat-player").dataset.chosen || "");
    asking = null;
    $("player-panel").hidden = true;
    newPlayer.refuse("");
  }

  async function addPlayer() {
    try {
      const made = await call("/api/host/players", { body: newPlayer.values(), host: Remote.hostToken() });
      const row = asking;
      row.querySelector(".seat-player").dataset.chosen = String(made.id);
      closeNewPlayer();
      await loadPlayers();
      newPlayer.reset(profiles.new_look);
      row.querySelector(".seat-player").focus();
      showSeatRows();
    } catch (error) {
      newPlayer.refuse(error.message);
    }
  }

  // The ratings of the chosen game at this table in the order of their cautious estimate, each with its
  // uncertainty, a rating still too uncertain to trust marked new.
  async function showRatings() {
    if (profiles === null) return;
    const game = $("game").value;
    const table = await call(`/api/ratings/${game}`, { method: "GET" });
    if ($("game").value !== game) return; // another game was chosen meanwhile: its table is on the way
    $("ratings-title").textContent = t("host.ratings", { game: $("game").selectedOptions[0].textContent });
    $("ratings-rows").replaceChildren(...table.players.map((row, index) => {
      const line = element("tr", row.new ? { class: "new-rating" } : {});
      const name = element("td");
      name.appendChild(Profiles.named(row));
      if (row.new) name.append(" ", element("span", { class: "new-mark" }, t("ratings.new")));
      const rating = element("td", { class: "score" });
      rating.append(element("span", { class: "rating" }, row.rating_text), " ",
        element("small", { class: "uncertainty" }, row.uncertainty_text));
      line.append(element("td", {}, String(index + 1)), name, rating, element("td", { class: "score" }, String(row.games)));
      return line;
    }));
    $("ratings-rows").closest("table").hidden = !table.players.length;
    $("ratings-note").hidden = !table.players.length;
    $("ratings-none").hidden = table.players.length > 0;
    $("ratings").hidden = false;
  }

  // ----------------------------------------------------------------------------------------

  function showSeatRows() {
    const game = $("game").selectedOptions[0];
    const count = Number($("seat-count").value);
    document.querySelectorAll(".seat-row").forEach((row) => {
      row.hidden = Number(row.dataset.seat) >= count;
      row.querySelector(".seat-level").hidden = row.querySelector(".seat-kind").value !== "ai";
      row.querySelector(".seat-learning").hidden = computerSeat(row);
    });
    if (asking && (asking.hidden || computerSeat(asking))) closeNewPlayer();
    showPlayers(count);
    document.querySelectorAll("fieldset.rules").forEach((rules) => {
      rules.hidden = rules.dataset.game !== game.value;
    });
    $("objective-choice").hidden = $("objectives-mode").value !== "chosen";
  }

  function chooseGame() {
    const game = $("game").selectedOptions[0];
    const counts = [];
    for (let n = Number(game.dataset.min); n <= Number(game.dataset.max); n += 1) {
      counts.push(element("option", { value: String(n) }, String(n)));
    }
    $("seat-count").replaceChildren(...counts);
    showSeatRows();
  }

  function setupForm() {
    const game = $("game").value;
    const count = Number($("seat-count").value);
    const seats = rows().slice(0, count).map((row) => {
      const seat = {
        name: row.querySelector(".seat-name").value,
        kind: row.querySelector(".seat-kind").value,
        level: row.querySelector(".seat-level").value,
      };
      const player = Number(row.querySelector(".seat-player").value);
      if (profiles !== null && !computerSeat(row) && player > 0) seat.player = player;
      if (!computerSeat(row)) seat.learning = row.querySelector(".seat-learning-box").checked;
      return seat;
    });
    const flags = {};
    if (game === "duel") {
      flags.stack_reveal = $("stack-reveal").value;
      flags.objectives = $("objectives-mode").value === "random"
        ? "random"
        : [...document.querySelectorAll(".objective")].map((select) => select.value).filter(Boolean);
    } else {
      flags.side = $("side").value;
    }
    return {
      game, seats, flags,
      brightness: Number($("brightness").value) / 100,
      palette: $("palette").value,
      language: $("table-language").value,
    };
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("/api/host/login", { body: { code: $("host-code").value } });
      Remote.setHostToken(answer.host_token);
      show("");
      await unlocked();
    } catch (error) {
      show(error.message);
    }
  });

  $("setup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("/api/host/setup", { body: setupForm(), host: Remote.hostToken() });
      Remote.setHostToken(answer.host_token);
      Remote.setSeat(null);
      $("join-code-now").textContent = answer.join_code;
      show(t("host.started", { code: answer.join_code }), "info");
      await listSeats();
    } catch (error) {
      show(error.message);
    }
  });

  $("game").addEventListener("change", () => {
    chooseGame();
    showRatings().catch((error) => show(error.message));
  });
  $("seat-count").addEventListener("change", showSeatRows);
  $("objectives-mode").addEventListener("change", showSeatRows);
  document.querySelectorAll(".seat-kind, .seat-level").forEach((select) => select.addEventListener("change", showSeatRows));
  document.querySelectorAll(".seat-player").forEach((select) => select.addEventListener("change", seatPlayerChanged));
  $("add-player").addEventListener("click", addPlayer);
  $("cancel-player").addEventListener("click", () => {
    closeNewPlayer();
    showSeatRows();
  });
  $("host-new-player-name").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault(); // Enter adds the player; it does not start the game
    addPlayer();
  });
  chooseGame();
  if (Remote.hostToken()) {
    unlocked().catch(() => {
      Remote.setHostToken(null);
      $("login-form").hidden = false;
      $("host-tools").hidden = true;
    });
  }
})();

"use strict";
// The host's setup wizard: unlocked with a host code from the rig, starts a new game with a fresh join code and tokens.
(() => {
  const { t, show, call, element } = Remote;
  const $ = (id) => document.getElementById(id);
  const JOIN_CODE_MS = 10000; // the table draws a new join code when wrong ones pile up: shown here within this
  let joinCodeTimer = null;

  async function showJoinCode() {
    const answer = await call("/api/host/join-code", { method: "GET", host: Remote.hostToken() });
    $("join-code-now").textContent = answer.join_code;
  }

  async function unlocked() {
    await showJoinCode();
    clearInterval(joinCodeTimer);
    joinCodeTimer = setInterval(() => showJoinCode().catch(() => {}), JOIN_CODE_MS);
    startFrom(await call("/api/host/setup", { method: "GET", host: Remote.hostToken() }));
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

  function showSeatRows() {
    const game = $("game").selectedOptions[0];
    const count = Number($("seat-count").value);
    document.querySelectorAll(".seat-row").forEach((row) => {
      row.hidden = Number(row.dataset.seat) >= count;
      row.querySelector(".seat-level").hidden = row.querySelector(".seat-kind").value !== "ai";
    });
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
    const seats = [...document.querySelectorAll(".seat-row")].slice(0, count).map((row) => ({
      name: row.querySelector(".seat-name").value,
      kind: row.querySelector(".seat-kind").value,
      level: row.querySelector(".seat-level").value,
    }));
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

  $("game").addEventListener("change", chooseGame);
  $("seat-count").addEventListener("change", showSeatRows);
  $("objectives-mode").addEventListener("change", showSeatRows);
  document.querySelectorAll(".seat-kind").forEach((select) => select.addEventListener("change", showSeatRows));
  chooseGame();
  if (Remote.hostToken()) {
    unlocked().catch(() => {
      Remote.setHostToken(null);
      $("login-form").hidden = false;
      $("host-tools").hidden = true;
    });
  }
})();

"use strict";
// Join: the game's join code and a free phone seat give this phone a seat token. Where the table keeps
// players, the phone also says who plays: a known person (the one it joined as last time first), someone
// new (their profile is made as they join) or, skipping, no one (the seat keeps its name).
(() => {
  const { t, show, call, element } = Remote;
  const $ = (id) => document.getElementById(id);
  const PLAYER_KEY = "azul.player"; // the profile this phone joined as last
  let newPlayer = null; // the "Someone new" fields, once the players are known
  let seatsNow = []; // the seats as last loaded

  function remembered() {
    const id = Number(localStorage.getItem(PLAYER_KEY));
    return Number.isInteger(id) && id > 0 ? id : null;
  }

  function seatChoice(seat, index) {
    const free = seat.kind === "phone" && !seat.taken;
    const label = element("label", { class: free ? "seat free" : "seat" });
    const radio = element("input", { type: "radio", name: "seat", value: String(index), id: `seat-${index}` });
    radio.disabled = !free;
    label.appendChild(radio);
    let state = t("join.free");
    if (seat.kind !== "phone") state = seat.kind_label;
    else if (seat.taken) state = t("join.taken");
    label.appendChild(document.createTextNode(` ${seat.name} – ${state}`));
    return label;
  }

  // A known person; one who already plays a seat no phone can take (held by a phone, or at the table)
  // is shown but cannot be chosen, and says which seat.
  function personChoice(person, seats, last) {
    const label = element("label", { class: "person" });
    const radio = element("input", { type: "radio", name: "who", value: String(person.id) });
    label.append(radio, Profiles.named(person));
    const at = seats.findIndex((seat) => seat.player === person.id);
    if (last) label.appendChild(element("span", { class: "note" }, t("join.last_time")));
    if (at >= 0 && (seats[at].kind !== "phone" || seats[at].taken)) {
      radio.disabled = true;
      label.appendChild(element("span", { class: "note" }, t("join.plays_seat", { n: at + 1 })));
    }
    return label;
  }

  // The people, this phone's player of last time first; a profile no longer kept (merged into another,
  // say) is forgotten without a word.
  function showPeople(listed, seats, keep) {
    const last = remembered();
    if (last !== null && !listed.some((person) => person.id === last)) localStorage.removeItem(PLAYER_KEY);
    const ordered = [...listed.filter((person) => person.id === last), ...listed.filter((person) => person.id !== last)];
    $("people").replaceChildren(...ordered.map((person) => personChoice(person, seats, person.id === last)));
    const wanted = keep ?? (last === null ? "skip" : String(last));
    const choice = document.querySelector(`input[name=who][value="${wanted}"]:not(:disabled)`) || $("who-skip");
    choice.checked = true;
    showNewPlayer();
  }

  function showNewPlayer() {
    $("new-player").hidden = !$("who-new").checked;
  }

  async function load() {
    const chosen = $("who").hidden ? null : document.querySelector("input[name=who]:checked"); // kept on a reload
    const [payload, listed] = await Promise.all([
      call("/api/state", { method: "GET" }),
      call("/api/players", { method: "GET" }).catch(() => null), // no journal: no players, join as before
    ]);
    seatsNow = payload.seats;
    const choices = payload.seats.map(seatChoice);
    const seats = $("seats");
    const seat = document.querySelector("input[name=seat]:checked");
    seats.replaceChildren(...choices);
    const again = seat && choices[Number(seat.value)]?.querySelector("input"); // the seat chosen before a reload
    if (again && !again.disabled) again.checked = true;
    if (!choices.some((choice) => !choice.querySelector("input").disabled)) {
      seats.appendChild(element("p", {}, t("join.no_free_seat")));
    }
    if (listed === null) return;
    if (newPlayer === null) newPlayer = Profiles.form($("new-player"), listed.new_look);
    showPeople(listed.players, payload.seats, chosen && chosen.value);
    $("who").hidden = false;
  }

  // Who the phone joins as, as POST /api/join takes it.
  function who() {
    const chosen = document.querySelector("input[name=who]:checked");
    if (!chosen || $("who").hidden || chosen.value === "skip") return {};
    if (chosen.value === "new") return { new_player: newPlayer.values() };
    return { player: Number(chosen.value) };
  }

  // The profile the phone joined as, kept for next time (a new one's id is the one its seat now has).
  async function rememberPlayer(player, seat) {
    let id = player.player;
    if (player.new_player) id = (await call("/api/state", { method: "GET" }).catch(() => null))?.seats[seat].player;
    if (id) localStorage.setItem(PLAYER_KEY, String(id));
  }

  // A seat the host set up for a first game comes with the box ticked (the player may untick it).
  $("seats").addEventListener("change", (event) => {
    if (event.target.name === "seat") $("learning").checked = Boolean(seatsNow[Number(event.target.value)]?.learning);
  });

  // A person the host put in a free phone seat takes that seat.
  $("who").addEventListener("change", (event) => {
    showNewPlayer();
    const at = seatsNow.findIndex((seat) => String(seat.player) === event.target.value);
    const seat = $(`seat-${at}`);
    if (seat && !seat.disabled) seat.checked = true;
  });

  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = document.querySelector("input[name=seat]:checked");
    if (!chosen) {
      show(t("join.pick_seat"));
      return;
    }
    const player = who();
    show("");
    show("", "error", "who-refused");
    if (newPlayer) newPlayer.refuse("");
    try {
      await Remote.takeSeat($("join-code").value, Number(chosen.value), { ...player, learning: $("learning").checked });
      await rememberPlayer(player, Number(chosen.value));
      window.location.assign("/");
    } catch (error) {
      if (player.new_player && Profiles.FORM_REFUSALS.has(error.key)) newPlayer.refuse(error.message);
      else if (String(error.key).startsWith("players.")) show(error.message, "error", "who-refused");
      else show(error.message);
      load().catch(() => {});
    }
  });

  load().catch((error) => show(error.message));
})();

"use strict";
// Join: the game's join code and a free phone seat give this phone a seat token.
(() => {
  const { t, show, call, element } = Remote;

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

  async function load() {
    const payload = await call("/api/state", { method: "GET" });
    const choices = payload.seats.map(seatChoice);
    const seats = document.getElementById("seats");
    seats.replaceChildren(...choices);
    if (!choices.some((choice) => !choice.querySelector("input").disabled)) {
      seats.appendChild(element("p", {}, t("join.no_free_seat")));
    }
  }

  document.getElementById("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = document.querySelector("input[name=seat]:checked");
    if (!chosen) {
      show(t("join.pick_seat"));
      return;
    }
    try {
      await Remote.takeSeat(document.getElementById("join-code").value, Number(chosen.value));
      window.location.assign("/");
    } catch (error) {
      show(error.message);
      load();
    }
  });

  load().catch((error) => show(error.message));
})();

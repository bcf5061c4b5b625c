"use strict";
// The simulator: LED panels drawn live from the frame stream under their names, virtual buttons that drive
// the mock pins for the seats of the game on the table (following it when a new game starts).
(() => {
  const { t, show, call, element } = Remote;
  const CELL = 9;
  const LABEL = 18; // height of the band above each row of panels that holds their names
  const canvas = document.getElementById("leds");
  const context = canvas.getContext("2d");
  let description = null;
  let panels = [];
  let tops = []; // the distinct top edges of the panels: each starts a row with a band for names above it
  let shownGame = null;

  // Where a panel's logical (x, y) lies on the table, after the panel's turn (as hardware.layout does).
  function toTable(panel, x, y) {
    const { width, height } = panel;
    const turned = {
      0: [x, y], 90: [height - 1 - y, x], 180: [width - 1 - x, height - 1 - y], 270: [y, width - 1 - x],
    }[panel.facing];
    return [panel.x + turned[0], panel.y + turned[1]];
  }

  // Canvas y of table row `y` of `panel`: the table's rows, pushed down by the name bands above them.
  function screenY(panel, y) {
    return y * CELL + LABEL * (tops.filter((top) => top <= panel.y).length);
  }

  function footprint(panel) {
    return panel.facing % 180 ? [panel.height, panel.width] : [panel.width, panel.height];
  }

  function draw(frame) {
    context.fillStyle = "#26221e";
    context.fillRect(0, 0, canvas.width, canvas.height);
    for (const panel of panels) {
      const data = atob(frame.panels[panel.name] || "");
      for (let y = 0; y < panel.height; y += 1) {
        for (let x = 0; x < panel.width; x += 1) {
          const at = 3 * (y * panel.width + x);
          const [r, g, b] = [data.charCodeAt(at), data.charCodeAt(at + 1), data.charCodeAt(at + 2)];
          const [tx, ty] = toTable(panel, x, y);
          context.fillStyle = r + g + b > 0 ? `rgb(${r},${g},${b})` : "#1c1c1c";
          context.beginPath();
          context.arc(tx * CELL + CELL / 2, screenY(panel, ty) + CELL / 2, CELL * 0.42, 0, 2 * Math.PI);
          context.fill();
        }
      }
    }
    canvas.dataset.seq = String(frame.seq);
  }

  // What a panel shows in this game, in words: the centre's areas, or whose seat it is.
  function panelName(panel, state) {
    const seat = description.seat_panels.indexOf(panel.name);
    if (seat < 0) return panel.name === "centre" ? t(`sim.panel.centre.${state.game}`) : panel.name;
    if (seat >= state.seats.length) return t("sim.panel.unused", { n: seat + 1 });
    return t("sim.panel.seat", { n: seat + 1, name: state.seats[seat].name });
  }

  function label(state) {
    const layer = document.getElementById("panel-names");
    const names = panels.map((panel) => {
      const [width] = footprint(panel);
      const name = element("span", { class: "sim-panel-name", "data-panel": panel.name }, panelName(panel, state));
      name.style.left = `${(100 * panel.x * CELL) / canvas.width}%`;
      name.style.top = `${(100 * (screenY(panel, panel.y) - LABEL)) / canvas.height}%`;
      name.style.width = `${(100 * width * CELL) / canvas.width}%`;
      name.style.height = `${(100 * LABEL) / canvas.height}%`;
      name.title = name.textContent;
      return name;
    });
    layer.replaceChildren(...names);
  }

  async function press(seat, button) {
    try {
      await call("/simulator/press", { body: { seat, button, hold: document.getElementById("hold").checked } });
      show("");
    } catch (error) {
      show(error.message);
    }
  }

  // The buttons of the game's seats (the rig's others play no part in it) and HOST.
  function buttons(seats) {
    const groups = [];
    for (let seat = 0; seat < Math.min(seats, description.seats); seat += 1) {
      const group = element("div", { class: "sim-seat" });
      group.appendChild(element("span", {}, t("sim.seat", { n: seat + 1 })));
      for (const name of description.buttons) {
        const button = element("button", { type: "button", class: "sim-button", "data-seat": seat, "data-button": name }, t(`button.${name}`));
        button.addEventListener("click", () => press(seat, name));
        group.appendChild(button);
      }
      groups.push(group);
    }
    const host = element("button", { type: "button", class: "sim-button", "data-button": description.host }, t("button.HOST"));
    host.addEventListener("click", () => press(null, description.host));
    groups.push(host);
    document.getElementById("buttons").replaceChildren(...groups);
  }

  // A state from the table: a game with other seats gets its buttons, and the panels their names.
  function follow(state) {
    const game = `${state.game_id}:${state.seats.map((seat) => seat.name).join("\n")}`;
    if (game === shownGame) return;
    shownGame = game;
    buttons(state.seats.length);
    label(state);
  }

  async function start() {
    description = await call("/simulator/layout", { method: "GET" });
    panels = description.layout.panels;
    tops = [...new Set(panels.map((panel) => panel.y))];
    canvas.width = description.layout.table.width * CELL;
    canvas.height = description.layout.table.height * CELL + LABEL * tops.length;
    follow(await call("/api/state", { method: "GET" }));
    const states = new EventSource("/api/events");
    states.onmessage = (event) => follow(JSON.parse(event.data));
    const source = new EventSource("/simulator/frames");
    source.onmessage = (event) => draw(JSON.parse(event.data));
  }

  start().catch((error) => show(error.message));
})();

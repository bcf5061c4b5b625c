"use strict";
// The simulator: LED panels drawn live from the frame stream, virtual buttons that drive the mock pins.
(() => {
  const { t, show, call, element } = Remote;
  const CELL = 9;
  const canvas = document.getElementById("leds");
  const context = canvas.getContext("2d");
  let panels = [];

  // Where a panel's logical (x, y) lies on the table, after the panel's turn (as hardware.layout does).
  function toTable(panel, x, y) {
    const { width, height } = panel;
    const turned = {
      0: [x, y], 90: [height - 1 - y, x], 180: [width - 1 - x, height - 1 - y], 270: [y, width - 1 - x],
    }[panel.facing];
    return [panel.x + turned[0], panel.y + turned[1]];
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
          context.arc(tx * CELL + CELL / 2, ty * CELL + CELL / 2, CELL * 0.42, 0, 2 * Math.PI);
          context.fill();
        }
      }
    }
    canvas.dataset.seq = String(frame.seq);
  }

  async function press(seat, button) {
    try {
      await call("/simulator/press", { body: { seat, button, hold: document.getElementById("hold").checked } });
      show("");
    } catch (error) {
      show(error.message);
    }
  }

  function buttons(description) {
    const groups = [];
    for (let seat = 0; seat < description.seats; seat += 1) {
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

  async function start() {
    const description = await call("/simulator/layout", { method: "GET" });
    panels = description.layout.panels;
    canvas.width = description.layout.table.width * CELL;
    canvas.height = description.layout.table.height * CELL;
    buttons(description);
    const source = new EventSource("/simulator/frames");
    source.onmessage = (event) => draw(JSON.parse(event.data));
  }

  start().catch((error) => show(error.message));
})();

"use strict";
// Draws the public state as SVG: factories, plate display and every player's board.
const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const FILL = { B: "#1f4fa8", T: "#27b3c2", R: "#d2382d", Y: "#f0c230", K: "#262626", S: "#d8b27c", W: "#b9a6d6" };
  const PAVILION_FILL = { P: "#7b3fa0", G: "#2e9b47", O: "#ef7d1a", Y: "#f0c230", B: "#2a66c9", R: "#d2382d" };
  const PAVILION_COLOURS = "PGOYBR";
  const PAVILION_STARS = "CORBYGP";
  const SPACE = { B: "#c4d1ee", T: "#c3ecf0", R: "#f2c7c3", Y: "#f8ebbd", K: "#bdbdbd", S: "#ecdcc4", W: "#e4dbef" };
  const LETTER_ON = { B: "#fff", T: "#000", R: "#fff", Y: "#000", K: "#fff", S: "#000", W: "#000" };
  const COLOURS = "BTRYK";

  function svg(tag, attributes = {}, text) {
    const node = document.createElementNS(NS, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function label(parent, x, y, text, size = 9, anchor = "start") {
    parent.appendChild(svg("text", { x, y, "font-size": size, "text-anchor": anchor, class: "label" }, text));
  }

  // A tile with its colour letter as a second cue beside the colour.
  function tile(parent, x, y, size, letter, fills = FILL) {
    parent.appendChild(svg("rect", { x, y, width: size, height: size, rx: 2, fill: fills[letter] || "#888", class: `tile tile-${letter}` }));
    parent.appendChild(svg("text", {
      x: x + size / 2, y: y + size * 0.72, "font-size": size * 0.6, "text-anchor": "middle", fill: LETTER_ON[letter] || "#fff",
    }, letter));
  }

  function space(parent, x, y, size, letter) {
    parent.appendChild(svg("rect", { x, y, width: size, height: size, fill: SPACE[letter] || "#eee", stroke: "#999", "stroke-width": 0.5 }));
    if (letter === "W" || letter === "S") {
      parent.appendChild(svg("text", { x: x + size / 2, y: y + size * 0.7, "font-size": size * 0.5, "text-anchor": "middle", fill: "#777" }, letter === "W" ? "✱" : "◆"));
    }
  }

  // Tiles from per-colour counts, in rows of ``perRow``.
  function counts(parent, x, y, size, perColour, perRow, letters = COLOURS, fills = FILL) {
    let index = 0;
    perColour.forEach((count, colour) => {
      for (let i = 0; i < count; i += 1) {
        tile(parent, x + (index % perRow) * (size + 2), y + Math.floor(index / perRow) * (size + 2), size, letters[colour], fills);
        index += 1;
      }
    });
  }

  function pavilionCounts(parent, x, y, size, perColour, perRow) {
    counts(parent, x, y, size, perColour, perRow, PAVILION_COLOURS, PAVILION_FILL);
  }

  function plate(parent, x, y, size, spaces) {
    [...spaces].forEach((letter, quarter) => space(parent, x + (quarter % 2) * size, y + Math.floor(quarter / 2) * size, size, letter));
  }

  function duelCentre(root, state) {
    const t = Remote.t;
    const group = svg("g", { class: "centre" });
    root.appendChild(group);
    const large = state.large_factory;
    group.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 70, rx: 6, class: "factory" }));
    label(group, 6, 13, t("board.large_factory"));
    counts(group, 6, 18, 12, large.sun, 6);
    label(group, 6, 52, t("board.moon"));
    counts(group, 36, 44, 10, large.moon, 4);
    if (large.start_tile) tile(group, 82, 56, 12, "1");
    state.small_factories.forEach((factory, index) => {
      const x = 102 + index * 64;
      group.appendChild(svg("rect", { x, y: 2, width: 60, height: 70, rx: 6, class: "factory" }));
      label(group, x + 4, 13, t("board.factory", { n: index + 1 }));
      counts(group, x + 4, 18, 11, factory.sun, 4);
      [...factory.moon].forEach((letter, i) => tile(group, x + 4 + i * 12, 44, 10, letter));
      if (factory.chip) label(group, x + 4, 68, `${t("board.chip")}: ${factory.chip}`, 8);
      else if (factory.chip_hidden) label(group, x + 4, 68, `${t("board.chip")}: ?`, 8);
    });
    label(group, 2, 88, t("board.display"));
    state.display.forEach((shown, index) => {
      if (shown) plate(group, 4 + index * 36, 92, 15, shown.spaces);
      label(group, 4 + index * 36 + 15, 132, `P${index + 1}`, 8, "middle");
    });
    label(group, 116, 100, t("board.stack", { n: state.stack_size }));
    if (state.stack_top) label(group, 116, 112, t(`board.back.${state.stack_top}`), 8);
    if (state.drawn.length) {
      label(group, 200, 88, t("board.drawn"));
      state.drawn.forEach((drawn, index) => {
        if (drawn.spaces) {
          plate(group, 200 + index * 34, 92, 14, drawn.spaces);
          label(group, 214 + index * 34, 132, `K${drawn.plate}`, 8, "middle");
        } else {
          group.appendChild(svg("rect", { x: 200 + index * 34, y: 92, width: 28, height: 28, class: "plate-back" }));
          label(group, 214 + index * 34, 110, t(`board.back.${drawn.back}`), 7, "middle");
        }
      });
    }
    if (state.hand) {
      label(group, 116, 124, t("board.hand"));
      [...state.hand].forEach((letter, i) => tile(group, 160 + i * 12, 116, 10, letter));
    }
    return 140;
  }

  function duelPlayer(root, player, seat, payload, top) {
    const t = Remote.t;
    const group = svg("g", { class: "player", transform: `translate(0 ${top})`, "data-seat": seat });
    root.appendChild(group);
    const name = payload.seats[seat].name;
    const turn = payload.current_player === seat;
    group.appendChild(svg("rect", { x: 1, y: 0, width: 358, height: 132, rx: 6, class: turn ? "player-box turn" : "player-box" }));
    label(group, 6, 12, `${turn ? "▶ " : ""}${name}: ${player.score}`, 10);
    player.lines.forEach((line, index) => {
      const capacity = index + 1;
      for (let i = 0; i < capacity; i += 1) {
        const x = 96 - (i + 1) * 14;
        const y = 18 + index * 15;
        if (i < line.length) tile(group, x, y, 13, line[i]);
        else group.appendChild(svg("rect", { x, y, width: 13, height: 13, class: "empty" }));
      }
      label(group, 100, 28 + index * 15, String(capacity), 8);
    });
    label(group, 6, 124, t("board.broken"), 8);
    for (let i = 0; i < 4; i += 1) {
      if (i < player.broken.length) tile(group, 60 + i * 14, 114, 13, player.broken[i]);
      else group.appendChild(svg("rect", { x: 60 + i * 14, y: 114, width: 13, height: 13, class: "empty" }));
    }
    const size = 17;
    player.dome_spaces.forEach((row, r) => {
      [...row].forEach((letter, c) => {
        const x = 120 + c * size;
        const y = 18 + r * size;
        if (letter === "-") group.appendChild(svg("rect", { x, y, width: size, height: size, class: "no-plate" }));
        else space(group, x, y, size, letter);
        const laid = player.dome[r][c];
        if (laid !== ".") tile(group, x + 2, y + 2, size - 4, laid);
      });
    });
    label(group, 230, 24, t("board.chips"), 8);
    player.chips.forEach((face, i) => label(group, 230 + (i % 4) * 30, 36 + Math.floor(i / 4) * 11, face, 9));
    return top + 136;
  }

  function pavilionCentre(root, state) {
    const t = Remote.t;
    const group = svg("g", { class: "centre" });
    root.appendChild(group);
    label(group, 4, 12, t("board.wild"));
    tile(group, 70, 3, 12, state.wild, PAVILION_FILL);
    state.factories.forEach((factory, index) => {
      const x = 2 + (index % 5) * 71;
      const y = 20 + Math.floor(index / 5) * 44;
      group.appendChild(svg("rect", { x, y, width: 68, height: 40, rx: 6, class: "factory" }));
      label(group, x + 4, y + 11, t("board.factory", { n: index + 1 }), 8);
      pavilionCounts(group, x + 4, y + 15, 10, factory, 5);
    });
    const top = 20 + Math.ceil(state.factories.length / 5) * 44;
    label(group, 4, top + 10, t("board.centre"));
    pavilionCounts(group, 4, top + 14, 10, state.centre, 28);
    label(group, 4, top + 40, t("board.supply"));
    pavilionCounts(group, 4, top + 44, 10, state.supply, 28);
    return top + 62;
  }

  // One star: six spaces round its middle, each with its ring position; placed tiles in their colour.
  function star(parent, cx, cy, letter, spaces) {
    parent.appendChild(svg("text", { x: cx, y: cy + 3, "font-size": 8, "text-anchor": "middle", class: "label" }, letter));
    [...spaces].forEach((laid, position) => {
      const angle = (Math.PI / 3) * position - Math.PI / 2;
      const x = cx + 13 * Math.cos(angle) - 5;
      const y = cy + 13 * Math.sin(angle) - 5;
      if (laid === ".") {
        parent.appendChild(svg("rect", { x, y, width: 10, height: 10, rx: 2, fill: PAVILION_FILL[letter] || "#ddd", "fill-opacity": 0.25, stroke: "#999", "stroke-width": 0.5 }));
        parent.appendChild(svg("text", { x: x + 5, y: y + 8, "font-size": 7, "text-anchor": "middle", fill: "#555" }, String(position + 1)));
      } else {
        tile(parent, x, y, 10, laid, PAVILION_FILL);
      }
    });
  }

  function pavilionSeat(root, seatState, seat, payload, top) {
    const t = Remote.t;
    const group = svg("g", { class: "player", transform: `translate(0 ${top})`, "data-seat": seat });
    root.appendChild(group);
    const turn = payload.current_player === seat;
    group.appendChild(svg("rect", { x: 1, y: 0, width: 358, height: 124, rx: 6, class: turn ? "player-box turn" : "player-box" }));
    const passed = seatState.passed ? ` (${t("board.passed")})` : "";
    label(group, 6, 12, `${turn ? "▶ " : ""}${payload.seats[seat].name}: ${seatState.score}${passed}`, 10);
    label(group, 6, 28, t("board.hand"), 8);
    pavilionCounts(group, 6, 32, 10, seatState.hand, 8);
    const centreX = 250;
    const centreY = 62;
    seatState.board.forEach((spaces, index) => {
      const angle = (Math.PI / 3) * (index - 1) - Math.PI / 2;
      const x = index === 0 ? centreX : centreX + 48 * Math.cos(angle);
      const y = index === 0 ? centreY : centreY + 40 * Math.sin(angle);
      star(group, x, y, PAVILION_STARS[index], spaces);
    });
    return top + 128;
  }

  // Per game: the shared part of the table, the boards in the state, and how to draw one board.
  const GAMES = {
    duel: { centre: duelCentre, boards: (state) => state.players, board: duelPlayer },
    pavilion: { centre: pavilionCentre, boards: (state) => state.seats, board: pavilionSeat },
  };

  function draw(container, payload) {
    const game = GAMES[payload.game];
    const root = svg("svg", { class: "table-drawing", role: "img" });
    let height = game.centre(root, payload.state);
    game.boards(payload.state).forEach((board, seat) => {
      height = game.board(root, board, seat, payload, height);
    });
    root.setAttribute("viewBox", `0 0 360 ${height}`);
    container.replaceChildren(root);
  }

  return { draw };
})();

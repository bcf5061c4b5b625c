"use strict";
// Draws the public state as SVG: factories, plate display and every player's board. Parts a
// player can touch carry data-hit keys (see touch.js); the viewer's board comes first after the
// shared part so that it is on the first screen.
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

  // A group for one touchable part: its key, and for the parts of a board the seat it belongs to.
  function hit(parent, key) {
    const group = svg("g", { "data-hit": key, class: "hit" });
    parent.appendChild(group);
    return group;
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

  // Tiles from per-colour counts, in rows of ``perRow``; with ``keyOf``, each colour's tiles are one touchable part.
  function counts(parent, x, y, size, perColour, perRow, letters = COLOURS, fills = FILL, keyOf = null) {
    let index = 0;
    perColour.forEach((count, colour) => {
      const group = keyOf && count ? hit(parent, keyOf(letters[colour])) : parent;
      for (let i = 0; i < count; i += 1) {
        tile(group, x + (index % perRow) * (size + 2), y + Math.floor(index / perRow) * (size + 2), size, letters[colour], fills);
        index += 1;
      }
    });
  }

  function pavilionCounts(parent, x, y, size, perColour, perRow, keyOf = null) {
    counts(parent, x, y, size, perColour, perRow, PAVILION_COLOURS, PAVILION_FILL, keyOf);
  }

  function plate(parent, x, y, size, spaces) {
    [...spaces].forEach((letter, quarter) => space(parent, x + (quarter % 2) * size, y + Math.floor(quarter / 2) * size, size, letter));
  }

  function duelCentre(root, state, payload) {
    const t = Remote.t;
    const group = svg("g", { class: "centre" });
    root.appendChild(group);
    const large = state.large_factory;
    group.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 70, rx: 6, class: "factory" }));
    label(group, 6, 13, t("board.large_factory"));
    counts(group, 6, 18, 12, large.sun, 6, COLOURS, FILL, (c) => `sun:0:${c}`);
    label(group, 6, 52, t("board.moon"));
    counts(group, 36, 44, 10, large.moon, 4, COLOURS, FILL, (c) => `moon:${c}`);
    if (large.start_tile) startTile(group, 80, 54, 14, t("board.start_tile"));
    const stacking = stackingOf(state, payload);
    state.small_factories.forEach((factory, index) => {
      const x = 102 + index * 64;
      group.appendChild(svg("rect", { x, y: 2, width: 60, height: 70, rx: 6, class: "factory" }));
      label(group, x + 4, 13, t("board.factory", { n: index + 1 }));
      if (stacking.factory === index + 1) {
        // The leftovers to stack: each touch moves one onto the moon, bottom first.
        const left = factory.sun.map((count, c) => count - [...stacking.order].filter((letter) => letter === COLOURS[c]).length);
        counts(group, x + 4, 18, 11, left, 4, COLOURS, FILL, (c) => `order:${c}`);
      } else {
        counts(group, x + 4, 18, 11, factory.sun, 4, COLOURS, FILL, (c) => `sun:${index + 1}:${c}`);
      }
      const stacked = stacking.factory === index + 1 ? stacking.order : "";
      [...factory.moon, ...stacked].forEach((letter, i) => {
        const top = i === factory.moon.length - 1 && !stacked;
        const at = i < factory.moon.length ? (top ? hit(group, `moon:${letter}`) : group) : ghost(group);
        tile(at, x + 4 + i * 12, 44, 10, letter);
      });
      if (factory.chip) chip(hit(group, `chip:${index + 1}`), x + 4, 58, factory.chip);
      else if (factory.chip_hidden) label(group, x + 4, 68, `${t("board.chip")}: ?`, 8);
    });
    label(group, 2, 88, t("board.display"));
    state.display.forEach((shown, index) => {
      if (shown) plate(hit(group, `display:${index + 1}`), 4 + index * 36, 92, 15, shown.spaces);
      label(group, 4 + index * 36 + 15, 132, String(index + 1), 8, "middle");
    });
    const stack = hit(group, "stack");
    stack.appendChild(svg("rect", { x: 112, y: 90, width: 80, height: 26, rx: 3, class: "plate-back" }));
    label(stack, 116, 101, t("board.stack", { n: state.stack_size }), 8);
    if (state.stack_top) label(stack, 116, 112, t(`board.back.${state.stack_top}`), 7);
    if (state.drawn.length) {
      label(group, 200, 88, t("board.drawn"));
      state.drawn.forEach((drawn, index) => {
        if (drawn.spaces) {
          plate(hit(group, `drawn:${drawn.plate}`), 200 + index * 34, 92, 14, drawn.spaces);
        } else {
          group.appendChild(svg("rect", { x: 200 + index * 34, y: 92, width: 28, height: 28, class: "plate-back" }));
          label(group, 214 + index * 34, 110, t(`board.back.${drawn.back}`), 7, "middle");
        }
      });
    }
    if (state.hand) {
      label(group, 116, 128, t("board.hand"), 8);
      [...state.hand].forEach((letter, i) => tile(group, 150 + i * 12, 119, 10, letter));
    }
    if (state.kept >= 0 && state.kept_spaces) {
      label(group, 116, 128, t("board.kept"), 8);
      plate(group, 164, 116, 11, state.kept_spaces[0]);
    }
    label(group, 200, 137, `${t("board.bag_tower", { bag: sum(state.bag), tower: sum(state.tower) })} · ${t("board.specials", { n: state.special_supply })}`, 7);
    return underStack(group, state.stack_under || [], state.stack_size, 140);
  }

  // The plates put under the stack, which everyone saw go there, each with its place counted from the top.
  function underStack(group, under, size, top) {
    if (!under.length) return top;
    const row = svg("g", { class: "under-stack" });
    group.appendChild(row);
    label(row, 2, top + 7, Remote.t("board.under_stack"), 7);
    under.forEach((shown, index) => {
      const x = 2 + (index % 7) * 51;
      const y = top + 10 + Math.floor(index / 7) * 18;
      plate(row, x, y, 8, shown.spaces);
      label(row, x + 18, y + 11, Remote.t("board.from_top", { n: shown.depth + 1, size }), 7);
    });
    return top + 10 + Math.ceil(under.length / 7) * 18;
  }

  // The small factory whose leftovers await a stacking order, and the order touched so far.
  function stackingOf(state, payload) {
    if (state.pending !== "order") return { factory: 0, order: "" };
    const preview = payload && payload.preview;
    return { factory: state.order_factory, order: (preview && preview.order) || "" };
  }

  // A group for what a chosen option would put on the board, drawn see-through.
  function ghost(parent) {
    const group = svg("g", { class: "ghost" });
    parent.appendChild(group);
    return group;
  }

  // Points a previewed placement scores, beside the tile.
  function gain(parent, x, y, points) {
    parent.appendChild(svg("text", { x, y, "font-size": 8, "text-anchor": "middle", class: "gain" }, `+${points}`));
  }

  // What the chosen option would do to ``seat``'s board, from the core's events on a copy of the
  // position (up to the round's end): tiles on pattern lines, broken tiles, tiles laid with their points.
  function planned(payload, seat) {
    const plan = { lines: {}, broken: "", cells: {}, spaces: {} };
    const preview = payload.preview;
    if (!preview || preview.seat !== seat || !preview.events) return plan;
    for (const event of preview.events) {
      if (event.event === "round_ended") break;
      if (event.player !== seat) continue;
      if (event.event === "line_filled" && event.line > 0) plan.lines[event.line] = event.colour.repeat(event.count);
      if (event.event === "tiles_broken") plan.broken += event.colour.repeat(event.count - event.to_tower);
      if (event.event === "tile_laid") plan.cells[event.cell.join(":")] = { letter: event.colour, points: event.points };
      if (event.event === "special_laid") plan.cells[event.cell.join(":")] = { letter: "S", points: event.points };
      if (event.event === "tile_placed") plan.spaces[event.space] = { letter: event.colour, points: event.points };
    }
    return plan;
  }

  function sum(values) {
    return values.reduce((total, value) => total + value, 0);
  }

  function startTile(parent, x, y, size, title) {
    const group = svg("g", { class: "start-tile" });
    group.appendChild(svg("title", {}, title));
    group.appendChild(svg("rect", { x, y, width: size, height: size, rx: 2, fill: "#fff", stroke: "#222" }));
    group.appendChild(svg("text", { x: x + size / 2, y: y + size * 0.75, "font-size": size * 0.7, "text-anchor": "middle", fill: "#000" }, "1"));
    parent.appendChild(group);
  }

  // A bonus chip by its face's colours (one or two), named in words for screen readers.
  function chip(parent, x, y, face) {
    const group = svg("g", { class: "chip" });
    group.appendChild(svg("title", {}, [...face].map((letter) => Remote.t(`colour.duel.${letter}`)).join(" / ")));
    [...face].forEach((letter, i) => {
      group.appendChild(svg("rect", { x: x + i * 9, y, width: 9, height: 9, rx: 4.5, fill: FILL[letter], stroke: "#222", "stroke-width": 0.5 }));
    });
    parent.appendChild(group);
  }

  function duelPlayer(root, player, seat, payload, top) {
    const t = Remote.t;
    const group = svg("g", { class: "player", transform: `translate(0 ${top})`, "data-seat": seat });
    root.appendChild(group);
    const name = payload.seats[seat].name;
    const turn = payload.current_player === seat;
    const plan = planned(payload, seat);
    group.appendChild(svg("rect", { x: 1, y: 0, width: 358, height: 132, rx: 6, class: turn ? "player-box turn" : "player-box" }));
    label(group, 6, 12, `${turn ? "▶ " : ""}${name}: ${player.score}`, 10);
    player.lines.forEach((line, index) => {
      const capacity = index + 1;
      const row = hit(group, `line:${capacity}`);
      const coming = plan.lines[capacity] || "";
      row.appendChild(svg("rect", { x: 96 - capacity * 14 - 1, y: 17 + index * 15, width: capacity * 14 + 1, height: 15, class: "area" }));
      for (let i = 0; i < capacity; i += 1) {
        const x = 96 - (i + 1) * 14;
        const y = 18 + index * 15;
        if (i < line.length) tile(row, x, y, 13, line[i]);
        else if (i < line.length + coming.length) tile(ghost(row), x, y, 13, coming[i - line.length]);
        else row.appendChild(svg("rect", { x, y, width: 13, height: 13, class: "empty" }));
      }
      label(group, 100, 28 + index * 15, String(capacity), 8);
    });
    label(group, 6, 124, t("board.broken"), 8);
    const broken = hit(group, "line:0");
    broken.appendChild(svg("rect", { x: 59, y: 113, width: 57, height: 15, class: "area" }));
    for (let i = 0; i < 4; i += 1) {
      const coming = plan.broken[i - player.broken.length];
      if (i < player.broken.length) tile(broken, 60 + i * 14, 114, 13, player.broken[i]);
      else if (coming) tile(ghost(broken), 60 + i * 14, 114, 13, coming);
      else broken.appendChild(svg("rect", { x: 60 + i * 14, y: 114, width: 13, height: 13, class: "empty" }));
    }
    const size = 17;
    const preview = payload.preview && payload.preview.seat === seat ? payload.preview : null;
    for (let slot = 0; slot < 9; slot += 1) {
      const x = 120 + (slot % 3) * 2 * size;
      const y = 18 + Math.floor(slot / 3) * 2 * size;
      const area = hit(group, `slot:${slot + 1}`);
      if (preview && preview.slot === slot + 1) {
        plate(area, x, y, size, preview.spaces);
        area.appendChild(svg("rect", { x, y, width: 2 * size, height: 2 * size, class: "preview" }));
      } else if (player.plates[slot] < 0) {
        area.appendChild(svg("rect", { x, y, width: 2 * size, height: 2 * size, class: "no-plate" }));
        label(area, x + size, y + size + 3, String(slot + 1), 8, "middle");
      }
    }
    player.dome_spaces.forEach((row, r) => {
      [...row].forEach((letter, c) => {
        if (letter === "-") return;
        const x = 120 + c * size;
        const y = 18 + r * size;
        const cell = hit(group, `cell:${r + 1}:${c + 1}`);
        space(cell, x, y, size, letter);
        const laid = player.dome[r][c];
        const coming = plan.cells[`${r + 1}:${c + 1}`];
        if (laid !== ".") tile(cell, x + 2, y + 2, size - 4, laid);
        else if (coming) tile(ghost(cell), x + 2, y + 2, size - 4, coming.letter);
      });
    });
    Object.entries(plan.cells).forEach(([at, coming]) => {
      const [r, c] = at.split(":").map(Number);
      gain(group, 120 + (c - 1) * size + size / 2, 18 + (r - 1) * size - 1, coming.points);
    });
    for (let i = 0; i < 6; i += 1) {
      label(group, 120 + i * size + size / 2, 16, String(i + 1), 6, "middle");
      label(group, 116, 18 + i * size + size / 2 + 2, String(i + 1), 6, "end");
    }
    label(group, 230, 24, t("board.chips"), 8);
    player.chips.forEach((face, i) => {
      const x = 230 + (i % 4) * 30;
      const y = 28 + Math.floor(i / 4) * 12;
      const payWith = hit(group, `pay:${face}`);
      payWith.appendChild(svg("rect", { x: x - 2, y: y - 1, width: 26, height: 11, rx: 3, class: "area" }));
      chip(payWith, x, y, face);
    });
    objectives(group, payload, seat);
    return top + 136;
  }

  // The game's objectives with this seat's points toward them so far.
  function objectives(group, payload, seat) {
    const progress = payload.objectives;
    if (!progress || !progress.length) return;
    label(group, 230, 62, Remote.t("flag.objectives"), 8);
    progress.forEach((objective, i) => {
      label(group, 230, 73 + i * 10, `${objective.label}: ${objective.points[seat]}`, 7);
    });
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
      pavilionCounts(group, x + 4, y + 15, 10, factory, 5, (c) => `take:${index + 1}:${c}`);
      wildMarks(group, x + 4, y + 15, 10, factory, 5, state.wild);
    });
    const top = 20 + Math.ceil(state.factories.length / 5) * 44;
    label(group, 4, top + 10, t("board.centre"));
    if (state.token_holder < 0) startTile(group, 330, top + 1, 12, t("board.start_token"));
    pavilionCounts(group, 4, top + 14, 10, state.centre, 28, (c) => `take:0:${c}`);
    wildMarks(group, 4, top + 14, 10, state.centre, 28, state.wild);
    label(group, 4, top + 40, t("board.supply"));
    pavilionCounts(group, 4, top + 44, 10, state.supply, 28, (c) => `supply:${c}`);
    wildMarks(group, 4, top + 44, 10, state.supply, 28, state.wild);
    label(group, 200, 12, t("board.bag_tower", { bag: sum(state.bag), tower: sum(state.tower) }), 8);
    return top + 62;
  }

  // A star on each tile of the round's wild colour, drawn over ``counts``' layout.
  function wildMarks(parent, x, y, size, perColour, perRow, wild) {
    let index = 0;
    perColour.forEach((count, colour) => {
      for (let i = 0; i < count; i += 1) {
        if (PAVILION_COLOURS[colour] === wild) {
          const tx = x + (index % perRow) * (size + 2);
          const ty = y + Math.floor(index / perRow) * (size + 2);
          parent.appendChild(svg("text", { x: tx + size - 1, y: ty + 4, "font-size": 6, "text-anchor": "middle", class: "wild-mark" }, "★"));
        }
        index += 1;
      }
    });
  }

  // One star: six spaces round its middle, each with the cost printed on it; placed tiles in their colour.
  function star(parent, cx, cy, letter, spaces, costs, plan) {
    parent.appendChild(svg("text", { x: cx, y: cy + 3, "font-size": 8, "text-anchor": "middle", class: "label" }, letter));
    [...spaces].forEach((laid, position) => {
      const angle = (Math.PI / 3) * position - Math.PI / 2;
      const x = cx + 13 * Math.cos(angle) - 5;
      const y = cy + 13 * Math.sin(angle) - 5;
      const spot = hit(parent, `space:${letter}${position + 1}`);
      const coming = plan.spaces[`${letter}${position + 1}`];
      if (laid === "." && coming) {
        tile(ghost(spot), x, y, 10, coming.letter, PAVILION_FILL);
        gain(parent, x + 5, y - 1, coming.points);
      } else if (laid === ".") {
        spot.appendChild(svg("rect", { x, y, width: 10, height: 10, rx: 2, fill: PAVILION_FILL[letter] || "#ddd", "fill-opacity": 0.25, stroke: "#999", "stroke-width": 0.5 }));
        spot.appendChild(svg("text", { x: x + 5, y: y + 8, "font-size": 7, "text-anchor": "middle", fill: "#555" }, String(costs[position])));
      } else {
        tile(spot, x, y, 10, laid, PAVILION_FILL);
      }
    });
  }

  function pavilionSeat(root, seatState, seat, payload, top) {
    const t = Remote.t;
    const group = svg("g", { class: "player", transform: `translate(0 ${top})`, "data-seat": seat });
    root.appendChild(group);
    const turn = payload.current_player === seat;
    group.appendChild(svg("rect", { x: 1, y: 0, width: 358, height: 124, rx: 6, class: turn ? "player-box turn" : "player-box" }));
    const plan = planned(payload, seat);
    const passed = seatState.passed ? ` (${t("board.passed")})` : "";
    label(group, 6, 12, `${turn ? "▶ " : ""}${payload.seats[seat].name}: ${seatState.score}${passed}`, 10);
    label(group, 6, 28, t("board.hand"), 8);
    pavilionCounts(group, 6, 32, 10, seatState.hand, 8, (c) => `hand:${c}`);
    wildMarks(group, 6, 32, 10, seatState.hand, 8, payload.state.wild);
    label(group, 6, 72, t("board.corners"), 8);
    pavilionCounts(group, 6, 76, 10, seatState.corners, 4);
    if (payload.state.token_holder === seat) startTile(group, 330, 4, 12, t("board.start_token"));
    const built = (kind) => seatState.structures.filter((name) => name.startsWith(kind)).length;
    label(group, 6, 100, t("board.structures", { pillars: built("P-"), statues: built("S-"), windows: built("W-") }), 7);
    const centreX = 250;
    const centreY = 62;
    seatState.board.forEach((spaces, index) => {
      const angle = (Math.PI / 3) * (index - 1) - Math.PI / 2;
      const x = index === 0 ? centreX : centreX + 48 * Math.cos(angle);
      const y = index === 0 ? centreY : centreY + 40 * Math.sin(angle);
      star(group, x, y, PAVILION_STARS[index], spaces, payload.state.costs[index], plan);
    });
    return top + 128;
  }

  // Per game: the shared part of the table, the boards in the state, and how to draw one board.
  const GAMES = {
    duel: { centre: duelCentre, boards: (state) => state.players, board: duelPlayer },
    pavilion: { centre: pavilionCentre, boards: (state) => state.seats, board: pavilionSeat },
  };

  // Draw ``payload``'s table; ``first`` is the seat drawn right after the shared part (the viewer's).
  function draw(container, payload, first = null) {
    const game = GAMES[payload.game];
    const root = svg("svg", { class: "table-drawing", role: "group", "aria-label": Remote.t("live.board") });
    let height = game.centre(root, payload.state, payload);
    const boards = game.boards(payload.state);
    const order = boards.map((_, seat) => seat);
    if (first !== null) order.sort((a, b) => (b === first) - (a === first));
    order.forEach((seat) => {
      height = game.board(root, boards[seat], seat, payload, height);
    });
    root.setAttribute("viewBox", `0 0 360 ${height}`);
    container.replaceChildren(root);
    markLast(root, payload);
    return root;
  }

  // The parts of a board that the last decision changed, from the core's events.
  const LAST_KEYS = {
    tile_laid: (e) => `cell:${e.cell[0]}:${e.cell[1]}`,
    special_laid: (e) => `cell:${e.cell[0]}:${e.cell[1]}`,
    line_filled: (e) => `line:${e.line}`,
    tiles_broken: () => "line:0",
    plate_placed: (e) => `slot:${e.slot}`,
    tile_placed: (e) => `space:${e.space}`,
  };

  function markLast(root, payload) {
    if (!payload.last) return;
    payload.last.events.forEach((event) => {
      const keyOf = LAST_KEYS[event.event];
      if (!keyOf || event.player === null) return;
      const board = root.querySelector(`[data-seat="${event.player}"]`);
      if (!board) return;
      board.querySelectorAll(`[data-hit="${keyOf(event)}"]`).forEach((node) => node.classList.add("last"));
    });
  }

  return { draw };
})();

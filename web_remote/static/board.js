"use strict";
// Draws the public state as SVG, sized for a finger: the shared part of the table (factories, centre,
// plates) and one player's board large, the other players behind tabs. Every part a player can touch
// is one box of at least PART drawing units (about a CSS pixel each on a 390 px phone) and owns a
// cell reaching halfway to its neighbours, so a touch a few pixels off still names it (touch.js).
// Tile colours carry a shape as their second cue, which reads the same in every language.
const Board = (() => {
  const WIDTH = 360;
  const PART = 46; // the smallest side of a touchable part
  const PITCH = 50; // from one touchable part to the next
  const PAD = (PITCH - PART) / 2; // how far a part's cell reaches beyond its box
  const FILL = { B: "#1f4fa8", T: "#27b3c2", R: "#d2382d", Y: "#f0c230", K: "#262626", S: "#d8b27c", W: "#b9a6d6" };
  const PAVILION_FILL = { P: "#7b3fa0", G: "#2e9b47", O: "#ef7d1a", Y: "#f0c230", B: "#2a66c9", R: "#d2382d", C: "#eeeeee" };
  const PAVILION_COLOURS = "PGOYBR";
  const PAVILION_STARS = "CORBYGP";
  const SPACE = { B: "#c4d1ee", T: "#c3ecf0", R: "#f2c7c3", Y: "#f8ebbd", K: "#bdbdbd", S: "#ecdcc4", W: "#e4dbef" };
  const GLYPH_ON = { B: "#fff", T: "#000", R: "#fff", Y: "#000", K: "#fff", S: "#000", W: "#000", P: "#fff", G: "#fff", O: "#000", C: "#333" };
  // One shape per colour within a game: circle, square, diamond, triangles, cross, plus; a star for
  // the Duel's special tiles and an asterisk for spaces that take any colour.
  const SHAPE = { R: "circle", B: "square", Y: "diamond", T: "triangle", G: "triangle", O: "down", K: "cross", P: "plus", S: "star", W: "asterisk", C: "asterisk" };
  const COLOURS = "BTRYK";

  // A part of a drawing as plain data while it is drawn and marked: cheaper to build than the page's nodes,
  // and its markup tells whether the drawing changed since the page showed it.
  class Shape {
    constructor(tag, attributes, text) {
      this.tag = tag;
      this.attributes = attributes;
      this.text = text;
      this.children = [];
    }

    appendChild(child) {
      this.children.push(child);
      return child;
    }

    get classList() {
      return {
        add: (name) => {
          const names = (this.attributes.class || "").split(" ").filter(Boolean);
          if (!names.includes(name)) this.attributes = { ...this.attributes, class: [...names, name].join(" ") };
        },
      };
    }

    // The shape as markup, into ``out`` (a list of strings); every attribute and text escaped.
    write(out) {
      out.push("<", this.tag);
      for (const [name, value] of Object.entries(this.attributes)) out.push(" ", name, '="', escaped(value), '"');
      out.push(">");
      if (this.text !== undefined) out.push(escaped(this.text));
      this.children.forEach((child) => child.write(out));
      out.push("</", this.tag, ">");
    }

    markup() {
      const out = [];
      this.write(out);
      return out.join("");
    }
  }

  const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
  function escaped(value) {
    return typeof value === "number" ? String(value) : String(value).replace(/[&<>"]/g, (found) => ESCAPES[found]);
  }

  function svg(tag, attributes = {}, text) {
    return new Shape(tag, attributes, text);
  }

  // A group for one touchable part with ``key``: its cell (where a touch counts for it) and its
  // outlined box, drawn first so that what the part shows lies on top.
  function part(parent, key, x, y, width = PART, height = PART) {
    const group = svg("g", { "data-hit": key, class: "hit" });
    group.appendChild(svg("rect", { x: x - PAD, y: y - PAD, width: width + 2 * PAD, height: height + 2 * PAD, class: "cell" }));
    group.appendChild(svg("rect", { x, y, width, height, rx: 5, class: "target" }));
    parent.appendChild(group);
    return group;
  }

  function label(parent, x, y, text, size = 11, anchor = "start") {
    parent.appendChild(svg("text", { x, y, "font-size": size, "text-anchor": anchor, class: "label" }, text));
  }

  // A colour's shape centred on (cx, cy) within radius r.
  function glyph(parent, cx, cy, r, letter, colour) {
    const stroke = { fill: "none", stroke: colour, "stroke-width": Math.max(1, r * 0.4), "stroke-linecap": "round", class: "glyph" };
    const filled = { fill: colour, class: "glyph" };
    const points = (list) => list.map(([x, y]) => `${cx + x * r},${cy + y * r}`).join(" ");
    const lines = (list) => list.map(([x1, y1, x2, y2]) => `M${cx + x1 * r} ${cy + y1 * r}L${cx + x2 * r} ${cy + y2 * r}`).join("");
    const shapes = {
      circle: () => svg("circle", { cx, cy, r: r * 0.8, ...filled }),
      square: () => svg("rect", { x: cx - r * 0.72, y: cy - r * 0.72, width: r * 1.44, height: r * 1.44, ...filled }),
      diamond: () => svg("polygon", { points: points([[0, -1], [1, 0], [0, 1], [-1, 0]]), ...filled }),
      triangle: () => svg("polygon", { points: points([[0, -0.95], [0.95, 0.75], [-0.95, 0.75]]), ...filled }),
      down: () => svg("polygon", { points: points([[0, 0.95], [0.95, -0.75], [-0.95, -0.75]]), ...filled }),
      cross: () => svg("path", { d: lines([[-0.7, -0.7, 0.7, 0.7], [0.7, -0.7, -0.7, 0.7]]), ...stroke }),
      plus: () => svg("path", { d: lines([[0, -0.9, 0, 0.9], [-0.9, 0, 0.9, 0]]), ...stroke }),
      asterisk: () => svg("path", { d: lines([[0, -0.9, 0, 0.9], [-0.78, -0.45, 0.78, 0.45], [0.78, -0.45, -0.78, 0.45]]), ...stroke }),
      star: () => svg("polygon", {
        points: points([...Array(10).keys()].map((i) => {
          const angle = (Math.PI / 5) * i - Math.PI / 2;
          const reach = i % 2 ? 0.42 : 1;
          return [reach * Math.cos(angle), reach * Math.sin(angle)];
        })),
        ...filled,
      }),
    };
    const shape = shapes[SHAPE[letter]];
    if (shape) parent.appendChild(shape());
  }

  // A tile: its colour and its colour's shape.
  function tile(parent, x, y, size, letter, fills = FILL) {
    parent.appendChild(svg("rect", { x, y, width: size, height: size, rx: Math.max(1.5, size / 8), fill: fills[letter] || "#888", class: `tile tile-${letter}` }));
    glyph(parent, x + size / 2, y + size / 2, size * 0.3, letter, GLYPH_ON[letter] || "#fff");
  }

  // A Duel dome space: the pale colour it takes, with that colour's shape faint on it.
  function space(parent, x, y, size, letter) {
    parent.appendChild(svg("rect", { x, y, width: size, height: size, fill: SPACE[letter] || "#eee", stroke: "#999", "stroke-width": 0.5, class: "space" }));
    glyph(parent, x + size / 2, y + size / 2, size * 0.22, letter, "#0004");
  }

  // How many tiles a colour part holds, in a badge on its corner.
  function badge(parent, x, y, count) {
    parent.appendChild(svg("circle", { cx: x, cy: y, r: 9, class: "badge" }));
    parent.appendChild(svg("text", { x, y: y + 4, "font-size": 11, "text-anchor": "middle", class: "badge-text" }, `×${count}`));
  }

  // The round's wild colour, marked on each of its tiles.
  function wildMark(parent, x, y) {
    parent.appendChild(svg("text", { x, y, "font-size": 13, "text-anchor": "middle", class: "wild-mark" }, "★"));
  }

  // Tiles from per-colour counts, one part per colour present (its tile and how many), in rows of
  // ``perRow`` parts from (x, y). Without ``keyOf`` nothing can be touched. Returns the height used.
  // ``coming`` (letter -> count) adds the tiles a chosen option would bring, see-through with their new count.
  function colourParts(parent, x, y, perColour, { letters = COLOURS, fills = FILL, keyOf = null, perRow = 6, wild = null,
    coming = {} }) {
    let index = 0;
    perColour.forEach((held, colour) => {
      const letter = letters[colour];
      const count = held + (coming[letter] || 0);
      if (!count) return;
      const px = x + (index % perRow) * PITCH;
      const py = y + Math.floor(index / perRow) * PITCH;
      const group = keyOf ? part(parent, keyOf(letter), px, py) : parent;
      tile(held ? group : ghost(group), px + 4, py + 4, PART - 8, letter, fills);
      if (count > 1) badge(coming[letter] ? ghost(group) : group, px + PART - 6, py + PART - 6, count);
      if (letter === wild) wildMark(group, px + PART - 8, py + 14);
      index += 1;
    });
    return Math.max(1, Math.ceil(index / perRow)) * PITCH;
  }

  const EMPTY_ROW = 22; // the height of a row of factories that hold nothing: their names only

  // ``items`` in rows of ``perRow``, each row with its items (and their indexes) and whether any of
  // them passes ``holds`` (a row of empty factories is drawn low).
  function rows(items, perRow, holds) {
    const result = [];
    items.forEach((item, index) => {
      if (index % perRow === 0) result.push({ items: [], full: false });
      const row = result[result.length - 1];
      row.items.push({ item, index });
      row.full = row.full || holds(item);
    });
    return result;
  }

  // Small tiles in a row that nothing touches (hands, kept tiles).
  function smallTiles(parent, x, y, letters, fills = FILL, size = 16) {
    [...letters].forEach((letter, i) => tile(parent, x + i * (size + 2), y, size, letter, fills));
  }

  function perColourLetters(perColour, letters) {
    return perColour.map((count, colour) => letters[colour].repeat(count)).join("");
  }

  function plate(parent, x, y, size, spaces) {
    [...spaces].forEach((letter, quarter) => space(parent, x + (quarter % 2) * size, y + Math.floor(quarter / 2) * size, size, letter));
  }

  function duelCentre(root, state, payload) {
    const t = Remote.t;
    const group = svg("g", { class: "centre" });
    root.appendChild(group);
    const large = state.large_factory;
    group.appendChild(svg("rect", { x: 2, y: 2, width: 356, height: 130, rx: 6, class: "factory" }));
    label(group, 8, 17, t("board.large_factory"));
    colourParts(group, 8, 24, large.sun, { keyOf: (c) => `sun:0:${c}` });
    label(group, 8, 104, t("board.moon"));
    colourParts(group, 62, 78, large.moon, { keyOf: (c) => `moon:${c}` });
    if (large.start_tile) startTile(group, 320, 8, 28, t("board.start_tile"));
    const stacking = stackingOf(state, payload);
    let top = 136;
    const holds = (factory) => sum(factory.sun) > 0 || factory.moon.length > 0 || Boolean(factory.chip || factory.chip_hidden);
    rows(state.small_factories, 2, holds).forEach(({ items, full }) => {
      items.forEach(({ item: factory, index }, column) => {
        smallFactory(group, factory, index + 1, 2 + column * 180, top, full ? 128 : EMPTY_ROW, stacking);
      });
      top += (full ? 128 : EMPTY_ROW) + 4;
    });
    top = plates(group, state, top);
    if (state.hand) {
      label(group, 8, top + 14, t("board.hand"));
      smallTiles(group, 90, top + 2, state.hand);
      top += 22;
    }
    if (state.kept >= 0 && state.kept_spaces) {
      label(group, 8, top + 16, t("board.kept"));
      plate(group, 90, top + 2, 12, state.kept_spaces[0]);
      top += 28;
    }
    label(group, 8, top + 14, `${t("board.bag_tower", { bag: sum(state.bag), tower: sum(state.tower) })} · ${t("board.specials", { n: state.special_supply })}`, 10);
    return underStack(group, state.stack_under || [], state.stack_size, top + 20);
  }

  // A small factory: its sun tiles by colour, its moon (the top tile can be taken), its bonus chip.
  // While its leftovers await a stacking order, each touch moves one onto the moon, bottom first.
  function smallFactory(group, factory, number, x, y, height, stacking) {
    const t = Remote.t;
    group.appendChild(svg("rect", { x, y, width: 176, height, rx: 6, class: "factory" }));
    label(group, x + 6, y + 15, t("board.factory", { n: number }));
    if (height === EMPTY_ROW) return;
    const ordering = stacking.factory === number;
    const stacked = ordering ? stacking.order : "";
    const sun = ordering
      ? factory.sun.map((count, c) => count - [...stacked].filter((letter) => letter === COLOURS[c]).length)
      : factory.sun;
    colourParts(group, x + 6, y + 22, sun, { perRow: 2, keyOf: (c) => (ordering ? `order:${c}` : `sun:${number}:${c}`) });
    const moon = factory.moon;
    if (moon.length && !stacked) tile(part(group, `moon:${moon[moon.length - 1]}`, x + 108, y + 22), x + 112, y + 26, PART - 8, moon[moon.length - 1]);
    else if (moon.length) tile(group, x + 112, y + 26, PART - 8, moon[moon.length - 1]);
    // Below the top: the rest of the moon, nearest the top first; what the order would stack, see-through.
    const under = [...moon.slice(0, -1)].reverse();
    if (stacked) {
      const coming = ghost(group);
      [...stacked].forEach((letter, i) => tile(coming, x + 158, y + 22 + i * 15, 13, letter));
    }
    under.forEach((letter, i) => tile(group, x + 158, y + 22 + (stacked.length + i) * 15, 13, letter));
    if (factory.chip) chip(part(group, `chip:${number}`, x + 108, y + 76), x + 131, y + 99, factory.chip);
    else if (factory.chip_hidden) label(group, x + 108, y + 104, `${t("board.chip")}: ?`, 10);
  }

  // The dome plates on display, the stack and the plates drawn from it (in rows, so every one fits).
  function plates(group, state, top) {
    const t = Remote.t;
    label(group, 8, top + 14, t("board.display"));
    state.display.forEach((shown, index) => {
      const x = 8 + index * 58;
      if (shown) plate(part(group, `display:${index + 1}`, x, top + 20), x, top + 20, PART / 2, shown.spaces);
      label(group, x + PART / 2, top + 82, String(index + 1), 10, "middle");
    });
    const stack = part(group, "stack", 184, top + 20, 172, PART);
    stack.appendChild(svg("rect", { x: 186, y: top + 22, width: 168, height: PART - 4, rx: 4, class: "plate-back" }));
    label(stack, 192, top + 38, t("board.stack", { n: state.stack_size }), 11);
    if (state.stack_top) label(stack, 192, top + 56, t(`board.back.${state.stack_top}`), 10);
    top += 90;
    if (!state.drawn.length) return top;
    label(group, 8, top + 14, t("board.drawn"));
    const perRow = 6;
    state.drawn.forEach((drawn, index) => {
      const x = 8 + (index % perRow) * 58;
      const y = top + 20 + Math.floor(index / perRow) * 58;
      if (drawn.spaces) {
        plate(part(group, `drawn:${drawn.plate}`, x, y), x, y, PART / 2, drawn.spaces);
      } else {
        group.appendChild(svg("rect", { x, y, width: PART, height: PART, rx: 4, class: "plate-back" }));
        label(group, x + PART / 2, y + PART / 2 + 4, t(`board.back.${drawn.back}`), 8, "middle");
      }
    });
    return top + 20 + Math.ceil(state.drawn.length / perRow) * 58;
  }

  // The plates put under the stack, which everyone saw go there, each with its place counted from the top.
  function underStack(group, under, size, top) {
    if (!under.length) return top;
    const row = svg("g", { class: "under-stack" });
    group.appendChild(row);
    label(row, 8, top + 10, Remote.t("board.under_stack"), 10);
    under.forEach((shown, index) => {
      const x = 8 + (index % 5) * 70;
      const y = top + 16 + Math.floor(index / 5) * 26;
      plate(row, x, y, 11, shown.spaces);
      label(row, x + 26, y + 15, Remote.t("board.from_top", { n: shown.depth + 1, size }), 10);
    });
    return top + 20 + Math.ceil(under.length / 5) * 26;
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
    parent.appendChild(svg("text", { x, y, "font-size": 12, "text-anchor": "middle", class: "gain" }, `+${points}`));
  }

  // What the chosen option would do to ``seat``'s board, from the core's events on a copy of the
  // position (up to the round's end): tiles on pattern lines, broken tiles, tiles laid with their points,
  // tiles coming into a Summer Pavilion hand.
  function planned(payload, seat) {
    const plan = { lines: {}, broken: "", cells: {}, spaces: {}, hand: {} };
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
      const taken = { tiles_taken: event.count, wild_taken: 1, bonus_taken: 1 }[event.event];
      if (taken) plan.hand[event.colour] = (plan.hand[event.colour] || 0) + taken;
    }
    return plan;
  }

  function sum(values) {
    return values.reduce((total, value) => total + value, 0);
  }

  function startTile(parent, x, y, size, title) {
    const group = svg("g", { class: "start-tile" });
    group.appendChild(svg("title", {}, title));
    group.appendChild(svg("rect", { x, y, width: size, height: size, rx: 3, fill: "#fff", stroke: "#222" }));
    group.appendChild(svg("text", { x: x + size / 2, y: y + size * 0.75, "font-size": size * 0.7, "text-anchor": "middle", fill: "#000" }, "1"));
    parent.appendChild(group);
  }

  // A bonus chip centred on (cx, cy) by its face's colours (one or two), named in words for screen readers.
  function chip(parent, cx, cy, face) {
    const group = svg("g", { class: "chip" });
    group.appendChild(svg("title", {}, [...face].map((letter) => Remote.t(`colour.duel.${letter}`)).join(" / ")));
    const r = face.length > 1 ? 9.5 : 13;
    [...face].forEach((letter, i) => {
      const x = cx + (face.length > 1 ? (i ? 10 : -10) : 0);
      group.appendChild(svg("circle", { cx: x, cy, r, fill: FILL[letter], stroke: "#222", "stroke-width": 0.8 }));
      glyph(group, x, cy, r * 0.55, letter, GLYPH_ON[letter]);
    });
    parent.appendChild(group);
  }

  const LINE_RIGHT = 190; // where the pattern lines end: they fill from the right
  const LINE_TILE = 30;

  function duelPlayer(root, player, seat, payload) {
    const t = Remote.t;
    const group = svg("g", { class: "player", "data-seat": seat });
    root.appendChild(group);
    const plan = planned(payload, seat);
    label(group, 6, 16, boardTitle(payload, seat, player.score), 13);
    // The line being paid for or moved to the dome is outlined while its decision waits.
    const tiling = payload.current_player === seat && ["pay", "tile"].includes(payload.pending)
      ? payload.state.tiling_line + 1 : null;
    player.lines.forEach((line, index) => {
      const capacity = index + 1;
      const y = 24 + index * PITCH;
      const width = Math.max(PART, capacity * LINE_TILE + 6);
      const row = part(group, `line:${capacity}`, LINE_RIGHT - width, y, width, PART);
      if (capacity === tiling) row.classList.add("deciding");
      lineTiles(row, line, plan.lines[capacity] || "", capacity, y);
      label(group, LINE_RIGHT + 5, y + PART / 2 + 4, String(capacity), 11);
    });
    const brokenY = 24 + 6 * PITCH;
    label(group, 6, brokenY + PART / 2 + 4, t("board.broken"), 11);
    const broken = part(group, "line:0", LINE_RIGHT - (4 * LINE_TILE + 6), brokenY, 4 * LINE_TILE + 6, PART);
    lineTiles(broken, player.broken, plan.broken, 4, brokenY);
    label(group, 210, 36, t("board.chips"), 11);
    player.chips.forEach((face, i) => {
      const x = 210 + (i % 3) * PITCH;
      const y = 44 + Math.floor(i / 3) * PITCH;
      chip(part(group, `pay:${face}`, x, y), x + PART / 2, y + PART / 2, face);
    });
    objectives(group, payload, seat, 44 + Math.max(1, Math.ceil(player.chips.length / 3)) * PITCH + 10);
    return dome(group, player, payload, plan, seat, brokenY + PITCH + 8);
  }

  // The tiles of one pattern line (or the broken line), right-aligned: laid, coming (see-through), empty.
  function lineTiles(row, laid, coming, capacity, y) {
    for (let i = 0; i < capacity; i += 1) {
      const x = LINE_RIGHT - 3 - (i + 1) * LINE_TILE + 2;
      const ty = y + (PART - (LINE_TILE - 4)) / 2;
      if (i < laid.length) tile(row, x, ty, LINE_TILE - 4, laid[i]);
      else if (i < laid.length + coming.length) tile(ghost(row), x, ty, LINE_TILE - 4, coming[i - laid.length]);
      else row.appendChild(svg("rect", { x, y: ty, width: LINE_TILE - 4, height: LINE_TILE - 4, class: "empty" }));
    }
  }

  // The dome: nine plate slots of four spaces; a space or an empty slot is one part each.
  function dome(group, player, payload, plan, seat, top) {
    const x0 = 30;
    const y0 = top + 14;
    const preview = payload.preview && payload.preview.seat === seat ? payload.preview : null;
    for (let slot = 0; slot < 9; slot += 1) {
      const x = x0 + (slot % 3) * 2 * PITCH + PAD;
      const y = y0 + Math.floor(slot / 3) * 2 * PITCH + PAD;
      const side = 2 * PITCH - 2 * PAD;
      if (preview && preview.slot === slot + 1) {
        const area = part(group, `slot:${slot + 1}`, x, y, side, side);
        plate(area, x, y, side / 2, preview.spaces);
        area.appendChild(svg("rect", { x, y, width: side, height: side, class: "preview" }));
      } else if (player.plates[slot] < 0) {
        const area = part(group, `slot:${slot + 1}`, x, y, side, side);
        area.appendChild(svg("rect", { x, y, width: side, height: side, rx: 5, class: "no-plate" }));
        label(area, x + side / 2, y + side / 2 + 5, String(slot + 1), 14, "middle");
      }
    }
    player.dome_spaces.forEach((row, r) => {
      [...row].forEach((letter, c) => {
        if (letter === "-") return;
        const x = x0 + c * PITCH + PAD;
        const y = y0 + r * PITCH + PAD;
        const cell = part(group, `cell:${r + 1}:${c + 1}`, x, y);
        space(cell, x + 2, y + 2, PART - 4, letter);
        const laid = player.dome[r][c];
        const coming = plan.cells[`${r + 1}:${c + 1}`];
        if (laid !== ".") tile(cell, x + 4, y + 4, PART - 8, laid);
        else if (coming) tile(ghost(cell), x + 4, y + 4, PART - 8, coming.letter);
      });
    });
    Object.entries(plan.cells).forEach(([at, coming]) => {
      const [r, c] = at.split(":").map(Number);
      gain(group, x0 + (c - 1) * PITCH + PITCH / 2, y0 + (r - 1) * PITCH + 14, coming.points);
    });
    for (let i = 0; i < 6; i += 1) {
      label(group, x0 + i * PITCH + PITCH / 2, y0 - 3, String(i + 1), 10, "middle");
      label(group, x0 - 5, y0 + i * PITCH + PITCH / 2 + 4, String(i + 1), 10, "end");
    }
    return y0 + 6 * PITCH + 6;
  }

  // The game's objectives with this seat's points toward them so far.
  function objectives(group, payload, seat, top) {
    const progress = payload.objectives;
    if (!progress || !progress.length) return;
    label(group, 210, top, Remote.t("flag.objectives"), 11);
    progress.forEach((objective, i) => {
      label(group, 210, top + 15 + i * 14, `${objective.label}: ${objective.points[seat]}`, 10);
    });
  }

  function pavilionCentre(root, state) {
    const t = Remote.t;
    const group = svg("g", { class: "centre" });
    root.appendChild(group);
    label(group, 6, 18, t("board.wild"));
    tile(group, 110, 2, 24, state.wild, PAVILION_FILL);
    label(group, WIDTH - 4, 18, t("board.bag_tower", { bag: sum(state.bag), tower: sum(state.tower) }), 10, "end");
    const colours = { letters: PAVILION_COLOURS, fills: PAVILION_FILL, wild: state.wild };
    let top = 28;
    rows(state.factories, 3, (factory) => sum(factory) > 0).forEach(({ items, full }) => {
      const height = full ? 120 : EMPTY_ROW;
      items.forEach(({ item: factory, index }, column) => {
        const x = 2 + column * 120;
        group.appendChild(svg("rect", { x, y: top, width: 116, height, rx: 6, class: "factory" }));
        label(group, x + 8, top + 15, t("board.factory", { n: index + 1 }));
        if (full) colourParts(group, x + 10, top + 22, factory, { ...colours, perRow: 2, keyOf: (c) => `take:${index + 1}:${c}` });
      });
      top += height + 4;
    });
    label(group, 6, top + 14, t("board.centre"));
    if (state.token_holder < 0) startTile(group, 110, top, 20, t("board.start_token"));
    top += 20;
    top += colourParts(group, 8, top + PAD, state.centre, { ...colours, keyOf: (c) => `take:0:${c}` });
    label(group, 6, top + 14, t("board.supply"));
    top += 20;
    top += colourParts(group, 8, top + PAD, state.supply, { ...colours, keyOf: (c) => `supply:${c}` });
    return top + 4;
  }

  // One star as a row: its colour's tile, then its six spaces in order round the star, each with
  // the cost printed on it; placed tiles in their colour. ``paying`` is the placement whose cost is
  // being paid (colour and space, as "G@A1"): its space is outlined with the tile to come.
  function star(parent, y, letter, spaces, costs, plan, paying) {
    const row = svg("g", { class: "star" });
    row.appendChild(svg("title", {}, Remote.t(`star.${letter}`)));
    parent.appendChild(row);
    tile(row, 6, y + 7, 32, letter, PAVILION_FILL);
    [...spaces].forEach((laid, position) => {
      const x = 52 + position * PITCH + PAD;
      const spot = part(row, `space:${letter}${position + 1}`, x, y + PAD);
      const coming = plan.spaces[`${letter}${position + 1}`];
      const paid = paying && paying.space === `${letter}${position + 1}` ? paying : null;
      if (paid) spot.classList.add("deciding");
      if (laid === "." && paid && !coming) {
        tile(ghost(spot), x + 4, y + PAD + 4, PART - 8, paid.letter, PAVILION_FILL);
      } else if (laid === "." && coming) {
        tile(ghost(spot), x + 4, y + PAD + 4, PART - 8, coming.letter, PAVILION_FILL);
        gain(row, x + PART / 2, y + 14, coming.points);
      } else if (laid === ".") {
        spot.appendChild(svg("rect", { x: x + 3, y: y + PAD + 3, width: PART - 6, height: PART - 6, rx: 4, fill: PAVILION_FILL[letter], "fill-opacity": 0.25, class: "star-space" }));
        spot.appendChild(svg("text", { x: x + PART / 2, y: y + PAD + PART / 2 + 6, "font-size": 17, "text-anchor": "middle", class: "cost" }, String(costs[position])));
      } else {
        tile(spot, x + 4, y + PAD + 4, PART - 8, laid, PAVILION_FILL);
      }
    });
  }

  function pavilionSeat(root, seatState, seat, payload) {
    const t = Remote.t;
    const group = svg("g", { class: "player", "data-seat": seat });
    root.appendChild(group);
    const plan = planned(payload, seat);
    const passed = seatState.passed ? ` (${t("board.passed")})` : "";
    label(group, 6, 16, `${boardTitle(payload, seat, seatState.score)}${passed}`, 13);
    if (payload.state.token_holder === seat) startTile(group, 330, 2, 20, t("board.start_token"));
    label(group, 6, 38, t("board.hand"), 11);
    const colours = { letters: PAVILION_COLOURS, fills: PAVILION_FILL, wild: payload.state.wild };
    let top = 44 + colourParts(group, 8, 44 + PAD, seatState.hand, { ...colours, keyOf: (c) => `hand:${c}`, coming: plan.hand });
    label(group, 6, top + 14, t("board.corners"), 11);
    smallTiles(group, 90, top + 1, perColourLetters(seatState.corners, PAVILION_COLOURS), PAVILION_FILL);
    top += 26;
    const placing = payload.current_player === seat && payload.state.placing ? payload.state.placing.match(/^([A-Z])@([A-Z]\d)$/) : null;
    const paying = placing ? { letter: placing[1], space: placing[2] } : null;
    seatState.board.forEach((spaces, index) => {
      star(group, top + index * PITCH, PAVILION_STARS[index], spaces, payload.state.costs[index], plan, paying);
    });
    return structures(group, seatState, payload.state, top + seatState.board.length * PITCH + 4);
  }

  // The pillars, statues and windows, a row of each kind: every one drawn as the spaces around it, in
  // their stars' colours with their numbers, covered ones as tiles; a complete one framed dark.
  function structures(group, seatState, state, top) {
    const SIDE = 12.5;
    ["pillar", "statue", "window"].forEach((kind) => {
      const around = state.structures_around.filter((structure) => structure.kind === kind);
      const built = around.filter((structure) => seatState.structures.includes(structure.name)).length;
      label(group, 6, top + 11, Remote.t(`board.structures.${kind}`, { n: state.structure_bonus[kind], built }), 10);
      around.forEach((structure, index) => {
        const x = 6 + index * 59;
        const y = top + 16;
        const complete = seatState.structures.includes(structure.name);
        const box = svg("g", { class: `structure${complete ? " complete" : ""}`, "data-structure": structure.name });
        group.appendChild(box);
        box.appendChild(svg("rect", { x, y, width: 4 + structure.spaces.length * (SIDE + 1) - 1, height: SIDE + 4, rx: 3, class: "structure-frame" }));
        structure.spaces.forEach((name, position) => {
          const letter = name[0];
          const number = Number(name.slice(1));
          const laid = seatState.board[PAVILION_STARS.indexOf(letter)][number - 1];
          const sx = x + 2 + position * (SIDE + 1);
          if (laid !== ".") {
            tile(box, sx, y + 2, SIDE, laid, PAVILION_FILL);
            return;
          }
          box.appendChild(svg("rect", { x: sx, y: y + 2, width: SIDE, height: SIDE, rx: 2, fill: PAVILION_FILL[letter], "fill-opacity": 0.3 }));
          box.appendChild(svg("text", { x: sx + SIDE / 2, y: y + 2 + SIDE - 3, "font-size": 9, "text-anchor": "middle", class: "cost" }, String(number)));
        });
      });
      top += SIDE + 26;
    });
    return top;
  }

  function boardTitle(payload, seat, score) {
    const turn = payload.current_player === seat;
    return `${turn ? "▶ " : ""}${payload.seats[seat].name}: ${score}`;
  }

  // Per game: the shared part of the table, the boards in the state, and how to draw one board.
  const GAMES = {
    duel: { centre: duelCentre, boards: (state) => state.players, board: duelPlayer },
    pavilion: { centre: pavilionCentre, boards: (state) => state.seats, board: pavilionSeat },
  };

  // Which board a drawing shows large: a tab the viewer chose holds while the same seat decides in
  // the same game; otherwise ``first`` (the viewer's seat), else the seat whose turn it is.
  const chosenTab = new WeakMap();

  function shownSeat(container, payload, first, seats) {
    const turnKey = `${payload.game_id}:${payload.current_player}`;
    const chosen = chosenTab.get(container);
    if (chosen && chosen.turnKey === turnKey && chosen.seat < seats) return chosen.seat;
    chosenTab.delete(container);
    if (first !== null && first < seats) return first;
    return payload.current_player !== null && payload.current_player !== undefined ? payload.current_player : 0;
  }

  // What each container holds the drawing of, and how it is drawn again: a tab kept from an earlier
  // drawing (nothing on it changed) acts on the latest.
  const latest = new WeakMap();

  // One tab per seat, with the score: touching it shows that seat's board large.
  function tabs(container, payload, boards, shown) {
    const t = Remote.t;
    const row = document.createElement("div");
    row.className = "seat-tabs";
    row.dataset.seats = String(boards.length);
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", t("board.boards"));
    boards.forEach((board, seat) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = payload.current_player === seat ? "seat-tab turn" : "seat-tab";
      button.dataset.showSeat = String(seat);
      button.setAttribute("aria-pressed", String(seat === shown));
      // The name over the score, each on lines of its own: four tabs share a 320 px phone's width.
      const name = document.createElement("span");
      name.className = "tab-name";
      name.textContent = payload.seats[seat].name;
      const score = document.createElement("span");
      score.className = "tab-score";
      score.textContent = `${payload.current_player === seat ? "▶ " : ""}${board.score}`;
      button.replaceChildren(name, score);
      button.addEventListener("click", () => {
        const now = latest.get(container);
        chosenTab.set(container, { seat, turnKey: `${now.payload.game_id}:${now.payload.current_player}` });
        now.redraw();
      });
      row.appendChild(button);
    });
    return row;
  }

  // One drawing of the table, as tall as ``drawPart`` (which draws into it and returns its height) needs.
  function drawing(name, drawPart) {
    const root = svg("svg", { class: "table-drawing", role: "group", "aria-label": name });
    root.attributes.viewBox = `0 0 ${WIDTH} ${drawPart(root)}`;
    return root;
  }

  // A new drawing's touchable parts by key, in drawing order, each with the seat whose board it lies on (null:
  // the shared part of the table), for the marks put on the drawing before the page shows it.
  class Parts {
    constructor(drawings) {
      this.byKey = new Map();
      drawings.forEach((shape) => this.add(shape, null));
    }

    add(shape, board) {
      const seat = shape.attributes["data-seat"];
      const on = seat === undefined ? board : Number(seat);
      const key = shape.attributes["data-hit"];
      if (key !== undefined) {
        if (!this.byKey.has(key)) this.byKey.set(key, []);
        this.byKey.get(key).push({ shape, board: on });
      }
      shape.children.forEach((child) => this.add(child, on));
    }

    // The parts with ``key`` on ``seat``'s board, and with ``shared`` also those of the shared part.
    of(key, seat, shared = true) {
      return (this.byKey.get(key) || []).filter(({ board }) => board === seat || (shared && board === null))
        .map(({ shape }) => shape);
    }
  }

  // The markup each drawing on the page was made from: a drawing whose markup is the same again stays as it is.
  const shownMarkup = new WeakMap();
  const parser = document.createElement("template");

  // ``shape`` as the page's nodes: the one shown at ``index`` of ``container`` when it was made from the same
  // markup, else parsed from the markup.
  function realized(container, index, shape) {
    const markup = shape.markup();
    const showing = container.children[index];
    if (showing && shownMarkup.get(showing) === markup) return { node: showing, markup };
    parser.innerHTML = markup;
    return { node: parser.content.firstChild, markup };
  }

  // Draw ``payload``'s table into ``container``: the shared part, a tab per seat and one seat's board
  // (``first``, the viewer's, unless a tab was chosen). ``redraw`` draws again after a tab is touched;
  // ``decorate`` marks the new drawing (its parts given, for :func:`parts`) before it takes the place of the
  // old, of which what did not change stays. Only this changes a drawing on the page: marks put on it
  // afterwards could stay on a part drawn the same again. Returns the container, where the parts are.
  function draw(container, payload, first = null, redraw = () => draw(container, payload, first), decorate = () => {}) {
    const game = GAMES[payload.game];
    const boards = game.boards(payload.state);
    const shown = shownSeat(container, payload, first, boards.length);
    latest.set(container, { payload, redraw });
    const centre = drawing(Remote.t("live.board"), (root) => game.centre(root, payload.state, payload));
    const seatBoard = drawing(Remote.t("board.of", { name: payload.seats[shown].name }),
      (root) => game.board(root, boards[shown], shown, payload));
    const drawn = new Parts([centre, seatBoard]);
    markLast(drawn, payload);
    decorate(drawn);
    const pictures = [realized(container, 0, centre), realized(container, 2, seatBoard)];
    Remote.morph(container, [pictures[0].node, tabs(container, payload, boards, shown), pictures[1].node]);
    shownMarkup.set(container.children[0], pictures[0].markup);
    shownMarkup.set(container.children[2], pictures[1].markup);
    return container;
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

  function markLast(drawn, payload) {
    if (!payload.last) return;
    payload.last.events.forEach((event) => {
      const keyOf = LAST_KEYS[event.event];
      if (!keyOf || event.player === null) return;
      drawn.of(keyOf(event), event.player, false).forEach((shape) => shape.classList.add("last"));
    });
  }

  // The drawn parts with ``key`` that belong to ``seat``'s decision: shared parts (factories, the centre, the
  // supply) anywhere, a board's parts only on that seat's board; of a new drawing (``root`` the parts that
  // ``decorate`` is given) or of one on the page.
  function parts(root, key, seat) {
    if (root instanceof Parts) return root.of(key, seat);
    return [...root.querySelectorAll(`[data-hit="${CSS.escape(key)}"]`)].filter((node) => {
      const board = node.closest("[data-seat]");
      return board === null || Number(board.dataset.seat) === seat;
    });
  }

  return { draw, parts };
})();

"use strict";
// The board as the controller: every option of the pending decision is a short path of touches on
// the drawing (a source, then a target or a choice); only the next steps of some option react and
// are highlighted. A touch counts for the highlighted part whose cell it lands in, not only on the
// part itself: a finger is not a mouse pointer. Once the touches name one option the confirm panel
// shows what it would do.
const Touch = (() => {
  // The touches that name an option, from its notation (docs/notation.md).
  const PATHS = {
    duel(notation) {
      const n = notation.toUpperCase();
      let m;
      if ((m = n.match(/^P([1-3])$/))) return [`display:${m[1]}`];
      if (n === "P+") return ["stack"];
      if (n === "P=") return ["stop"];
      if ((m = n.match(/^S(\d)([A-Z])$/))) return [`sun:${m[1]}:${m[2]}`];
      if ((m = n.match(/^M([A-Z])$/))) return [`moon:${m[1]}`];
      if ((m = n.match(/^C(\d)$/))) return [`chip:${m[1]}`];
      if ((m = n.match(/^[KU](\d+)$/))) return [`drawn:${m[1]}`];
      if ((m = n.match(/^@(\d)R(\d)$/))) return [`slot:${m[1]}`, `rot:${m[2]}`];
      if ((m = n.match(/^L([1-6F])$/))) return [`line:${m[1] === "F" ? 0 : m[1]}`];
      if ((m = n.match(/^T(\d)(\d)$/))) return [`cell:${m[1]}:${m[2]}`];
      if (n === "$-") return ["nopay"];
      // A stacking order: the leftover tiles touched one by one, bottom first.
      if ((m = n.match(/^O([A-Z]+)$/))) return [...m[1]].map((letter) => `order:${letter}`);
      // A payment: the player's chips touched in any order.
      if ((m = n.match(/^\$(.+)$/))) return Object.assign(m[1].split("+").map((face) => `pay:${face}`), { unordered: true });
      return [`choice:${n}`];
    },
    pavilion(notation) {
      const n = notation.toUpperCase();
      let m;
      if ((m = n.match(/^F(\d)([A-Z])$/))) return [`take:${m[1]}:${m[2]}`];
      if ((m = n.match(/^C([A-Z])$/))) return [`take:0:${m[1]}`];
      if ((m = n.match(/^([A-Z])@([A-Z]\d)$/))) return [`space:${m[2]}`, `hand:${m[1]}`];
      if ((m = n.match(/^\+([A-Z])$/))) return [`supply:${m[1]}`];
      if ((m = n.match(/^K([A-Z])$/))) return [`hand:${m[1]}`];
      if (n === "K-") return ["discard"];
      if (n === "PASS") return ["pass"];
      return [`choice:${n}`]; // how many wild tiles to pay with
    },
  };

  // The move a touch on a part that is not outlined would have asked for (to ask the table why not),
  // from the part's key and what was touched before it; null when the part asks for no move alone.
  const COLOURS_OF_HAND = "PGOYBR"; // Summer Pavilion's tile counts, in the notation's order
  const ASKED = {
    duel(key, payload) {
      let m;
      if ((m = key.match(/^display:(\d)$/))) return `P${m[1]}`;
      if (key === "stack") return "P+";
      if ((m = key.match(/^sun:(\d):([A-Z])$/))) return `S${m[1]}${m[2]}`;
      if ((m = key.match(/^moon:([A-Z])$/))) return `M${m[1]}`;
      if ((m = key.match(/^chip:(\d)$/))) return `C${m[1]}`;
      if ((m = key.match(/^drawn:(\d+)$/))) return `${payload.pending === "return" ? "U" : "K"}${m[1]}`;
      if ((m = key.match(/^slot:(\d)$/))) return `@${m[1]}r0`;
      if ((m = key.match(/^line:(\d)$/))) return m[1] === "0" ? "LF" : `L${m[1]}`;
      if ((m = key.match(/^cell:(\d):(\d)$/))) return `T${m[1]}${m[2]}`;
      if ((m = key.match(/^pay:([A-Z]+)$/))) return `$${m[1]}`;
      return null;
    },
    pavilion(key, payload, seat, touched) {
      let m;
      if ((m = key.match(/^take:(\d):([A-Z])$/))) return m[1] === "0" ? `C${m[2]}` : `F${m[1]}${m[2]}`;
      if ((m = key.match(/^supply:([A-Z])$/))) return `+${m[1]}`;
      if ((m = key.match(/^hand:([A-Z])$/))) {
        if (payload.pending === "keep") return `K${m[1]}`;
        const space = touched.length ? touched[0].match(/^space:([A-Z]\d)$/) : null;
        return space ? `${m[1]}@${space[1]}` : null;
      }
      if ((m = key.match(/^space:(([A-Z])\d)$/))) {
        // An outer star of the coloured side takes its own colour; else the colour the hand holds most of.
        if (m[2] !== "C" && payload.state.side === "coloured") return `${m[2]}@${m[1]}`;
        const hand = (payload.state.seats[seat] || {}).hand || [];
        const most = hand.reduce((best, count, index) => (count > hand[best] ? index : best), 0);
        return `${COLOURS_OF_HAND[most]}@${m[1]}`;
      }
      return null;
    },
  };

  const WILDS = /^choice:W(\d)$/; // Summer Pavilion: how many wild tiles pay for the space

  function pathsOf(payload) {
    return payload.options.map((option) => ({ option, path: PATHS[payload.game](option.notation) }));
  }

  // The keys of ``path`` still to touch after ``touched``, or null when the touches lead elsewhere
  // (an unordered path, a set of chips, takes its keys in any order).
  function remaining(path, touched) {
    if (!path.unordered) {
      return touched.length <= path.length && touched.every((key, i) => path[i] === key) ? path.slice(touched.length) : null;
    }
    const left = [...path];
    for (const key of touched) {
      const index = left.indexOf(key);
      if (index < 0) return null;
      left.splice(index, 1);
    }
    return left;
  }

  // The state of one seat's touches during its decision: the keys touched so far.
  // ``freeBottom()``: where the page stops being visible (the top of a bar over its foot, if any).
  function create({ root, panel, onConfirm, onStepBack, onRefused = () => {}, freeBottom }) {
    let payload = null;
    let seat = null;
    let touched = [];
    let hinted = null; // the notation of this seat's hint for the position, fetched by the page

    const candidates = () => pathsOf(payload)
      .map(({ option, path }) => ({ option, path, left: remaining(path, touched) }))
      .filter(({ left }) => left !== null);
    const chosen = () => {
      const left = candidates();
      return left.length === 1 ? left[0].option : null;
    };
    const nextKeys = () => {
      if (chosen()) return new Set();
      return new Set(candidates().flatMap(({ path, left }) => (path.unordered ? left : left.slice(0, 1))));
    };

    const parts = (svgRoot, key) => Board.parts(svgRoot, key, seat);

    function mark(svgRoot, keys, name) {
      keys.forEach((key) => parts(svgRoot, key).forEach((node) => node.classList.add(name)));
    }

    // The touched parts: a key touched twice (two chips of one face) marks two of its parts. A
    // leftover tile touched for the stacking order is drawn on the moon instead, and the part of its
    // colour left in the factory holds the tiles still to stack.
    function markTouched(svgRoot) {
      const times = {};
      touched.filter((key) => !key.startsWith("order:")).forEach((key) => { times[key] = (times[key] || 0) + 1; });
      Object.entries(times).forEach(([key, count]) => {
        parts(svgRoot, key).slice(0, count).forEach((node) => node.classList.add("chosen"));
      });
    }

    function touch(key) {
      if (!nextKeys().has(key)) return; // not a step of any option now: nothing happens
      touched = [...touched, key];
      const option = chosen();
      // What the seat can step back from within its turn is played at once; the rest waits for Confirm.
      if (option && option.reversible) {
        onConfirm(option.notation);
        return;
      }
      render(true);
    }

    function back() {
      if (touched.length) {
        touched = touched.slice(0, -1);
        render();
      } else if (payload.step_back) {
        onStepBack();
      }
    }

    // What the board shows of the option being chosen: the plate in its slot and rotation, the
    // stacking order touched so far, and once one option is named what it would do (its events).
    function preview() {
      const option = chosen();
      const order = touched.filter((key) => key.startsWith("order:")).map((key) => key.slice(6)).join("");
      const shown = { seat, order, events: option ? option.events : null };
      const placing = option || (touched.length === 1 ? candidates()[0].option : null);
      const found = payload.game === "duel" && placing && payload.state.kept_spaces && placing.notation.match(/^@(\d)r(\d)$/i);
      if (found) Object.assign(shown, { slot: Number(found[1]), spaces: payload.state.kept_spaces[Number(found[2])] });
      return shown;
    }

    // Draw the board for this seat's decision; with ``reveal``, scroll the next parts into view
    // when none of them is whole on the screen (the line to fill after a take, the hand after a space).
    function render(reveal = false) {
      const next = nextKeys();
      const hintNow = hintedNow();
      const drawn = Board.draw(root, { ...payload, preview: preview() }, seat, () => render(), (fresh) => {
        mark(fresh, next, "legal");
        markTouched(fresh);
        mark(fresh, hintNow, "hint");
      });
      root.dataset.touches = touched.join(" ");
      renderPanel(drawn, next, hintNow);
      if (reveal) revealNext(drawn);
    }

    // The hint's step to take now, once the touches so far follow it: only a part that acts when touched
    // is outlined, and the bar's button when the step is one.
    function hintedNow() {
      if (!hinted) return [];
      const path = PATHS[payload.game](hinted);
      const left = remaining(path, touched);
      if (!left) return [];
      return path.unordered ? left : left.slice(0, 1);
    }

    function revealNext(drawn) {
      const legal = [...drawn.querySelectorAll("[data-hit].legal")];
      const bottom = freeBottom();
      const onScreen = (node) => {
        const box = node.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= bottom;
      };
      if (legal.length && !legal.some(onScreen)) legal[0].scrollIntoView({ block: "center" });
    }

    // The part a touch at (x, y) names: of the outlined parts whose cell holds the point, the one
    // whose box is nearest. A finger lands a few pixels off; a cell reaches halfway to the next part.
    function partAt(x, y) {
      let best = null;
      root.querySelectorAll("[data-hit].legal").forEach((node) => {
        const cell = (node.querySelector(":scope > .cell") || node).getBoundingClientRect();
        if (x < cell.left || x > cell.right || y < cell.top || y > cell.bottom) return;
        const box = (node.querySelector(":scope > .target") || node).getBoundingClientRect();
        const distance = Math.hypot(Math.max(box.left - x, 0, x - box.right), Math.max(box.top - y, 0, y - box.bottom));
        if (!best || distance < best.distance) best = { key: node.dataset.hit, distance };
      });
      return best && best.key;
    }

    function button(text, onClick, { id, secondary = false, key, hint = false } = {}) {
      const node = Remote.element("button", { type: "button", class: `${secondary ? "secondary" : "big"}${hint ? " hinted" : ""}` }, text);
      if (id) node.id = id;
      if (key) node.dataset.hit = key;
      node.addEventListener("click", onClick);
      return node;
    }

    function renderPanel(svgRoot, next, hintNow) {
      const { t, element } = Remote;
      const items = [];
      const option = chosen();
      if (option) {
        items.push(element("p", { class: "choice", id: "confirm-label" }, option.label));
        if (option.summary) items.push(element("p", { class: "preview", id: "confirm-preview" }, option.summary));
        items.push(button(t("live.confirm"), () => onConfirm(option.notation), { id: "confirm" }));
      } else {
        // Steps with nothing to touch on the board (stop, pass, rotations, payments) are buttons here.
        const offBoard = [...next].filter((key) => parts(svgRoot, key).length === 0);
        const row = element("div", { class: "choices" });
        offBoard.forEach((key) => {
          const example = candidates().find(({ left }) => left.includes(key)).option;
          const step = button(stepLabel(key, example), () => touch(key), { key, secondary: true, hint: hintNow.includes(key) });
          step.setAttribute("aria-label", example.label);
          row.appendChild(step);
        });
        // Say where the choice is (the board, these buttons, or both; a payment in wild tiles asks how many),
        // then the buttons.
        const paying = offBoard.length > 0 && offBoard.every((key) => WILDS.test(key));
        const where = paying ? "live.pay_wilds" : offBoard.length === next.size ? "live.touch_buttons"
          : offBoard.length ? "live.touch_or_buttons" : touched.length ? "live.touch_next" : "live.touch_prompt";
        items.push(element("p", { class: "prompt", id: "touch-prompt" }, t(where)));
        if (offBoard.length) items.push(row);
      }
      if (touched.length || payload.step_back) items.push(button(t("live.step_back"), back, { id: "step-back", secondary: true }));
      panel.replaceChildren(...items);
      panel.hidden = false;
    }

    // A button's words: a rotation's angle, a payment's number of wild tiles (the prompt asks how many),
    // else the option's own words.
    function stepLabel(key, example) {
      const rotation = key.match(/^rot:(\d)$/);
      if (rotation) return `↻ ${90 * Number(rotation[1])}°`;
      const wilds = key.match(WILDS);
      return wilds ? wilds[1] : example.label;
    }

    // A part touched that is not outlined: the one under the finger itself (near misses go to the
    // outlined parts), on a shared area or on this seat's board.
    function missedAt(x, y) {
      let best = null;
      root.querySelectorAll("[data-hit]:not(.legal)").forEach((node) => {
        const board = node.closest("[data-seat]");
        if (board !== null && Number(board.dataset.seat) !== seat) return;
        const box = (node.querySelector(":scope > .target") || node).getBoundingClientRect();
        if (x < box.left || x > box.right || y < box.top || y > box.bottom) return;
        const distance = Math.hypot(x - (box.left + box.right) / 2, y - (box.top + box.bottom) / 2);
        if (!best || distance < best.distance) best = { node, distance };
      });
      return best && best.node;
    }

    root.addEventListener("click", (event) => {
      if (!payload) return;
      if (seat === null) {
        onRefused(null, event.target.closest("[data-hit]"));
        return;
      }
      const key = partAt(event.clientX, event.clientY);
      if (key) {
        touch(key);
        return;
      }
      const missed = missedAt(event.clientX, event.clientY);
      if (missed) onRefused(ASKED[payload.game](missed.dataset.hit, payload, seat, touched), missed);
    });

    return {
      // A new payload: touches survive only while the position stays the same.
      // Draw ``next``; the seat ``mine`` (or null) touches the board when the decision is its own.
      update(next, mine) {
        const yours = mine !== null && !next.over && next.current_player === mine;
        const moved = !payload || payload.game_id !== next.game_id || payload.moves !== next.moves;
        const newlyYours = yours && seat === null;  // also when a rematch gives this phone its seat back
        payload = next;
        seat = yours ? mine : null;
        if (!yours || moved || !candidates().length) touched = [];
        if (!yours || moved) hinted = null;
        if (!yours) {
          Board.draw(root, payload, mine);
          delete root.dataset.touches;
          panel.hidden = true;
          panel.replaceChildren();
          return;
        }
        render(moved || newlyYours);
      },
      // Outline the hint's step to take now, on the board or in the bar (null: no hint).
      hint(notation) {
        hinted = notation;
        if (seat !== null) render();
      },
    };
  }

  return { create, PATHS, ASKED };
})();

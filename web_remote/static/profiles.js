"use strict";
// Players' marks and the new-player fields, shared by the join and setup pages. A player is shown by their
// symbol drawn in their colour next to their name, so no one is told apart by colour alone.
const Profiles = (() => {
  const { t } = Remote;
  const SVG = "http://www.w3.org/2000/svg";
  const SHAPES = {
    circle: ["circle", { cx: 10, cy: 10, r: 8 }],
    square: ["rect", { x: 2.5, y: 2.5, width: 15, height: 15 }],
    diamond: ["path", { d: "M10 1 19 10 10 19 1 10Z" }],
    triangle: ["path", { d: "M10 1.5 19 18H1Z" }],
    star: ["path", { d: "M10 1.5 12.2 7.4 18.6 7.7 13.6 11.7 15.3 17.8 10 14.3 4.7 17.8 6.4 11.7 1.4 7.7 7.8 7.4Z" }],
    heart: ["path", { d: "M10 18C4 13.5 1.5 10 2.3 6.6 3.2 3 7.7 2.4 10 6 12.3 2.4 16.8 3 17.7 6.6 18.5 10 16 13.5 10 18Z" }],
    moon: ["path", { d: "M9.1 2.05A8 8 0 1 0 17.48 12.83 7 7 0 0 1 9.1 2.05Z" }],
    cross: ["path", { d: "M7 1.5h6v5.5h5.5v6H13v5.5H7V13H1.5V7H7Z" }],
  };

  // The symbol drawn in the colour, for beside a name (hidden from screen readers: the name says who).
  function mark(colour, symbol) {
    const [tag, shape] = SHAPES[symbol] || SHAPES.circle;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 20 20");
    svg.setAttribute("class", `mark mark-${colour}`);
    svg.setAttribute("aria-hidden", "true");
    const drawn = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(shape)) drawn.setAttribute(name, String(value));
    svg.appendChild(drawn);
    return svg;
  }

  // A profile's name as the pages show it: a computer player is named by its level.
  function nameOf(profile) {
    return profile.kind === "computer" ? t("profile.computer", { level: t(`level.${profile.level}`) }) : profile.name;
  }

  // The mark and name of a profile, as a span.
  function named(profile) {
    const span = document.createElement("span");
    span.className = "named";
    span.append(mark(profile.colour, profile.symbol), document.createTextNode(nameOf(profile)));
    return span;
  }

  // The new-player fields of templates/pages/new_player.html in ``root``: each colour is drawn with the
  // chosen symbol and each symbol in the chosen colour; they start on ``look`` ({colour, symbol}: the pair
  // the table says nobody has, ``new_look`` of GET /api/players), or on the first choices.
  function form(root, look = null) {
    const choices = (what) => [...root.querySelectorAll(`input[name="${root.id}-${what}"]`)];
    const chosen = (what) => (choices(what).find((input) => input.checked) || {}).value;
    const refused = root.querySelector(".message");

    function redraw() {
      const colour = chosen("colour");
      const symbol = chosen("symbol");
      root.querySelectorAll(".mark-choice .mark").forEach((drawn) => drawn.remove());
      for (const input of choices("colour")) input.after(mark(input.value, symbol));
      for (const input of choices("symbol")) input.after(mark(colour, input.value));
    }

    function pick(start) {
      for (const what of ["colour", "symbol"]) {
        const inputs = choices(what);
        (inputs.find((input) => start && input.value === start[what]) || inputs[0]).checked = true;
      }
      redraw();
    }

    root.addEventListener("change", (event) => {
      if (event.target.type === "radio") redraw();
    });
    pick(look);
    return {
      root,
      name: root.querySelector(".profile-name"),
      // The fields as the API takes them (``languages`` only where the form asks for them).
      values() {
        const fields = { name: this.name.value, colour: chosen("colour"), symbol: chosen("symbol") };
        const languages = choices("languages");
        if (languages.length) fields.languages = languages.filter((input) => input.checked).map((input) => input.value);
        return fields;
      },
      // The server's reason next to the name, or none; what was typed stays.
      refuse(message) {
        refused.textContent = message || "";
        refused.hidden = !message;
        this.name.setAttribute("aria-invalid", message ? "true" : "false");
        if (message) this.name.focus();
      },
      // Empty again, on the pair nobody has now (``look``, after a new player joined the list).
      reset(next) {
        this.name.value = "";
        this.refuse("");
        pick(next);
      },
    };
  }

  // The refusals that are about what the fields say (the name typed, the colour and symbol chosen), shown
  // next to them rather than at the top of the page.
  const FORM_REFUSALS = new Set(["players.name_taken", "players.long_name", "players.empty_name", "players.bad_name",
    "players.bad_character", "players.confusable", "players.look_taken", "players.look_taken_all",
    "players.computer_look_taken"]);

  return { mark, nameOf, named, form, FORM_REFUSALS };
})();

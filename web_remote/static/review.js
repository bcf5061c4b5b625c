"use strict";
// The game review on the live page's game-over view: each player's biggest mistakes, each drawn on the
// board as it stood before the decision, the option played outlined red and the computer's preferred one
// green and dashed. It follows the game-over section that live.js shows and hides, and asks the server
// again while the computer is still reviewing.
(() => {
  const { t, call, element } = Remote;
  const POLL_MS = 5000;
  const section = document.getElementById("review");
  const over = document.getElementById("over");
  const status = document.getElementById("review-status");
  const players = document.getElementById("review-players");
  const points = new Intl.NumberFormat(document.documentElement.lang, { maximumFractionDigits: 1 });
  let timer = null;
  let following = false;
  let drawn = null; // the game whose finished review is drawn, so a poll that brings nothing new draws nothing

  // The board parts an option is played with (touch.js's paths), on the deciding seat's board.
  function mark(parts, game, notation, seat, name) {
    Touch.PATHS[game](notation).forEach((key) => Board.parts(parts, key, seat).forEach((node) => node.classList.add(name)));
  }

  function mistake(item, seat) {
    const figure = element("figure", { class: "mistake", "data-ply": item.ply });
    const drawing = element("div", { class: "board" });
    figure.appendChild(drawing);
    const outline = (parts) => {
      mark(parts, item.board.game, item.played.notation, seat, "review-played");
      mark(parts, item.board.game, item.preferred.notation, seat, "review-preferred");
    };
    const show = () => Board.draw(drawing, item.board, seat, show, outline); // a tab touched keeps the outlines
    show();
    const caption = element("figcaption");
    caption.appendChild(element("strong", {}, t("review.decision", { ply: item.ply, points: points.format(item.loss) })));
    caption.appendChild(element("span", { class: "played" }, t("review.played", { label: item.played.label })));
    caption.appendChild(element("span", { class: "preferred" }, t("review.preferred", { label: item.preferred.label })));
    figure.appendChild(caption);
    return figure;
  }

  // While the computer reviews, only its progress shows: a verdict (the mistakes, or that there is none
  // worth showing) comes with the finished review.
  function render(review) {
    if (!review.complete) {
      status.textContent = t("review.progress", { done: review.reviewed, n: review.decisions });
      players.replaceChildren();
      drawn = null;
      return;
    }
    status.textContent = "";
    if (review.game_id === drawn) return;
    drawn = review.game_id;
    players.replaceChildren(...review.players.map((player) => {
      const part = element("div", { class: "review-player", "data-seat": player.seat });
      part.appendChild(element("h3", {}, player.name));
      if (!player.mistakes.length) part.appendChild(element("p", { class: "none" }, t("review.none")));
      player.mistakes.forEach((item) => part.appendChild(mistake(item, player.seat)));
      return part;
    }));
  }

  async function load() {
    timer = null;
    let review;
    try {
      review = await call(section.dataset.url, { method: "GET" });
    } catch (error) {
      if (error.status === 404) return; // a table that keeps no journal has no review: the section stays hidden
      review = null;
      status.textContent = error.message;
    }
    if (!following) return;
    section.hidden = review !== null && !review.players.length; // only the computer played: nothing to review
    if (review !== null) render(review);
    if (review === null || !review.complete) timer = setTimeout(load, POLL_MS);
  }

  // live.js sets the game-over section's hidden attribute on every update: start once, stop when it hides.
  function follow() {
    if (!over.hidden) {
      if (!following) {
        following = true;
        load();
      }
      return;
    }
    following = false;
    clearTimeout(timer);
    timer = null;
    drawn = null;
    section.hidden = true;
    players.replaceChildren();
  }

  new MutationObserver(follow).observe(over, { attributes: true, attributeFilter: ["hidden"] });
  follow();
})();

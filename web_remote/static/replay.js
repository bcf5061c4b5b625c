"use strict";
// The replay page: the board drawing of the position, a slider over the moves, play/pause stepping
// one move a second (the playing survives the page change to the next move).
(() => {
  const PLAYING_KEY = "azul.replay.playing";
  const STEP_MS = 1200;
  const $ = (id) => document.getElementById(id);
  const board = JSON.parse($("replay-board").textContent);
  Board.draw($("board"), board);
  // The game's charts come drawn by the server, after the page: each step of the replay stays small.
  const story = $("story-charts");
  Remote.fragment(story.dataset.url).then((nodes) => nodes && story.replaceChildren(...nodes)).catch(() => {});
  const slider = $("ply-slider");
  const play = $("play");
  const goTo = (ply) => window.location.assign(`${slider.dataset.url}?ply=${ply}`);
  const playing = () => sessionStorage.getItem(PLAYING_KEY) === slider.dataset.url;

  function label() {
    play.textContent = playing() ? play.dataset.pause : play.dataset.play;
    play.setAttribute("aria-pressed", String(playing()));
  }

  slider.addEventListener("change", () => goTo(slider.value));
  play.addEventListener("click", () => {
    if (playing()) sessionStorage.removeItem(PLAYING_KEY);
    else sessionStorage.setItem(PLAYING_KEY, slider.dataset.url);
    label();
    if (playing()) goTo(Number(slider.value) + 1);
  });
  label();
  if (playing()) {
    if (Number(slider.value) >= Number(slider.max)) sessionStorage.removeItem(PLAYING_KEY);
    else setTimeout(() => { if (playing()) goTo(Number(slider.value) + 1); }, STEP_MS);
    label();
  }
})();

"use strict";
// The rules pages: each decision's picture is a real position drawn by the phone's board drawing, with
// the parts the deciding player may touch outlined, as the live page outlines them, and the parts of the
// first choice, whose result the drawing shows, marked as touched.
(() => {
  document.querySelectorAll("script.rules-board").forEach((data) => {
    const drawn = JSON.parse(data.textContent);
    const holder = document.querySelector(`[data-picture="${CSS.escape(data.dataset.for)}"]`);
    const outline = (root) => {
      const mark = (key, name) => Board.parts(root, key, drawn.current_player).forEach((node) => node.classList.add(name));
      drawn.options.forEach((notation) => mark(Touch.PATHS[drawn.game](notation)[0], "legal"));
      if (drawn.preview) Touch.PATHS[drawn.game](drawn.options[0]).forEach((key) => mark(key, "chosen"));
    };
    const show = () => Board.draw(holder, drawn, null, show, outline);
    show();
  });
})();

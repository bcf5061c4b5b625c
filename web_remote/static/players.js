"use strict";
// The host's changes on the players' pages: add a player, give old games' seats to a player, rename a
// player or change their colour, symbol and languages, merge two profiles of one person. Each goes through
// the players' API with the host token in a header; a refusal is told next to its control in the phone's
// language, and the table changed nothing. Reading the pages needs no script.
(() => {
  const { t, show, call } = Remote;
  const $ = (id) => document.getElementById(id);
  const host = Remote.hostToken();
  $("needs-host")?.toggleAttribute("hidden", Boolean(host));
  if (!host) return;
  document.querySelectorAll(".host-only").forEach((form) => { form.hidden = false; });

  // Send ``body`` to ``url`` for the host and reload the page to show the change; a refusal goes to the
  // message line ``said`` (or to the name field of ``fields``, when it is about the name).
  async function change(url, body, said, fields) {
    show("", "info", said);
    fields?.refuse("");
    try {
      await call(url, { body, host: Remote.hostToken() });
      window.location.reload();
    } catch (error) {
      if (fields && Profiles.FORM_REFUSALS.has(error.key)) fields.refuse(error.message);
      else show(error.message, "error", said);
    }
  }

  const adding = $("add-player");
  if (adding) {
    const fields = Profiles.form($("add-player-fields"), JSON.parse(adding.dataset.look));
    adding.addEventListener("submit", (event) => {
      event.preventDefault();
      change(adding.dataset.url, fields.values(), "add-player-said", fields);
    });
  }

  const editing = $("edit-player");
  if (editing) {
    const fields = Profiles.form($("edit-player-fields"));
    fields.name.value = editing.dataset.name;
    const languages = new Set(JSON.parse(editing.dataset.languages));
    for (const input of editing.querySelectorAll("input[type=radio], input[type=checkbox]")) {
      const what = input.name.slice("edit-player-fields-".length);
      input.checked = what === "languages" ? languages.has(input.value) : editing.dataset[what] === input.value;
    }
    editing.querySelector("input[type=radio]").dispatchEvent(new Event("change", { bubbles: true }));
    editing.addEventListener("submit", (event) => {
      event.preventDefault();
      const body = fields.values();
      if (body.name === editing.dataset.name) delete body.name;  // the name as it is: nothing to check
      change(editing.dataset.url, body, "edit-player-said", fields);
    });
  }

  const merging = $("merge");
  if (merging) {
    merging.addEventListener("submit", (event) => {
      event.preventDefault();
      const chosen = $("merge-player").selectedOptions[0];
      if (!window.confirm(t("merge.confirm", { merged: chosen.textContent, kept: merging.dataset.name }))) return;
      change(merging.dataset.url, { keep: Number(merging.dataset.keep), merge: Number(chosen.value) }, "merge-said");
    });
  }

  const attaching = $("attach");
  if (attaching) {
    (async () => {
      try {
        const { names } = await call(attaching.dataset.names, { method: "GET", host });
        $("attach-name").replaceChildren(...names.map(({ name, games }) =>
          Remote.element("option", { value: name }, t("attach.seat_games", { name, n: games }))));
        $("attach-button").disabled = !names.length;
        if (!names.length) show(t("attach.nothing_unlinked"), "info", "attach-said");
      } catch (error) {
        show(error.message, "error", "attach-said");
      }
    })();
    attaching.addEventListener("submit", (event) => {
      event.preventDefault();
      change(attaching.dataset.url, { name: $("attach-name").value, player: Number($("attach-player").value) },
        "attach-said");
    });
  }
})();

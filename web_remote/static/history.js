"use strict";
// The host's actions on the past-games pages: import a record file, show a replayed move or the live game
// on the table's LEDs, say whether a game counts for the ratings. Sent with the host token in a header;
// reading the pages needs none.
(() => {
  const { show, call, t } = Remote;
  const $ = (id) => document.getElementById(id);
  const host = Remote.hostToken();
  $("needs-host")?.toggleAttribute("hidden", Boolean(host));

  document.querySelectorAll("button[data-url]").forEach((button) => {
    button.disabled = !host;
    button.addEventListener("click", async () => {
      try {
        await call(button.dataset.url, { host: Remote.hostToken() });
        show(button.dataset.done, "info");
      } catch (error) {
        show(error.message);
      }
    });
  });

  // Whether a game counts for the ratings: shown to the host only; a refusal is told next to the choice,
  // which goes back to what the table kept.
  document.querySelectorAll("select[data-counts]").forEach((select, index) => {
    const label = select.closest("label");
    label.hidden = !host;
    const said = Remote.element("span", { id: `counts-said-${index}`, role: "status", class: "message", hidden: "" });
    label.after(said);
    let kept = select.value;
    select.addEventListener("change", async () => {
      try {
        await call(select.dataset.counts, { body: { counts: select.value }, host: Remote.hostToken() });
        kept = select.value;
        show(t("history.counted"), "info", said.id);
      } catch (error) {
        select.value = kept;
        show(error.message, "error", said.id);
      }
    });
  });

  const form = $("import");
  if (form) {
    $("import-button").disabled = !host;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const record = await $("record").files[0].text();
        const answer = await call(form.dataset.url, { body: { record }, host: Remote.hostToken() });
        window.location.assign(answer.url);
      } catch (error) {
        show(error.message);
      }
    });
  }
})();

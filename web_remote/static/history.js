"use strict";
// The host's actions on the past-games pages: import a record file, show a replayed move or the live game
// on the table's LEDs. Sent with the host token in a header; reading the pages needs none.
(() => {
  const { show, call } = Remote;
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

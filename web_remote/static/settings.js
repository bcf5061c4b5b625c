"use strict";
// Table settings for the host: brightness cap, palette and whether hints are allowed.
(() => {
  const { t, show, call } = Remote;
  const $ = (id) => document.getElementById(id);
  const host = Remote.hostToken();
  $("needs-host").hidden = Boolean(host);
  $("table-save").disabled = !host;

  call("/api/state", { method: "GET" }).then((payload) => {
    $("brightness").value = String(Math.round(payload.settings.brightness * 100));
    $("palette").value = payload.settings.palette;
    $("hints").checked = payload.settings.hints;
  }).catch((error) => show(error.message));

  $("table-settings").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await call("/api/host/settings", {
        body: { brightness: Number($("brightness").value) / 100, palette: $("palette").value, hints: $("hints").checked },
        host: Remote.hostToken(),
      });
      show(t("settings.saved"), "info");
    } catch (error) {
      show(error.message);
    }
  });
})();

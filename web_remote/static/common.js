"use strict";
// Shared by every page: translated strings, the message line, stored tokens and API calls.
const Remote = (() => {
  const strings = JSON.parse(document.getElementById("strings").textContent);
  const SEAT_KEY = "azul.seat";
  const HOST_KEY = "azul.host";

  const plurals = new Intl.PluralRules(document.documentElement.lang);

  // The string of `key` with its {fields} filled in; a plural picks its form by the count `n`.
  function t(key, fields = {}) {
    let text = strings[key] ?? key;
    if (typeof text === "object") text = text[plurals.select(fields.n)] ?? text.other;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  function show(text, kind = "error") {
    const line = document.getElementById("message");
    line.textContent = text || "";
    line.hidden = !text;
    line.className = `message ${kind}`;
  }

  function seat() {
    try {
      return JSON.parse(localStorage.getItem(SEAT_KEY));
    } catch {
      return null;
    }
  }

  function setSeat(held) {
    if (held) localStorage.setItem(SEAT_KEY, JSON.stringify(held));
    else localStorage.removeItem(SEAT_KEY);
  }

  function hostToken() {
    return sessionStorage.getItem(HOST_KEY);
  }

  function setHostToken(token) {
    if (token) sessionStorage.setItem(HOST_KEY, token);
    else sessionStorage.removeItem(HOST_KEY);
  }

  // POST (or GET) JSON; credentials go in headers, never cookies. Throws an Error whose message is for people.
  async function call(path, { method = "POST", body, seatToken, host } = {}) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (seatToken) headers["X-Seat-Token"] = seatToken;
    if (host) headers["X-Host-Token"] = host;
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new Error(t("error.network"));
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      const error = new Error((data && data.message) || t("error.network"));
      error.status = response.status;
      error.key = data && data.error;
      throw error;
    }
    return data;
  }

  function element(tag, attributes = {}, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  return { t, show, seat, setSeat, hostToken, setHostToken, call, element };
})();

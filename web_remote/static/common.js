"use strict";
// Shared by every page: translated strings, the message line, stored tokens and API calls.
const Remote = (() => {
  const strings = STRINGS; // the phone's language's, from /strings/LANG.js (loaded before this script)
  const SEAT_KEY = "azul.seat";
  const HOST_KEY = "azul.host";
  const NOTE_KEY = "azul.note";

  const plurals = new Intl.PluralRules(document.documentElement.lang);

  // The string of `key` with its {fields} filled in; a plural picks its form by the count `n`.
  function t(key, fields = {}) {
    let text = strings[key] ?? key;
    if (typeof text === "object") text = text[plurals.select(fields.n)] ?? text.other;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  // Put ``text`` on the message line ``where`` (the page's own at the top unless told), or clear it.
  function show(text, kind = "error", where = "message") {
    const line = document.getElementById(where);
    line.textContent = text || "";
    line.hidden = !text;
    line.className = `message ${kind}`;
  }

  // A note for the next page this tab opens (e.g. why it was sent there), shown there once.
  function leaveNote(key) {
    sessionStorage.setItem(NOTE_KEY, key);
  }

  function showNote() {
    const key = sessionStorage.getItem(NOTE_KEY);
    sessionStorage.removeItem(NOTE_KEY);
    if (key) show(t(key), "info");
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

  // Join ``seat`` with the join ``code`` (as the player ``who`` names: ``{player}`` or ``{new_player}``) and
  // keep its token with the game and the run of the table it was given in (the live page tells a phone
  // seated before a restart that it kept its seat).
  async function takeSeat(code, seat, who = {}) {
    const answer = await call("/api/join", { body: { code, seat, ...who } });
    setSeat({ token: answer.token, seat: answer.seat, game_id: answer.game_id, run: answer.run });
  }

  // The host token is kept for every tab of this browser (the host's phone may have several open);
  // a tab unlocked by an older page kept it in its own sessionStorage, still read here.
  function hostToken() {
    return localStorage.getItem(HOST_KEY) ?? sessionStorage.getItem(HOST_KEY);
  }

  function setHostToken(token) {
    sessionStorage.removeItem(HOST_KEY);
    if (token) localStorage.setItem(HOST_KEY, token);
    else localStorage.removeItem(HOST_KEY);
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
      error.code = data && data.code;
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

  // Make ``nodes`` the children of ``parent`` by changing as little of it as it takes: a child equal to the
  // node taking its place stays as it is, one of the same kind takes that node's attributes and, likewise,
  // its children; a child that went, or a node that came, changes no other. A page redrawn with little changed
  // then restyles, lays out and paints only what changed. Listeners are no part of it: a child that stays
  // keeps its own, so only nodes whose listeners never change are put in this way.
  function morph(parent, nodes) {
    let old = parent.firstChild;
    nodes.forEach((node, index) => {
      if (old && !old.isEqualNode(node)) {
        // A node that came, or a child that went: whichever leaves the longer run of equal ones after it.
        const came = equalRun(old, nodes, index + 1);
        const went = equalRun(old.nextSibling, nodes, index);
        if (came > 0 && came >= went) {
          parent.insertBefore(node, old);
          return;
        }
        if (went > 0) {
          const gone = old;
          old = old.nextSibling;
          gone.remove();
        }
      }
      if (old && old.isEqualNode(node)) {
        old = old.nextSibling;
      } else if (old && old.nodeName === node.nodeName && old.nodeType === node.nodeType) {
        become(old, node);
        old = old.nextSibling;
      } else {
        parent.insertBefore(node, old);
      }
    });
    while (old) {
      const gone = old;
      old = old.nextSibling;
      gone.remove();
    }
  }

  // How many children from ``child`` on are equal, in turn, to ``nodes`` from ``index`` on.
  function equalRun(child, nodes, index) {
    let count = 0;
    for (let at = child; at && index + count < nodes.length; at = at.nextSibling) {
      if (!at.isEqualNode(nodes[index + count])) break;
      count += 1;
    }
    return count;
  }

  // ``old`` made like ``node``, of the same name: its text, or its attributes and children.
  function become(old, node) {
    if (node.nodeType !== Node.ELEMENT_NODE) {
      old.nodeValue = node.nodeValue;
      return;
    }
    [...old.attributes].forEach(({ name }) => { if (!node.hasAttribute(name)) old.removeAttribute(name); });
    [...node.attributes].forEach(({ name, value }) => {
      if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    });
    morph(old, [...node.childNodes]);
  }

  // A part of a page the server draws (a game's charts), as nodes to put in place; null when it has none.
  async function fragment(path) {
    const response = await fetch(path);
    if (!response.ok) return null;
    return [...new DOMParser().parseFromString(await response.text(), "text/html").body.childNodes];
  }

  showNote();
  return { t, show, leaveNote, seat, setSeat, takeSeat, hostToken, setHostToken, call, element, morph, fragment };
})();

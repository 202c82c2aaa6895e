// The tablet's outbox: no tap is lost, and none is recorded twice.
//
// Every result entry (a form marked data-entry: "Won", "Lost", the dealer pick,
// the calculator) is written to localStorage first, with a fresh idempotency
// key, then sent. Its fate is always shown:
// - sending: the tapped button says so and the table's buttons wait;
// - saved: the server's new table panel replaces the old one (it says "Saved");
// - waiting: no connection, a timeout, or a gateway error. The entry stays on
//   the tablet (also across a reload) and is sent by itself, in order, once
//   the connection is back; a banner counts what waits;
// - not saved: the server failed (500). Nothing was recorded; "Send again" or
//   "Discard";
// - not recorded: the server refused it (the table changed meanwhile, ...).
//   The reason is shown beside the table's current state, to enter it again;
// - log in again: the login ended; the entry waits on the tablet.
//
// Order and once: entries of one table form a chain. The first carries the
// table version the page showed; each later one is sent only after the one
// before it is saved, with the version the server reported right after it
// (X-Entry-Version). A retry reuses the entry's key, so the server applies it
// once even when an answer was lost. A refused entry refuses the rest of its
// chain, which was entered on top of it.
//
// Without JavaScript the same forms post normally.
//
// The rules (queue, chain, answers, what the referee sees) are static/js/outbox_core.js, tested
// under `node --test`; this module is the DOM glue. Other modules import `openFor` (the half
// tracker: is its loss still waiting?); a form's label is its data-entry-label (the calculator
// keeps it current), so the outbox knows no page's script.
import * as rules from "./outbox_core.js";
import { t, counted } from "./ui.js";

const { STORE, SEND_TIMEOUT_MS } = rules;
const DEVICE_STORE = "spielleitung.device";

let memory = null; // used when the browser blocks localStorage
let inFlight = null;
let retryTimer = null;
let retryIndex = 0;
let loginNeeded = false;
let connectionLostAt = null;

// --- storage ---------------------------------------------------------------------

function load() {
  if (memory) return memory;
  try {
    return JSON.parse(window.localStorage.getItem(STORE) || "[]");
  } catch (error) {
    memory = [];
    return memory;
  }
}

function store(entries) {
  if (memory) {
    memory = entries;
  } else {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(entries));
    } catch (error) {
      memory = entries;
      notice(t("storageBlocked"));
    }
  }
  render();
}

function change(key, fields) {
  store(rules.changed(load(), key, fields));
}

function newKey() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The tablet's own id, kept in localStorage and sent as X-Device: the audit trail names the device.
function deviceId() {
  try {
    let id = window.localStorage.getItem(DEVICE_STORE);
    if (!id) {
      id = newKey().slice(0, 16);
      window.localStorage.setItem(DEVICE_STORE, id);
    }
    return id;
  } catch (error) {
    return "";
  }
}

function csrfToken() {
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch (error) {
    return "";
  }
}

// --- taking an entry -------------------------------------------------------------

// The table's panel (the table page), or another part of a page that records entries for it
// (the half tracker's "Record: X loses a chip"): its buttons wait and come back the same way.
function panelFor(table) {
  return (
    document.querySelector('#table-panel[data-table-id="' + table + '"]') ||
    document.querySelector('[data-table-id="' + table + '"]:has(form[data-entry])')
  );
}

// Tell the page an entry's fate (the half tracker starts the next game once its loser is saved).
function announce(entry, fate, version) {
  document.dispatchEvent(
    new CustomEvent("spielleitung:entry", {
      detail: { table: entry.table, kind: entry.kind, fate: fate, version: version, label: rules.describe(entry, t) },
    })
  );
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches("form[data-entry]")) return;
  event.preventDefault();
  if (form.dataset.submitting) return; // a double tap
  const panel = form.closest("[data-table-id]");
  const table = panel ? panel.dataset.tableId : "";
  const fields = [];
  new FormData(form, event.submitter).forEach((value, name) => {
    if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
  });
  const heading = panel && panel.querySelector("h1");
  const entries = rules.queue(load(), {
    key: newKey(),
    url: form.action,
    page: panel ? panel.dataset.pollUrl : window.location.pathname,
    table: table,
    tableLabel: heading ? heading.textContent.trim() : "",
    kind: form.dataset.entry,
    fields: fields,
    // What the form records, for a person (the calculator keeps it current: "won by Anna (25 points)").
    label: form.dataset.entryLabel || "",
    nextGame: panel ? panel.dataset.nextGame || "" : null,
    created: Date.now(),
  });
  markPending(form, event.submitter);
  store(entries);
  pump();
});

function markPending(form, button) {
  form.dataset.submitting = "1";
  const panel = form.closest("[data-table-id]") || form;
  panel.querySelectorAll("form[data-entry] button").forEach((other) => {
    if (!other.disabled) {
      other.disabled = true;
      other.dataset.outboxDisabled = "1";
    }
  });
  const target = button || form.querySelector("button[type=submit]");
  if (target) {
    target.setAttribute("aria-busy", "true");
    target.classList.add("is-pending");
    target.dataset.label = target.innerHTML;
    target.textContent = t("sending");
  }
  document.body.dataset.pollHold = "1";
}

// The fate is known and the panel was not replaced: the buttons come back.
function release(entry, resetCalculator) {
  delete document.body.dataset.pollHold;
  const panel = panelFor(entry.table);
  if (!panel) return;
  panel.querySelectorAll("[data-outbox-disabled]").forEach((button) => {
    button.disabled = false;
    delete button.dataset.outboxDisabled;
  });
  panel.querySelectorAll(".is-pending").forEach((button) => {
    button.classList.remove("is-pending");
    button.removeAttribute("aria-busy");
    if (button.dataset.label !== undefined) button.innerHTML = button.dataset.label;
  });
  panel.querySelectorAll("form[data-submitting]").forEach((form) => {
    delete form.dataset.submitting;
    // The entry now lives in the outbox: a calculator starts again empty for the next game.
    if (resetCalculator && form.matches("[data-calculator-form]")) {
      form.reset();
      form.querySelectorAll("input[data-count]").forEach((input) => (input.value = "0"));
      form.querySelectorAll("input.calc-total").forEach((input) => (input.value = ""));
      if (window.htmx) window.htmx.trigger(form, "htmx:load");
    }
  });
}

// --- sending ---------------------------------------------------------------------

function pump() {
  if (inFlight || loginNeeded) return;
  window.clearTimeout(retryTimer);
  const next = rules.nextToSend(load());
  if (next) send(next);
}

function schedule() {
  window.clearTimeout(retryTimer);
  const delay = rules.retryDelay(retryIndex);
  retryIndex += 1;
  retryTimer = window.setTimeout(pump, delay);
}

function send(entry) {
  if (!navigator.onLine) {
    // The tablet knows it has no network: do not wait for a timeout to say so.
    wait(entry);
    return;
  }
  inFlight = entry.key;
  change(entry.key, { state: "sending" });
  const body = new URLSearchParams(rules.bodyOf(entry));
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
  window
    .fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      cache: "no-store",
      signal: controller.signal,
      headers: {
        "HX-Request": "true",
        "HX-Target": "table-panel",
        "X-CSRFToken": csrfToken(),
        "X-Device": deviceId(),
      },
    })
    .then((response) => response.text().then((html) => settle(entry, response, html)))
    .catch(() => wait(entry))
    .finally(() => {
      window.clearTimeout(timer);
      inFlight = null;
      pump();
    });
}

function reasonIn(html) {
  const box = document.createElement("div");
  box.innerHTML = html;
  const alert = box.querySelector("#table-error, .alert-bad, [role=alert]");
  return alert ? alert.textContent.replace(/\s+/g, " ").trim() : "";
}

function settle(entry, response, html) {
  const answer = rules.verdict({ status: response.status, type: response.type, fate: response.headers.get("X-Entry-Status") });
  if (answer.kind === "login") {
    // Sent to the login page: the session ended. Keep everything until the referee logs in again.
    loginNeeded = true;
    change(entry.key, { state: "login", reason: t("login") });
    release(entry, false);
    return;
  }
  connectionLostAt = null;
  if (answer.kind === "saved") {
    retryIndex = 0;
    saved(entry, response.headers.get("X-Entry-Version"), html);
  } else if (answer.kind === "refused") {
    const header = response.headers.get("X-Refusal");
    refuse(entry, header ? decodeURIComponent(header) : reasonIn(html) || t("refused"), html);
  } else if (answer.kind === "wait") {
    wait(entry);
  } else if (answer.kind === "rejected") {
    refuse(entry, reasonIn(html) || t(answer.message).replace("{status}", response.status), "");
  } else {
    change(entry.key, { state: "failed", reason: t("failed").replace("{status}", response.status) });
    release(entry, false);
  }
}

function saved(entry, nextVersion, html) {
  store(rules.saved(load(), entry.key, nextVersion));
  const panel = panelFor(entry.table);
  if (panel && panel.id === "table-panel" && !panel.querySelector("[data-dirty]:not([data-submitting])") && html.includes('id="table-panel"')) {
    delete document.body.dataset.pollHold;
    window.htmx.swap(panel, html, { swapStyle: "outerHTML" });
  } else {
    release(entry, false);
    if (panel) {
      // A half-done next entry stays; it now builds on this saved one.
      panel.querySelectorAll('input[name="version"]').forEach((input) => {
        if (input.value === entry.version && nextVersion) input.value = nextVersion;
      });
    } else {
      notice(t("saved").replace("{label}", rules.describe(entry, t)), "ok");
    }
  }
  announce(entry, "saved", nextVersion);
}

function refuse(entry, reason, html) {
  const panel = panelFor(entry.table);
  const ownForm = panel && panel.querySelector("form[data-submitting]");
  const swap =
    panel && panel.id === "table-panel" && html && html.includes('id="table-panel"') && (ownForm || !panel.querySelector("[data-dirty]"));
  if (swap && !entry.tries && ownForm) {
    // Refused right after the tap: the new panel says why (and keeps a calculator's hands); nothing to keep.
    store(rules.removed(load(), entry.key));
    delete document.body.dataset.pollHold;
    window.htmx.swap(panel, html, { swapStyle: "outerHTML" });
    return;
  }
  // Entries entered on top of the refused one are not sent.
  store(rules.refused(load(), entry.key, reason, t("chainRefused")));
  if (swap) {
    delete document.body.dataset.pollHold;
    window.htmx.swap(panel, html, { swapStyle: "outerHTML" });
  } else {
    release(entry, false);
  }
  announce(entry, "refused", null);
}

function wait(entry) {
  if (!navigator.onLine || !connectionLostAt) connectionLostAt = connectionLostAt || new Date();
  store(rules.waited(load(), entry.key));
  release(entry, true);
  schedule();
  announce(entry, "waiting", null);
}

// --- what the referee sees -------------------------------------------------------

function button(text, attribute, key, className) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "btn " + (className || "btn-secondary");
  element.textContent = text;
  element.setAttribute(attribute, key);
  return element;
}

function renderList(entries) {
  const box = document.getElementById("outbox");
  if (!box) return;
  const table = box.dataset.outboxTable;
  const mine = entries.filter((e) => e.table === table);
  box.replaceChildren();
  box.hidden = mine.length === 0;
  if (!mine.length) return;
  const list = document.createElement("ul");
  list.className = "outbox-list";
  mine.forEach((entry) => {
    const item = document.createElement("li");
    item.className = "outbox-entry is-" + entry.state;
    item.dataset.key = entry.key;
    const state = document.createElement("strong");
    state.className = "outbox-state";
    state.textContent = t(rules.stateText(entry, inFlight));
    const what = document.createElement("span");
    what.className = "outbox-what";
    what.textContent = entry.game ? t("game").replace("{number}", entry.game).replace("{label}", entry.label) : entry.label;
    item.append(state, " ", what);
    const note = rules.noteFor(entry);
    const reason = note.message ? t(note.message) : note.text;
    if (reason) {
      const noteBox = document.createElement("span");
      noteBox.className = "outbox-note";
      noteBox.textContent = reason;
      item.append(noteBox);
    }
    const actions = document.createElement("span");
    actions.className = "outbox-actions";
    rules.actionsFor(entry).forEach((action) => {
      if (action === "retry") actions.append(button(t("sendAgain"), "data-outbox-retry", entry.key, "btn-ok"));
      else if (action === "discard") actions.append(button(t("discard"), "data-outbox-discard", entry.key, "btn-danger"));
      else if (action === "dismiss") actions.append(button(t("dismiss"), "data-outbox-dismiss", entry.key));
      else if (action === "login") actions.append(loginLink());
    });
    item.append(actions);
    list.append(item);
  });
  box.append(list);
  if (rules.behind(mine)) {
    const behind = document.createElement("p");
    behind.className = "outbox-behind small";
    behind.textContent = t("behind");
    box.append(behind);
  }
}

function loginLink() {
  const link = document.createElement("a");
  link.className = "btn";
  const banner = document.getElementById("outbox-banner");
  const login = (banner && banner.dataset.loginUrl) || "/accounts/login/";
  link.href = login + "?next=" + encodeURIComponent(window.location.pathname);
  link.textContent = t("logIn");
  return link;
}

function renderBanner(entries) {
  const banner = document.getElementById("outbox-banner");
  if (!banner) return;
  const offline = !navigator.onLine || connectionLostAt !== null;
  const said = rules.banner(entries, offline, connectionLostAt !== null);
  let text = "";
  const tone = said ? said.tone : "warn";
  if (said && said.message === "pageOutdated") {
    text = t("pageOutdated").replace("{time}", connectionLostAt.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }));
  } else if (said) {
    text = counted(said.message, said.count);
  }
  banner.hidden = !text;
  banner.className = "outbox-banner tone-" + tone;
  banner.replaceChildren();
  if (!text) return;
  const words = document.createElement("span");
  words.textContent = text;
  banner.append(words);
  const elsewhere = entries.find((e) => e.state !== "sending" && !panelFor(e.table));
  if (entries.some((e) => e.state === "login")) banner.append(" ", loginLink());
  else if (elsewhere && elsewhere.page) {
    const link = document.createElement("a");
    link.className = "btn btn-small btn-secondary";
    link.href = elsewhere.page;
    link.textContent = t("show") + (elsewhere.tableLabel ? ": " + elsewhere.tableLabel : "");
    banner.append(" ", link);
  }
}

function render() {
  const entries = load();
  renderList(entries);
  renderBanner(entries);
}

function notice(text, tone) {
  let box = document.getElementById("outbox-toast");
  if (!box) {
    box = document.createElement("div");
    box.id = "outbox-toast";
    box.setAttribute("role", "status");
    document.body.append(box);
  }
  box.className = "outbox-toast tone-" + (tone || "warn");
  box.textContent = text;
  box.hidden = false;
  window.clearTimeout(notice.timer);
  notice.timer = window.setTimeout(() => (box.hidden = true), 6000);
}

document.addEventListener("click", (event) => {
  const retry = event.target.closest("[data-outbox-retry]");
  const discard = event.target.closest("[data-outbox-discard]");
  const dismiss = event.target.closest("[data-outbox-dismiss]");
  if (retry) {
    store(rules.retried(load(), retry.dataset.outboxRetry));
    retryIndex = 0;
    pump();
  } else if (discard && window.confirm(t("discardConfirm"))) {
    store(rules.discarded(load(), discard.dataset.outboxDiscard, t("chainRefused")));
  } else if (dismiss) {
    store(rules.removed(load(), dismiss.dataset.outboxDismiss));
  }
});

// --- connection ------------------------------------------------------------------

window.addEventListener("online", () => {
  retryIndex = 0;
  pump();
  render();
});
window.addEventListener("offline", () => {
  connectionLostAt = connectionLostAt || new Date();
  render();
});
// The pollers report every answer (or its absence).
document.addEventListener("spielleitung:connection", (event) => {
  if (event.detail.online) {
    const wasOffline = connectionLostAt !== null;
    connectionLostAt = null;
    if (wasOffline) {
      retryIndex = 0;
      pump();
    }
  } else {
    connectionLostAt = connectionLostAt || new Date();
  }
  render();
});
// Another tab of this tablet changed the outbox.
window.addEventListener("storage", (event) => {
  if (event.key === STORE) render();
});
// A new panel arrived (poll, htmx): show its entries' list again and keep the poller waiting while one is sent.
document.addEventListener("htmx:load", () => render());

// --- start -----------------------------------------------------------------------

// An entry that was being sent when the page went away: its fate is unknown, send it again (same key).
store(rules.reopened(load()));
pump();

// Keep the referee's pages available offline where the browser allows a service worker (HTTPS, localhost).
const worker = document.body.dataset.serviceWorker;
if (worker && "serviceWorker" in navigator && window.isSecureContext) {
  const firstVisit = !navigator.serviceWorker.controller;
  navigator.serviceWorker
    .register(worker, { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // A page opened before the worker ran was not stored: ask for it once.
      if (firstVisit && registration.active) {
        // With the modules the scripts import: listed as modulepreload links, and whatever else of
        // /static/ the page fetched (an import without its link is kept all the same; sw.js keeps
        // only this site's /static/).
        const tags = document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=modulepreload]");
        const fetched = window.performance.getEntriesByType("resource").map((entry) => entry.name);
        const assets = Array.from(new Set([...Array.from(tags, (el) => el.src || el.href), ...fetched]));
        registration.active.postMessage({ type: "remember", url: window.location.href, assets: assets });
      }
    })
    .catch(() => {});
}
// The entries of one table not yet saved (queued, sending, waiting, failed, waiting for a login).
export function openFor(table) {
  return rules.openFor(load(), table);
}

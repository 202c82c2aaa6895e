// The outbox's rules, without the DOM: what is queued, in what order it is sent, what an answer
// means, what a refusal or a discard does to the entries built on top, and what the referee is
// shown. static/js/outbox.js (the DOM glue: forms, fetch, localStorage, the banner) imports it;
// static/js/tests/outbox_core.test.js tests it under `node --test`.
//
// An entry: {key, url, page, table, tableLabel, kind, fields: [[name, value]], label, game, state,
// version, after, reason, created, tries}. Its state is one of
//   queued   taken, not yet sent          sending  on its way (its fate unknown until answered)
//   waiting  no connection: sent again    failed   the server failed (500): "Send again"/"Discard"
//   login    the login ended: it waits     refused  not recorded (the reason says why): "Dismiss"
// Saved entries leave the outbox. Entries of one table form a chain: the first carries the table
// version the page showed, each later one `after` the one before, without a version until that one
// is saved (the server's X-Entry-Version is handed on). The key is the idempotency key: it never
// changes, so a retry is applied once even when an answer was lost.
// Functions take the entries and return a new list; they never change the list they are given.

export const STORE = "spielleitung.outbox.v1";
export const SEND_TIMEOUT_MS = 10000;
export const RETRY_MS = [1500, 3000, 6000, 10000, 15000];
// Not yet saved: these count as waiting on the tablet (a reload keeps them).
export const OPEN = ["queued", "sending", "waiting", "failed", "login"];

const copy = (entries) => entries.map((entry) => Object.assign({}, entry));

export function isOpen(entry) {
  return OPEN.includes(entry.state);
}

// The entries of one table not yet saved (queued, sending, waiting, failed, waiting for a login).
export function openFor(entries, table) {
  return entries.filter((e) => e.table === String(table) && isOpen(e));
}

export function pending(entries) {
  return entries.filter(isOpen).length;
}

// A new entry, at the end of its table's chain. `tap` holds what the form said: {key, url, page,
// table, tableLabel, kind, fields, label, nextGame (the panel's next game number, or null without a
// panel), created}. The first open entry of a table carries the version of its form; a later one
// waits for the one before it (`after`) and gets its version once that one is saved. A result is
// numbered after the results still open at that table.
export function queue(entries, tap) {
  const open = openFor(entries, tap.table);
  const before = open[open.length - 1];
  const version = (tap.fields.find((field) => field[0] === "version") || [])[1] || "";
  let game = null;
  if (tap.kind === "result" && tap.nextGame !== null && tap.nextGame !== undefined) {
    game = (parseInt(tap.nextGame, 10) || 1) + open.filter((e) => e.kind === "result").length;
  }
  const entry = {
    key: tap.key,
    url: tap.url,
    page: tap.page,
    table: tap.table,
    tableLabel: tap.tableLabel || "",
    kind: tap.kind,
    fields: tap.fields,
    label: tap.label || "",
    game: game,
    state: "queued",
    version: before ? null : version,
    after: before ? before.key : null,
    reason: "",
    created: tap.created,
  };
  return copy(entries).concat([entry]);
}

// The entry to send next: the oldest queued or waiting one that knows its version (the head of
// its chain). A failed, refused or login entry is not sent by itself.
export function nextToSend(entries) {
  return entries.find((e) => (e.state === "queued" || e.state === "waiting") && e.version !== null) || null;
}

// The wait before the next try: growing, then steady.
export function retryDelay(index) {
  return RETRY_MS[Math.min(index, RETRY_MS.length - 1)];
}

// What is posted: the form's fields, with the entry's version and its (unchanging) key.
export function bodyOf(entry) {
  const fields = entry.fields.filter((field) => field[0] !== "version" && field[0] !== "key");
  return fields.concat([
    ["version", entry.version],
    ["key", entry.key],
  ]);
}

// What an answer means. `answer` is {status, type (the fetch response type), fate (X-Entry-Status)}.
// - login:    sent to the login page (a redirect not followed): keep everything, ask for a login;
// - saved:    recorded now, or recorded before and recognised by its key ("replayed");
// - refused:  409 or X-Entry-Status "refused": the table changed meanwhile;
// - wait:     an answer that is not the server's (a captive portal, a proxy's 200) or a server
//             restarting (502, 503, 504, 429): fate unknown, sent again with the same key;
// - rejected: another 4xx (403 not allowed, 404 not found, else a bad request): not recorded;
// - failed:   the server failed (5xx): nothing recorded, the referee decides.
// `message` names the fallback text for a rejection or failure.
export function verdict(answer) {
  const status = answer.status;
  const fate = answer.fate || null;
  if (answer.type === "opaqueredirect" || status === 0) return { kind: "login", message: "login" };
  const ok = status >= 200 && status < 300;
  if (ok && (fate === "saved" || fate === "replayed")) return { kind: "saved", message: "" };
  if (status === 409 || fate === "refused") return { kind: "refused", message: "refused" };
  if (ok || status === 502 || status === 503 || status === 504 || status === 429) return { kind: "wait", message: "" };
  if (status >= 400 && status < 500) {
    return { kind: "rejected", message: status === 403 ? "notAllowed" : status === 404 ? "notFound" : "badRequest" };
  }
  return { kind: "failed", message: "failed" };
}

export function changed(entries, key, fields) {
  return copy(entries).map((e) => (e.key === key ? Object.assign(e, fields) : e));
}

export function removed(entries, key) {
  return copy(entries).filter((e) => e.key !== key);
}

// Sent and not answered (no connection, a timeout): waiting, one more try counted.
export function waited(entries, key) {
  return copy(entries).map((e) => (e.key === key ? Object.assign(e, { state: "waiting", tries: (e.tries || 0) + 1 }) : e));
}

// "Send again" on a failed entry: it waits to be sent, with its key.
export function retried(entries, key) {
  return changed(entries, key, { state: "waiting", reason: "" });
}

// Saved: it leaves the outbox, and the entry built on it carries the version the server reported.
export function saved(entries, key, nextVersion) {
  return removed(entries, key).map((e) => (e.after === key ? Object.assign(e, { after: null, version: nextVersion }) : e));
}

// Every entry built on top of `keys` (in the order they were entered): refused, not sent.
function refuseChain(entries, keys, chainReason) {
  entries.forEach((e) => {
    if (e.after && keys.has(e.after)) {
      keys.add(e.key);
      Object.assign(e, { state: "refused", after: null, reason: chainReason });
    }
  });
  return entries;
}

// Refused: it stays to show why; the rest of its chain, entered on top of it, is refused too.
export function refused(entries, key, reason, chainReason) {
  const result = changed(entries, key, { state: "refused", reason: reason });
  return refuseChain(result, new Set([key]), chainReason);
}

// Discarded by the referee (never sent, or its fate given up): gone; its chain is refused.
export function discarded(entries, key, chainReason) {
  return refuseChain(removed(entries, key), new Set([key]), chainReason);
}

// A page opened again: an entry that was being sent when the page went away has an unknown fate;
// it waits to be sent again (with the same key, so it is recorded once).
export function reopened(entries) {
  return copy(entries).map((e) => (e.state === "sending" ? Object.assign(e, { state: "waiting" }) : e));
}

// --- what the referee sees ---------------------------------------------------------------

const STATE_TEXT = {
  queued: "waiting",
  sending: "sending",
  waiting: "waiting",
  failed: "notSaved",
  refused: "refused",
  login: "waiting",
};

// The text (its name) for an entry's state; the entry in flight says "sending".
export function stateText(entry, inFlight) {
  if (entry.state === "sending" || (entry.state === "queued" && entry.key === inFlight)) return "sending";
  return STATE_TEXT[entry.state];
}

// The buttons beside an entry: a failed one can be sent again; one not sent can be discarded;
// a refused one is dismissed once read; a login entry links to the login.
export function actionsFor(entry) {
  const actions = [];
  if (entry.state === "failed") actions.push("retry");
  if (entry.state === "waiting" || entry.state === "failed" || entry.state === "login") actions.push("discard");
  if (entry.state === "refused") actions.push("dismiss");
  if (entry.state === "login") actions.push("login");
  return actions;
}

// The note under an entry: "waiting" says it will be sent by itself; otherwise its reason.
export function noteFor(entry) {
  return entry.state === "waiting" ? { message: "waitingNote" } : { text: entry.reason || "" };
}

// Whether the list says "the table shown may be behind" (entries not yet applied).
export function behind(entries) {
  return entries.some((e) => e.state === "waiting" || e.state === "login" || e.state === "failed");
}

// What an entry records, for a person: "Table 2 · Game 3: won by Anna".
export function describe(entry, t) {
  const what = entry.game ? t("game").replace("{number}", entry.game).replace("{label}", entry.label) : entry.label;
  return entry.tableLabel ? entry.tableLabel + " · " + what : what;
}

// The banner over every page: the first that applies of a login needed (counting everything it
// holds back), entries waiting while offline, waiting, failed, refused, and, with nothing waiting
// but the connection lost, that the page may be out of date. {message, count, tone} or null.
export function banner(entries, offline, connectionLost) {
  const count = (state) => entries.filter((e) => e.state === state).length;
  const open = entries.filter((e) => ["queued", "sending", "waiting"].includes(e.state)).length;
  if (count("login")) return { message: "bannerLogin", count: count("login") + open, tone: "warn" };
  if (open && offline) return { message: "bannerOffline", count: open, tone: "warn" };
  if (count("waiting")) return { message: "bannerWaiting", count: open, tone: "warn" };
  if (count("failed")) return { message: "bannerFailed", count: count("failed"), tone: "bad" };
  if (count("refused")) return { message: "bannerRefused", count: count("refused"), tone: "bad" };
  if (offline && connectionLost) return { message: "pageOutdated", count: null, tone: "warn" };
  return null;
}

// The outbox's rules (static/js/outbox_core.js), under Node's own runner: `node --test static/js/tests`.
import test from "node:test";
import assert from "node:assert/strict";
import * as outbox from "../outbox_core.js";

const t = (name) => ({ game: "Game {number}: {label}" })[name] || name;

// A tap on a table's "Won" button, as the glue hands it over.
function tap(key, fields, extra) {
  return Object.assign(
    { key: key, url: "/t/1/referee/table/7/record/", page: "/t/1/referee/table/7/", table: "7", tableLabel: "Table 1" },
    { kind: "result", fields: fields || [["winner", "3"], ["version", "v5"]], label: "won by Anna", nextGame: "4", created: 1 },
    extra
  );
}

function chainOfThree() {
  let entries = outbox.queue([], tap("a"));
  entries = outbox.queue(entries, tap("b", [["winner", "4"], ["version", "v5"]]));
  return outbox.queue(entries, tap("c", [["winner", "5"], ["version", "v5"]]));
}

test("the first entry of a table carries the page's version; later ones wait on the one before", () => {
  const entries = chainOfThree();
  assert.deepEqual(
    entries.map((e) => [e.key, e.version, e.after, e.state]),
    [
      ["a", "v5", null, "queued"],
      ["b", null, "a", "queued"],
      ["c", null, "b", "queued"],
    ]
  );
  // Another table's entry starts a chain of its own.
  const other = outbox.queue(entries, tap("x", [["version", "w1"]], { table: "8" }));
  assert.equal(other[3].version, "w1");
  assert.equal(other[3].after, null);
});

test("a result is numbered after the results still open at its table", () => {
  const entries = chainOfThree();
  assert.deepEqual(
    entries.map((e) => e.game),
    [4, 5, 6]
  );
  // A loss recorded from outside a table panel (no next game known) has no number.
  assert.equal(outbox.queue([], tap("d", undefined, { nextGame: null }))[0].game, null);
  // A dealer pick is not a game, and does not move the next result's number.
  const dealer = outbox.queue([], tap("e", undefined, { kind: "dealer" }));
  assert.equal(dealer[0].game, null);
  assert.equal(outbox.queue(dealer, tap("f"))[1].game, 4);
  // A saved entry is no longer open: the next result follows the panel's number alone.
  const afterSave = outbox.queue(outbox.saved(outbox.queue([], tap("a")), "a", "v6"), tap("b", undefined, { nextGame: "5" }));
  assert.equal(afterSave[0].game, 5);
});

test("a refused entry does not hold up the next entry of its table", () => {
  const refused = outbox.refused(outbox.queue([], tap("a")), "a", "changed", "chain");
  const next = outbox.queue(refused, tap("b"));
  assert.equal(next[1].after, null);
  assert.equal(next[1].version, "v5");
});

test("queueing does not change the list it was given", () => {
  const entries = outbox.queue([], tap("a"));
  outbox.queue(entries, tap("b"));
  assert.equal(entries.length, 1);
});

test("entries go out in order, each once its version is known", () => {
  let entries = chainOfThree();
  assert.equal(outbox.nextToSend(entries).key, "a");
  entries = outbox.changed(entries, "a", { state: "sending" });
  assert.equal(outbox.nextToSend(entries), null); // b waits for a's answer
  entries = outbox.saved(entries, "a", "v6");
  assert.deepEqual(
    entries.map((e) => [e.key, e.version, e.after]),
    [
      ["b", "v6", null], // the version the server reported after a
      ["c", null, "b"],
    ]
  );
  assert.equal(outbox.nextToSend(entries).key, "b");
  // Waiting entries are sent again by themselves; failed and login ones are not.
  assert.equal(outbox.nextToSend(outbox.waited(entries, "b")).key, "b");
  assert.equal(outbox.nextToSend(outbox.changed(entries, "b", { state: "failed" })), null);
  assert.equal(outbox.nextToSend(outbox.changed(entries, "b", { state: "login" })), null);
});

test("a retry posts the same idempotency key, with the entry's current version", () => {
  let entries = outbox.queue([], tap("k1"));
  const first = outbox.bodyOf(entries[0]);
  entries = outbox.waited(entries, "k1");
  entries = outbox.waited(entries, "k1");
  assert.equal(entries[0].tries, 2);
  assert.equal(entries[0].key, "k1");
  const again = outbox.bodyOf(entries[0]);
  assert.deepEqual(again, first);
  assert.deepEqual(
    again.filter(([name]) => name === "key" || name === "version"),
    [
      ["version", "v5"],
      ["key", "k1"],
    ]
  );
  // A chained entry posts the version handed on, not the one its form showed.
  const chained = outbox.saved(chainOfThree(), "a", "v6");
  assert.deepEqual(
    outbox.bodyOf(chained[0]).filter(([name]) => name === "version"),
    [["version", "v6"]]
  );
  // "Send again" on a failed entry: waiting again, its reason gone, the same key.
  const failed = outbox.changed(outbox.queue([], tap("k2")), "k2", { state: "failed", reason: "500" });
  const retried = outbox.retried(failed, "k2");
  assert.deepEqual([retried[0].state, retried[0].reason, retried[0].key], ["waiting", "", "k2"]);
});

test("what an answer means", () => {
  const kind = (answer) => outbox.verdict(answer).kind;
  assert.equal(kind({ status: 0, type: "opaqueredirect" }), "login");
  assert.equal(kind({ status: 200, type: "basic", fate: "saved" }), "saved");
  assert.equal(kind({ status: 200, type: "basic", fate: "replayed" }), "saved"); // applied before: once
  assert.equal(kind({ status: 409, type: "basic" }), "refused");
  assert.equal(kind({ status: 200, type: "basic", fate: "refused" }), "refused");
  // A 200 without our header is a captive portal or a proxy: the fate is unknown, send again.
  assert.equal(kind({ status: 200, type: "basic" }), "wait");
  for (const status of [429, 502, 503, 504]) assert.equal(kind({ status: status, type: "basic" }), "wait");
  assert.deepEqual(outbox.verdict({ status: 403, type: "basic" }), { kind: "rejected", message: "notAllowed" });
  assert.deepEqual(outbox.verdict({ status: 404, type: "basic" }), { kind: "rejected", message: "notFound" });
  assert.deepEqual(outbox.verdict({ status: 400, type: "basic" }), { kind: "rejected", message: "badRequest" });
  assert.deepEqual(outbox.verdict({ status: 500, type: "basic" }), { kind: "failed", message: "failed" });
  // A saved header on an error status is not a save.
  assert.equal(kind({ status: 500, type: "basic", fate: "saved" }), "failed");
});

test("a refused entry refuses the rest of its chain, and only its chain", () => {
  let entries = chainOfThree();
  entries = outbox.queue(entries, tap("x", [["version", "w1"]], { table: "8" }));
  const refused = outbox.refused(outbox.saved(entries, "a", "v6"), "b", "The table changed.", "Not sent: built on a refused entry.");
  assert.deepEqual(
    refused.map((e) => [e.key, e.state, e.reason, e.after]),
    [
      ["b", "refused", "The table changed.", null],
      ["c", "refused", "Not sent: built on a refused entry.", null],
      ["x", "queued", "", null],
    ]
  );
  assert.equal(outbox.nextToSend(refused).key, "x");
  assert.equal(outbox.pending(refused), 1);
});

test("discarding an entry drops it and refuses what was built on it", () => {
  const entries = outbox.discarded(chainOfThree(), "a", "chain");
  assert.deepEqual(
    entries.map((e) => [e.key, e.state, e.reason]),
    [
      ["b", "refused", "chain"],
      ["c", "refused", "chain"],
    ]
  );
  // Discarding the last one leaves those before it to be sent.
  const last = outbox.discarded(chainOfThree(), "c", "chain");
  assert.deepEqual(
    last.map((e) => [e.key, e.state]),
    [
      ["a", "queued"],
      ["b", "queued"],
    ]
  );
});

test("what may be discarded, sent again or dismissed", () => {
  const actions = (state) => outbox.actionsFor({ state: state });
  assert.deepEqual(actions("queued"), []);
  assert.deepEqual(actions("sending"), []); // in flight: its fate is not the referee's to drop
  assert.deepEqual(actions("waiting"), ["discard"]);
  assert.deepEqual(actions("failed"), ["retry", "discard"]);
  assert.deepEqual(actions("login"), ["discard", "login"]);
  assert.deepEqual(actions("refused"), ["dismiss"]);
});

test("a page opened again sends an entry that was in flight once more, with its key", () => {
  const entries = outbox.changed(chainOfThree(), "a", { state: "sending" });
  const reopened = outbox.reopened(entries);
  assert.deepEqual(
    reopened.map((e) => [e.key, e.state]),
    [
      ["a", "waiting"],
      ["b", "queued"],
      ["c", "queued"],
    ]
  );
  assert.equal(outbox.nextToSend(reopened).key, "a");
  assert.equal(entries[0].state, "sending"); // the list given is unchanged
});

test("open entries: all not yet saved, per table", () => {
  let entries = chainOfThree();
  entries = outbox.queue(entries, tap("x", [["version", "w1"]], { table: "8" }));
  entries = outbox.changed(entries, "b", { state: "failed" });
  entries = outbox.changed(entries, "c", { state: "refused" });
  assert.deepEqual(
    outbox.openFor(entries, 7).map((e) => e.key),
    ["a", "b"]
  );
  assert.equal(outbox.pending(entries), 3);
  for (const state of ["queued", "sending", "waiting", "failed", "login"]) assert.ok(outbox.isOpen({ state: state }));
  assert.equal(outbox.isOpen({ state: "refused" }), false);
});

test("the retry delay grows, then stays", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 50].map(outbox.retryDelay), [1500, 3000, 6000, 10000, 15000, 15000, 15000]);
});

test("each entry's state as the referee reads it", () => {
  assert.equal(outbox.stateText({ key: "a", state: "queued" }, null), "waiting");
  assert.equal(outbox.stateText({ key: "a", state: "queued" }, "a"), "sending");
  assert.equal(outbox.stateText({ key: "a", state: "sending" }, null), "sending");
  assert.equal(outbox.stateText({ key: "a", state: "failed" }, null), "notSaved");
  assert.equal(outbox.stateText({ key: "a", state: "login" }, null), "waiting");
  assert.deepEqual(outbox.noteFor({ state: "waiting", reason: "x" }), { message: "waitingNote" });
  assert.deepEqual(outbox.noteFor({ state: "refused", reason: "The table changed." }), { text: "The table changed." });
  assert.equal(outbox.behind([{ state: "refused" }, { state: "queued" }]), false);
  assert.equal(outbox.behind([{ state: "refused" }, { state: "failed" }]), true);
});

test("an entry is described by its table, game and label", () => {
  const entry = outbox.queue([], tap("a"))[0];
  assert.equal(outbox.describe(entry, t), "Table 1 · Game 4: won by Anna");
  assert.equal(outbox.describe(Object.assign({}, entry, { game: null, tableLabel: "" }), t), "won by Anna");
});

test("the banner: a login first, then offline, waiting, failed, refused, then an old page", () => {
  const of = (...states) => states.map((state, i) => ({ key: String(i), state: state }));
  assert.deepEqual(outbox.banner(of("login", "queued", "refused"), true, true), { message: "bannerLogin", count: 2, tone: "warn" });
  assert.deepEqual(outbox.banner(of("queued", "waiting", "failed"), true, false), { message: "bannerOffline", count: 2, tone: "warn" });
  assert.deepEqual(outbox.banner(of("queued", "waiting", "failed"), false, false), { message: "bannerWaiting", count: 2, tone: "warn" });
  assert.deepEqual(outbox.banner(of("failed", "refused"), false, false), { message: "bannerFailed", count: 1, tone: "bad" });
  assert.deepEqual(outbox.banner(of("refused", "refused"), false, false), { message: "bannerRefused", count: 2, tone: "bad" });
  // Only sending, online: nothing to say.
  assert.equal(outbox.banner(of("sending"), false, false), null);
  // Nothing waits but the connection was lost: the page may be out of date.
  assert.deepEqual(outbox.banner([], true, true), { message: "pageOutdated", count: null, tone: "warn" });
  assert.equal(outbox.banner([], true, false), null); // the browser says offline, no poll failed yet
});

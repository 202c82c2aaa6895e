// The half tracker's pure state machine (static/js/tracker_core.js), under Node's own runner:
// `node --test static/js/tests` (make js-test). No npm package.
import test from "node:test";
import assert from "node:assert/strict";
import * as core from "../tracker_core.js";

// A few throws as the server's words table has them ("<dice ascending>-<rolls>-<kept>").
const WORDS = {
  "111-1-0": { word: "Schock-Out", lids: "all lids", kind: "schock_out", rank: 90 },
  "113-1-0": { word: "Schock 3", lids: "3 lids", kind: "schock", rank: 80 },
  "113-3-0": { word: "Schock 3", lids: "3 lids", kind: "schock", rank: 78 },
  "256-1-0": { word: "652 · simple throw", lids: "1 lid", kind: "simple", rank: 20 },
  "256-2-0": { word: "652 · simple throw", lids: "1 lid", kind: "simple", rank: 19 },
  "256-3-0": { word: "652 · simple throw", lids: "1 lid", kind: "simple", rank: 18 },
  "223-1-0": { word: "322 · simple throw", lids: "1 lid", kind: "simple", rank: 5 },
  "223-3-0": { word: "322 · simple throw", lids: "1 lid", kind: "simple", rank: 3 },
  "123-1-0": { word: "Straße 123", lids: "2 lids", kind: "strasse", rank: 40 },
  "123-2-0": { word: "Straße 123", lids: "2 lids", kind: "strasse", rank: 39 },
  "123-2-1": { word: "321 · simple throw", lids: "1 lid", kind: "simple", rank: 2 },
};
const SEATS = ["2", "0", "1"]; // turn order: seat 2 begins (the last round's loser)

test("three dice complete a throw and hand the pad to the next thrower", () => {
  const round = core.replay(SEATS, [{ s: "2", d: 6 }, { s: "2", d: 5 }], true, WORDS);
  assert.equal(round.current, "2");
  const done = core.replay(SEATS, [{ s: "2", d: 6 }, { s: "2", d: 5 }, { s: "2", d: 2 }], true, WORDS);
  assert.deepEqual(done.throws["2"].dice, [6, 5, 2]);
  assert.equal(done.current, "0");
});

test("a whole throw is one tap", () => {
  const round = core.replay(SEATS, [{ s: "2", t: "652" }, { s: "0", t: "311" }], true, WORDS);
  assert.deepEqual(round.throws["2"].dice, [6, 5, 2]);
  assert.deepEqual(round.throws["0"].dice, [3, 1, 1]);
  assert.equal(round.current, "1");
});

test("the last throw wraps to a seat still open, or stays", () => {
  const throws = { 2: { dice: [1, 1, 1] }, 0: { dice: [] }, 1: { dice: [1, 2, 3] } };
  assert.equal(core.nextOpen(SEATS, throws, "1"), "0");
  throws[0].dice = [2, 2, 3];
  assert.equal(core.nextOpen(SEATS, throws, "1"), "1");
});

test("rolls: one in a half's opening round, else three; the others follow the first thrower", () => {
  const opening = core.replay(SEATS, [], true, WORDS);
  assert.equal(core.rollsOf(opening, "2", true), 1);
  assert.equal(core.rollsOf(opening, "0", true), 1);
  const later = core.replay(SEATS, [], false, WORDS);
  assert.equal(core.rollsOf(later, "2", false), 3);
  const firstTwice = core.replay(SEATS, [{ s: "2", r: 2 }], false, WORDS);
  assert.equal(core.rollsOf(firstTwice, "0", false), 2); // remembered for the next throwers
  assert.equal(core.rollLimit(firstTwice, "0", false), 2);
  assert.equal(core.rollLimit(firstTwice, "2", false), 3); // the first thrower may take any
});

test("no one rolls more often than the round's first thrower", () => {
  const round = core.replay(SEATS, [{ s: "2", r: 1 }, { s: "0", r: 3 }], false, WORDS);
  assert.equal(core.rollsOf(round, "0", false), 1);
});

test("a 123 over several rolls holds the pad for its laid-aside one", () => {
  const taps = [{ s: "2", r: 2 }, { s: "2", t: "321" }];
  const round = core.replay(SEATS, taps, false, WORDS);
  assert.equal(round.current, "2"); // the toggle is offered
  assert.ok(core.keptMatters(WORDS, round.throws["2"], 2));
  // The next throw tapped belongs to the next thrower, not to the held one...
  assert.equal(core.seatForThrow(round, null, true), "0");
  // ...unless the held throw was picked on purpose (then it is entered anew).
  assert.equal(core.seatForThrow(round, "2", true), "2");
  const laidAside = core.replay(SEATS, [...taps, { s: "2", k: 1 }], false, WORDS);
  const result = core.outcome(laidAside, false, WORDS);
  assert.equal(result.shown[0].word.word, "321 · simple throw");
});

test("once every throw is in: the highest decides, the lowest takes; an equal later throw ranks lower", () => {
  const taps = [
    { s: "2", t: "652" },
    { s: "0", t: "652" },
    { s: "1", t: "311" },
  ];
  const opening = core.outcome(core.replay(SEATS, taps, true, WORDS), true, WORDS);
  assert.equal(opening.all, true);
  assert.equal(opening.high, "1");
  assert.equal(opening.low, "0"); // "Mit ist Schitt": the same 652 thrown later is lower
  const partial = core.outcome(core.replay(SEATS, taps.slice(0, 2), true, WORDS), true, WORDS);
  assert.equal(partial.all, false);
  assert.equal(partial.high, null);
});

test("an unknown throw has no word and the round is not complete", () => {
  const result = core.outcome(core.replay(SEATS, [{ s: "2", t: "654" }], true, WORDS), true, WORDS);
  assert.equal(result.shown[0].word, null);
  assert.equal(result.all, false);
});

test("a tap for a seat not in the round is ignored", () => {
  const round = core.replay(SEATS, [{ s: "9", t: "652" }], true, WORDS);
  assert.equal(round.current, "2");
  assert.deepEqual(round.throws["2"].dice, []);
});

// --- the tablet's kept game ------------------------------------------------------------------
// A #tracker's html stands for itself in these tests: its signature is the html, and "?" is one
// that cannot be read.
const signatureOf = (html) => (html === "?" ? null : "sig:" + html);
const page = (html, extra) => Object.assign({ version: "v1", html: html, signature: "sig:" + html }, extra);
const kept = (fields) => Object.assign(core.fresh("v1", "round1"), fields);

test("a reload keeps the round's taps when the page shows the same state", () => {
  const entry = kept({ taps: [{ s: "2", t: "652" }], waiting: true });
  const resumed = core.resume(entry, page("round1"), signatureOf);
  assert.deepEqual(resumed.entry.taps, [{ s: "2", t: "652" }]);
  assert.equal(resumed.entry.waiting, true); // still to be scored once the connection is back
  assert.equal(resumed.note, "trackerRestored");
  assert.equal(core.resume(kept({}), page("round1"), signatureOf).note, ""); // nothing to say
});

test("the server's kept game wins over this tablet's taps, and says so", () => {
  const entry = kept({ taps: [{ s: "2", t: "652" }] });
  const moved = core.resume(entry, page("round2"), signatureOf);
  assert.deepEqual(moved.entry.taps, []);
  assert.equal(moved.entry.html, "round2");
  assert.equal(moved.note, "trackerMovedOn");
  // A waiting round that another tablet overtook is dropped too, and said.
  assert.equal(core.resume(kept({ waiting: true }), page("round2"), signatureOf).note, "trackerMovedOn");
  // Nothing kept here: nothing to say.
  assert.equal(core.resume(kept({}), page("round2"), signatureOf).note, "");
});

test("a recorded result (another version) or an unreadable entry starts from the page", () => {
  const taps = [{ s: "2", t: "652" }];
  const other = core.resume(kept({ taps: taps }), page("round1", { version: "v2" }), signatureOf);
  assert.deepEqual(other.entry.taps, []);
  assert.equal(other.entry.version, "v2");
  assert.equal(other.note, "");
  const unreadable = core.resume(kept({ taps: taps, html: "?" }), page("round1"), signatureOf);
  assert.deepEqual(unreadable.entry.taps, []);
  assert.equal(unreadable.entry.html, "round1");
  assert.equal(core.resume(null, page("round1"), signatureOf).entry.version, "v1");
});

test("a scored round's answer starts the next round empty, the one before to take back", () => {
  const taps = [{ s: "2", t: "652" }];
  const next = core.arrive(kept({ taps: taps, waiting: true, pick: "0" }), page("round2", { own: true }), signatureOf);
  assert.deepEqual(next.taps, []);
  assert.equal(next.pick, null);
  assert.equal(next.waiting, false);
  assert.deepEqual(next.previous, { html: "round1", taps: taps });
  assert.ok(core.canTakeBack(next));
  // A refusal or a new game is not this tablet's round: nothing to take back.
  const refused = core.arrive(kept({ taps: taps }), page("round2", { own: false }), signatureOf);
  assert.equal(refused.previous, null);
  assert.equal(core.canTakeBack(refused), false);
});

test("an answer with the same state keeps the taps; another version starts afresh", () => {
  const taps = [{ s: "2", t: "652" }];
  const same = core.arrive(kept({ taps: taps, waiting: true }), page("round1", { own: true }), signatureOf);
  assert.deepEqual(same.taps, taps);
  assert.equal(same.waiting, false);
  const other = core.arrive(kept({ taps: taps }), page("round1", { version: "v2", own: true }), signatureOf);
  assert.deepEqual(other.taps, []);
  assert.equal(other.previous, null);
  assert.equal(other.version, "v2");
});

test("take back: the round before returns with its taps, on the html given; once", () => {
  const taps = [{ s: "2", t: "652" }];
  const entry = kept({ html: "round2", previous: { html: "round1", taps: taps } });
  const taken = core.takeBack(entry, "round1@rev2");
  assert.equal(taken.html, "round1@rev2");
  assert.deepEqual(taken.taps, taps);
  assert.equal(taken.previous, null);
  assert.equal(core.takeBack(taken, "x"), null);
  // Not offered once the next round has a tap.
  assert.equal(core.canTakeBack(Object.assign({}, entry, { taps: [{ s: "0", d: 1 }] })), false);
});

test("taps: the picked seat takes the tap, a throw hands the pad back to the turn order", () => {
  const roll = (seat) => ({ s: seat, r: 2 });
  const picked = core.pick(kept({}), "1");
  const rolled = core.tap(picked, SEATS, false, WORDS, roll);
  assert.deepEqual(rolled.taps, [{ s: "1", r: 2 }]);
  assert.equal(rolled.pick, "1"); // a roll count keeps the picked seat
  const thrown = core.tap(rolled, SEATS, false, WORDS, (seat) => ({ s: seat, t: "652" }));
  assert.deepEqual(thrown.taps[1], { s: "1", t: "652" });
  assert.equal(thrown.pick, null);
  assert.deepEqual(picked.taps, []); // the entry given is not changed
  assert.equal(core.tap(picked, SEATS, false, WORDS, () => null), picked); // nothing tapped
  // A picked seat not in the round is ignored: the round's current thrower takes the tap.
  const stray = core.tap(core.pick(kept({}), "9"), SEATS, false, WORDS, (seat) => ({ s: seat, t: "652" }));
  assert.equal(stray.taps[0].s, "2");
});

test("a throw tapped while a 123 is held for its laid-aside toggle belongs to the next thrower", () => {
  const held = kept({ taps: [{ s: "2", r: 2 }, { s: "2", t: "321" }] });
  const next = core.tap(held, SEATS, false, WORDS, (seat) => ({ s: seat, t: "652" }));
  assert.equal(next.taps[2].s, "0");
  // The toggle itself stays with the held thrower.
  const toggled = core.tap(held, SEATS, false, WORDS, (seat) => ({ s: seat, k: 1 }));
  assert.deepEqual(toggled.taps[2], { s: "2", k: 1 });
});

test("undo drops the last tap and the pick; nothing to undo is said by null", () => {
  const entry = kept({ taps: [{ s: "2", d: 6 }, { s: "2", d: 5 }], pick: "2" });
  const undone = core.undo(entry);
  assert.deepEqual(undone.taps, [{ s: "2", d: 6 }]);
  assert.equal(undone.pick, null);
  assert.equal(entry.taps.length, 2);
  assert.equal(core.undo(kept({})), null);
});

test("games left on the tablet are forgotten after two days, never the table's own", () => {
  const now = 10 * core.KEEP_MS;
  const names = core.expired(
    [
      ["mine", { saved: 0 }],
      ["recent", { saved: now - core.KEEP_MS + 1 }],
      ["old", { saved: now - core.KEEP_MS - 1 }],
      ["undated", {}],
      ["unreadable", null],
    ],
    "mine",
    now
  );
  assert.deepEqual(names, ["old", "undated", "unreadable"]);
});

test("a waiting round is tried again after a growing, then steady, delay", () => {
  const delays = [0, 1, 2, 3, 4, 9].map(core.retryDelay);
  assert.deepEqual(delays, [2000, 4000, 8000, 15000, 15000, 15000]);
});

test("a throw button shows the seat's throw whatever the order of its dice", () => {
  assert.ok(core.isThrow([2, 5, 6], "652"));
  assert.equal(core.isThrow([2, 5], "652"), false);
  assert.equal(core.isThrow([2, 5, 5], "652"), false);
});

test("sharp play's clock counts on from the server's seconds and passes the limit", () => {
  assert.deepEqual(core.clock("118", 1999, "120"), { seconds: 119, text: "1:59", past: false });
  assert.deepEqual(core.clock("118", 2000, "120"), { seconds: 120, text: "2:00", past: true });
  assert.equal(core.clock("0", 605000, "900").text, "10:05");
});

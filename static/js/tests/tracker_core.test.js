// The half tracker's pure state machine (static/js/tracker_core.js), under Node's own runner:
// `node --test static/js/tests` (make js-test). No npm package.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const core = require("../tracker_core.js");

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

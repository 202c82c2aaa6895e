// The UNO calculator's arithmetic (static/js/calculator_core.js), under `node --test static/js/tests`.
import test from "node:test";
import assert from "node:assert/strict";
import * as uno from "../calculator_core.js";

// Card points as the server puts them on the keys (UNO: numbers their face, actions 20, wild 50).
const VALUES = { 0: "0", 7: "7", 9: "9", skip: "20", wild: "50" };

test("a hand's points are the sum of its cards, counted per card", () => {
  const { counts, total } = uno.tally(["7", "skip", "7", "wild"], VALUES);
  assert.equal(total, 84);
  assert.deepEqual(counts, { 7: 2, skip: 1, wild: 1 });
  assert.deepEqual(uno.tally([], VALUES), { counts: {}, total: 0 });
  // A zero is a card too: counted, no points.
  assert.deepEqual(uno.tally(["0", "0"], VALUES), { counts: { 0: 2 }, total: 0 });
  // A card without a value adds nothing (never NaN).
  assert.equal(uno.tally(["9", "mystery"], VALUES).total, 9);
});

test("the hands the server sent back are rebuilt from their counts", () => {
  const stack = uno.stackFromCounts([
    ["7", "2"],
    ["skip", "0"],
    ["wild", "1"],
    ["9", ""],
  ]);
  assert.deepEqual(stack, ["7", "7", "wild"]);
  assert.equal(uno.tally(stack, VALUES).total, 64);
});

test("undo takes back exactly the last card; an emptied hand records 0", () => {
  const once = uno.afterUndo(["7", "wild", "skip"], VALUES);
  assert.deepEqual(once, { stack: ["7", "wild"], field: "57" });
  const last = uno.afterUndo(["9"], VALUES);
  assert.deepEqual(last, { stack: [], field: "0" });
});

test("a card tapped after typed points replaces them, and says which", () => {
  assert.equal(uno.typedReplaced([], "1", "35"), "35");
  assert.equal(uno.typedReplaced(["7"], "1", "35"), ""); // already tapping: nothing typed to replace
  assert.equal(uno.typedReplaced([], undefined, "35"), ""); // the total came from cards, not typing
  assert.equal(uno.typedReplaced([], "1", ""), "");
});

test("the winner scores the other players' hands", () => {
  const hands = [
    { player: "1", field: "30", cards: 2 },
    { player: "2", field: "12", cards: 1 },
    { player: "3", field: "", cards: 0 },
    { player: "4", field: "oops", cards: 0 },
  ];
  assert.equal(uno.winnerPoints(hands, "1"), 12);
  assert.equal(uno.winnerPoints(hands, "2"), 30);
  assert.equal(uno.winnerPoints(hands, null), 42);
});

test("a form is half-done once a winner is picked or a hand holds anything", () => {
  const empty = [{ player: "1", field: "", cards: 0 }];
  assert.equal(uno.isDirty(empty, null), false);
  assert.equal(uno.isDirty(empty, { value: "1" }), true);
  assert.equal(uno.isDirty([{ player: "1", field: "0", cards: 0 }], null), true); // a typed 0 is an entry
  assert.equal(uno.isDirty([{ player: "1", field: "", cards: 1 }], null), true);
});

test("the outbox's label names the winner and the points", () => {
  const t = (name, fallback) => ({ wonBy: "gewonnen von {name}" })[name] || fallback;
  assert.equal(uno.label("Anna", "42", t), "gewonnen von Anna (42 points)");
  assert.equal(uno.label("Anna", null, t), "gewonnen von Anna");
  assert.equal(uno.label(null, "42", t), "");
});

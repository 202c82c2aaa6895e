// The UNO hand calculator's arithmetic, without the DOM: a hand is the stack of the cards tapped,
// in order (so "Undo last card" takes back the last one); its points are the sum of the cards'
// values, which the server puts on the keys (data-value: the game's card points). The winner scores
// the other players' hands. static/js/calculator.js (the DOM glue) imports it;
// static/js/tests/calculator_core.test.js tests it under `node --test`.

// A hand rebuilt from the hidden counts the server sent back ([[card, count]], in the keys' order).
export function stackFromCounts(counts) {
  const stack = [];
  counts.forEach(([card, count]) => {
    for (let i = 0; i < (parseInt(count, 10) || 0); i += 1) stack.push(card);
  });
  return stack;
}

// The counts per card and the hand's points. `values` maps a card to its points; a card without a
// value counts 0 (never NaN).
export function tally(stack, values) {
  const counts = {};
  let total = 0;
  stack.forEach((card) => {
    counts[card] = (counts[card] || 0) + 1;
    total += parseInt(values[card], 10) || 0;
  });
  return { counts: counts, total: total };
}

// What the total field shows after the last card is taken back: the new total, or 0 once the hand
// is empty (an emptied hand counts 0, and records 0; "Clear" empties the field instead).
export function afterUndo(stack, values) {
  const rest = stack.slice(0, -1);
  return { stack: rest, field: String(tally(rest, values).total) };
}

// A card tapped on a hand whose points were typed replaces them: the typed points, to say so
// ("" when nothing typed is replaced).
export function typedReplaced(stack, typed, field) {
  return !stack.length && typed && field !== "" ? field : "";
}

// The winner's points: the sum of the other players' totals (a blank or unreadable total is 0).
// `hands` is [{player, field}]; `winner` a player or null (no sum is shown before one is picked,
// but the figure is the sum of all).
export function winnerPoints(hands, winner) {
  return hands.reduce((sum, hand) => (hand.player === winner ? sum : sum + (parseInt(hand.field, 10) || 0)), 0);
}

// A form is half-done (the poller leaves it alone) once a winner is picked or any hand holds a
// card or a typed figure.
export function isDirty(hands, winner) {
  return Boolean(winner) || hands.some((hand) => hand.field !== "" || hand.cards > 0);
}

// What the outbox shows for the entry: "won by Anna (25 points)"; "" before a winner is picked.
export function label(winnerName, points, t) {
  if (winnerName === null || winnerName === undefined) return "";
  const won = t("wonBy", "won by {name}").replace("{name}", winnerName);
  return points === null ? won : won + " (" + t("points", "{points} points").replace("{points}", points) + ")";
}

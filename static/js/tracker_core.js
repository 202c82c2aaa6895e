// The half tracker's pure state machine: one round's taps replayed into throws, and what they
// mean. No DOM, no storage: static/js/half_tracker.js uses it in the browser
// (window.spielleitungTrackerCore) and static/js/tests/tracker_core.test.js under `node --test`
// (module.exports).
//
// A round is the list of its taps, replayed from the start (so "undo" drops the last one):
// - {s: seat, d: face}      one die (1-6); three make a throw
// - {s: seat, t: "652"}     a whole throw in one tap (the pad's throw buttons)
// - {s: seat, r: rolls}     the rolls the throw took (1-3)
// - {s: seat, k: 0|1}       a one laid aside before the last roll (only where it matters)
// `words` is the server's table of throws (views.throw_words): "<dice ascending>-<rolls>-<kept>" ->
// {word, lids, kind, rank}; the rules stay on the server, the core only looks up.
(function (root, factory) {
  "use strict";
  const core = factory();
  if (typeof module === "object" && module.exports) module.exports = core;
  else root.spielleitungTrackerCore = core;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const MAX_ROLLS = 3;

  function wordKey(dice, rolls, kept) {
    return dice.slice().sort().join("") + "-" + rolls + "-" + kept;
  }

  // A laid-aside one counts only where it changes the throw (a 123 over several rolls is no Straße).
  function keptMatters(words, done, rolls) {
    return done.dice.length === 3 && Boolean(words[wordKey(done.dice, rolls, 1)]);
  }

  function keptOf(words, done, rolls) {
    return done.kept && keptMatters(words, done, rolls) ? 1 : 0;
  }

  // The next seat after `from` (in turn order, wrapping) whose throw is not complete; `from` if none.
  function nextOpen(seats, throws, from) {
    const start = seats.indexOf(from);
    for (let i = 1; i <= seats.length; i += 1) {
      const seat = seats[(start + i) % seats.length];
      if (throws[seat].dice.length < 3) return seat;
    }
    return from;
  }

  // The rolls a seat's throw counts: tapped, else the round's first thrower's (the most the others
  // may take: "the next players may not roll more often than the first"); the first thrower's
  // default is 1 in a half's opening round (everyone throws once), else 3.
  function rollsOf(round, seat, opening) {
    const chosen = round.throws[seat].rolls;
    const first = round.seats[0];
    if (seat === first) return chosen || (opening ? 1 : MAX_ROLLS);
    const limit = rollsOf(round, first, opening);
    return chosen ? Math.min(chosen, limit) : limit;
  }

  // The most rolls a seat may choose: the first thrower any, the others up to the first's.
  function rollLimit(round, seat, opening) {
    return seat === round.seats[0] ? MAX_ROLLS : rollsOf(round, round.seats[0], opening);
  }

  // Replay a round's taps for the seats in turn order. The thrower moves on once a throw is
  // complete, unless a laid-aside one would change it (a 123 over several rolls): then the pad
  // stays to offer that toggle.
  function replay(seats, taps, opening, words) {
    const throws = {};
    seats.forEach((seat) => (throws[seat] = { dice: [], rolls: null, kept: 0 }));
    const round = { seats: seats, throws: throws, current: seats[0] };
    taps.forEach((tap) => {
      const done = throws[tap.s];
      if (!done) return;
      let current = tap.s;
      if (tap.d || tap.t) {
        if (tap.t) {
          done.dice = String(tap.t).split("").map(Number);
        } else {
          if (done.dice.length === 3) done.dice = []; // a full throw tapped again is entered anew
          done.dice.push(tap.d);
        }
        const hold = keptMatters(words, done, rollsOf(round, tap.s, opening));
        if (done.dice.length === 3 && !hold) current = nextOpen(seats, throws, tap.s);
      } else if (tap.r) {
        done.rolls = tap.r;
      } else if (tap.k !== undefined) {
        done.kept = tap.k;
      }
      round.current = current;
    });
    return round;
  }

  // The seat a new die or throw belongs to: the picked seat, else the round's current one; a throw
  // already complete (held for its laid-aside toggle) hands the next tap to the next open seat,
  // unless it was picked on purpose (then it is entered anew).
  function seatForThrow(round, pick, entering) {
    const seat = pick && round.throws[pick] ? pick : round.current;
    if (entering && round.throws[seat] && round.throws[seat].dice.length === 3 && pick !== seat) {
      return nextOpen(round.seats, round.throws, seat);
    }
    return seat;
  }

  // Every throw's word, its rolls and laid-aside one, and, once all are in, who decides (the
  // highest) and who takes the lids (the lowest): an equal throw made later ranks lower ("Mit ist
  // Schitt").
  function outcome(round, opening, words) {
    const shown = round.seats.map((seat, turn) => {
      const done = round.throws[seat];
      const rolls = rollsOf(round, seat, opening);
      const kept = keptOf(words, done, rolls);
      const word = done.dice.length === 3 ? words[wordKey(done.dice, rolls, kept)] || null : null;
      return { seat: seat, turn: turn, done: done, rolls: rolls, kept: kept, word: word };
    });
    const all = shown.length > 0 && shown.every((item) => item.word);
    let high = null;
    let low = null;
    if (all) {
      const better = (a, b) => a.word.rank > b.word.rank || (a.word.rank === b.word.rank && a.turn < b.turn);
      shown.forEach((item) => {
        if (!high || better(item, high)) high = item;
        if (!low || better(low, item)) low = item;
      });
    }
    return { shown: shown, all: all, high: high ? high.seat : null, low: low ? low.seat : null };
  }

  return {
    MAX_ROLLS: MAX_ROLLS,
    wordKey: wordKey,
    keptMatters: keptMatters,
    keptOf: keptOf,
    nextOpen: nextOpen,
    rollsOf: rollsOf,
    rollLimit: rollLimit,
    replay: replay,
    seatForThrow: seatForThrow,
    outcome: outcome,
  };
});

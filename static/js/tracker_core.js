// The half tracker's pure state machine: one round's taps replayed into throws, and what they
// mean; and the tablet's kept game (its taps, the round before, the server's state) across taps,
// answers and reloads. No DOM, no storage: static/js/half_tracker.js (the DOM glue) imports it,
// static/js/tests/tracker_core.test.js tests it under `node --test`.
//
// A round is the list of its taps, replayed from the start (so "undo" drops the last one):
// - {s: seat, d: face}      one die (1-6); three make a throw
// - {s: seat, t: "652"}     a whole throw in one tap (the pad's throw buttons)
// - {s: seat, r: rolls}     the rolls the throw took (1-3)
// - {s: seat, k: 0|1}       a one laid aside before the last roll (only where it matters)
// `words` is the server's table of throws (views.throw_words): "<dice ascending>-<rolls>-<kept>" ->
// {word, lids, kind, rank}; the rules stay on the server, the core only looks up.
export const MAX_ROLLS = 3;

export function wordKey(dice, rolls, kept) {
  return dice.slice().sort().join("") + "-" + rolls + "-" + kept;
}

// A laid-aside one counts only where it changes the throw (a 123 over several rolls is no Straße).
export function keptMatters(words, done, rolls) {
  return done.dice.length === 3 && Boolean(words[wordKey(done.dice, rolls, 1)]);
}

export function keptOf(words, done, rolls) {
  return done.kept && keptMatters(words, done, rolls) ? 1 : 0;
}

// The next seat after `from` (in turn order, wrapping) whose throw is not complete; `from` if none.
export function nextOpen(seats, throws, from) {
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
export function rollsOf(round, seat, opening) {
  const chosen = round.throws[seat].rolls;
  const first = round.seats[0];
  if (seat === first) return chosen || (opening ? 1 : MAX_ROLLS);
  const limit = rollsOf(round, first, opening);
  return chosen ? Math.min(chosen, limit) : limit;
}

// The most rolls a seat may choose: the first thrower any, the others up to the first's.
export function rollLimit(round, seat, opening) {
  return seat === round.seats[0] ? MAX_ROLLS : rollsOf(round, round.seats[0], opening);
}

// Replay a round's taps for the seats in turn order. The thrower moves on once a throw is
// complete, unless a laid-aside one would change it (a 123 over several rolls): then the pad
// stays to offer that toggle.
export function replay(seats, taps, opening, words) {
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
export function seatForThrow(round, pick, entering) {
  const seat = pick && round.throws[pick] ? pick : round.current;
  if (entering && round.throws[seat] && round.throws[seat].dice.length === 3 && pick !== seat) {
    return nextOpen(round.seats, round.throws, seat);
  }
  return seat;
}

// Every throw's word, its rolls and laid-aside one, and, once all are in, who decides (the
// highest) and who takes the lids (the lowest): an equal throw made later ranks lower ("Mit ist
// Schitt").
export function outcome(round, opening, words) {
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

// --- the tablet's kept game ----------------------------------------------------------------
// localStorage keeps one entry per table: {version (the table's, a recorded result changes it),
// html (the server's last #tracker), taps (the round in progress), pick (a seat picked by hand),
// previous ({html, taps}: the round before, to take it back), waiting (a round not yet scored for
// want of a connection), saved (when)}. A #tracker is compared by its signature (the step and the
// game's hidden state, computed by the glue); `signatureOf(html)` gives a kept html's, or null when
// it cannot be read.

export const KEEP_MS = 2 * 24 * 60 * 60 * 1000; // games left behind on a tablet are forgotten after two days
export const RETRY_MS = [2000, 4000, 8000, 15000];

export function fresh(version, html) {
  return { version: version, html: html, taps: [], pick: null, previous: null, waiting: false };
}

// The page opened (or reloaded) showing `page` = {version, html, signature}. The server's kept game
// wins: an entry of another table version or unreadable is dropped; one whose state the page no
// longer shows (another tablet scored) is dropped too, said so when it held taps or a waiting
// round ("trackerMovedOn"); the same state keeps its taps ("trackerRestored" when there are any),
// rendered anew. Returns {entry, note}.
export function resume(entry, page, signatureOf) {
  if (entry && entry.version !== page.version) entry = null;
  if (entry && signatureOf(entry.html || "") === null) entry = null;
  if (!entry) return { entry: fresh(page.version, page.html), note: "" };
  if (signatureOf(entry.html) !== page.signature) {
    const note = entry.taps.length || entry.waiting ? "trackerMovedOn" : "";
    return { entry: fresh(page.version, page.html), note: note };
  }
  const note = entry.taps.length ? "trackerRestored" : "";
  return { entry: Object.assign({}, entry, { html: page.html }), note: note };
}

// The server answered with a new #tracker `page` = {version, html, signature, own}. Another
// table version starts afresh; a new state (the next round, half or game) starts its taps empty,
// and the round before can be taken back only when this tablet scored it (`own`: not after a
// refusal, nor when a new game starts). Nothing waits any more.
export function arrive(entry, page, signatureOf) {
  let next = entry && entry.version === page.version ? Object.assign({}, entry) : fresh(page.version, page.html);
  if (page.signature !== signatureOf(next.html)) {
    next = Object.assign(next, {
      previous: page.own ? { html: next.html, taps: next.taps } : null,
      html: page.html,
      taps: [],
      pick: null,
    });
  }
  next.waiting = false;
  return next;
}

// The seat the next tap belongs to: the one picked by hand (if it is in the round), else the
// round's current thrower.
export function seatOf(round, pick) {
  return pick && round.throws[pick] ? pick : round.current;
}

// One tap: `change(seat, round)` makes it for the seat the pad shows ({d}, {t}, {r} or {k}, or
// null for nothing). A die or throw after a throw held for its laid-aside toggle belongs to the
// next thrower (only a throw picked on purpose is entered anew), and the pad follows the turn
// order again. Returns the new entry, or the same one when nothing was tapped.
export function tap(entry, seats, opening, words, change) {
  const round = replay(seats, entry.taps, opening, words);
  const seat = seatOf(round, entry.pick);
  if (seat === undefined) return entry;
  const tapped = change(seat, round);
  if (!tapped) return entry;
  const entering = Boolean(tapped.d || tapped.t);
  const made = Object.assign({}, tapped, entering ? { s: seatForThrow(round, entry.pick, true) } : {});
  return Object.assign({}, entry, { taps: entry.taps.concat([made]), pick: entering ? null : entry.pick });
}

// "Undo": the last tap goes, and the pad follows the turn order. Null when there is none.
export function undo(entry) {
  if (!entry.taps.length) return null;
  return Object.assign({}, entry, { taps: entry.taps.slice(0, -1), pick: null });
}

export function pick(entry, seat) {
  return Object.assign({}, entry, { pick: seat });
}

// "Take back" is offered for the round just scored, while no tap of the next one was made.
export function canTakeBack(entry) {
  return Boolean(entry.previous) && !entry.taps.length;
}

// Taken back: the round before comes back with its taps (to change a die and score it again),
// its html on the revision the server keeps now (`html`, made by the glue). Null when none.
export function takeBack(entry, html) {
  if (!entry.previous) return null;
  return Object.assign({}, entry, { html: html, taps: entry.previous.taps, pick: null, previous: null, waiting: false });
}

// The kept games to forget: every other table's entry that is unreadable, undated, or older than
// KEEP_MS. `kept` is [[name, entry or null]] for the names under the tracker's prefix.
export function expired(kept, current, now) {
  return kept
    .filter(([name, entry]) => name !== current && (!entry || !entry.saved || now - entry.saved > KEEP_MS))
    .map(([name]) => name);
}

// A round waiting for the connection is tried again after a growing, then steady, delay.
export function retryDelay(retries) {
  return RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
}

// Whether a throw button ("652") shows the seat's complete throw, whatever the order of its dice.
export function isThrow(dice, label) {
  return dice.length === 3 && dice.slice().sort().join("") === String(label).split("").sort().join("");
}

// Sharp play's clock: the server's elapsed seconds plus the time since the page loaded;
// `past` once the limit is reached.
export function clock(elapsed, sinceLoadMs, sharpAfter) {
  const seconds = Number(elapsed) + Math.floor(sinceLoadMs / 1000);
  return {
    seconds: seconds,
    text: Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0"),
    past: seconds >= Number(sharpAfter),
  };
}

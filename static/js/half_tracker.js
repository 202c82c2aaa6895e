// The Schocken half tracker on a referee's tablet: the dice are tapped, not typed; the game in
// progress is kept on the server per table (every tablet continues it), the taps of the round in
// progress on this tablet.
//
// Contract with templates/formats/life_bands/half_tracker.html (and the view in
// tournament/formats/life_bands/views.py):
// - #tracker-app (part of the page) names the store key and the table's version; #tracker (the
//   partial the server answers after each round) holds the game's state in hidden fields and one
//   row per thrower in turn order (tr[data-seat]) with the typed fields dice_<seat>, rolls_<seat>
//   and kept_<seat>, plus the tap pad (hidden without this file).
// - Every tap writes those typed fields, so the form posts exactly what a typing referee would
//   send; the server scores the round and answers with the next #tracker. The ranking word of a
//   throw comes from #tracker-throws, which the server builds from the game rules.
// - localStorage["spielleitung.tracker.v1:<tournament>:<table>"] keeps the server's last #tracker
//   (the game's state), the taps of the round in progress and the round before (to take it
//   back). A reload or a lost connection loses nothing. The server's kept game wins: when the
//   page shows another state (another tablet scored, a result was recorded) the taps kept here
//   are dropped and the page's game is shown. A take-back posts the round before on the kept
//   revision (the server refuses a round posted on an older one).
// - A decided game: "Record: X loses a chip" is a form of the outbox (static/js/outbox.js, the
//   table page's "Lost"); while it is not saved the button waits, and once the outbox reports it
//   saved ("spielleitung:entry") the tracker asks the server for the next game (its loser begins).
// - Sharp play: the clock counts from the server's elapsed seconds. When the limit passes before
//   the game's first round is scored, the game switches to one half (the server decides the same
//   when that round is posted); a game already under way ends normally and says so.
// Without JavaScript the typed form posts as before.
//
// The rules (a round's taps replayed, the kept game across taps, answers and reloads, the clock)
// are static/js/tracker_core.js, tested under `node --test`; this module is the DOM glue.
import * as core from "./tracker_core.js";
import { openFor } from "./outbox.js";
import { t, counted } from "./ui.js";

(function () {
  "use strict";
  const app = document.getElementById("tracker-app");
  if (!app) return;
  const PREFIX = "spielleitung.tracker.v1:";
  const FACES_KEY = "spielleitung.tracker.faces"; // the die-by-die pad opened on this tablet (kept)
  const STATE_FIELDS = ["players", "stock", "lids", "half_losers", "starter", "revision", "mark"];
  const wordsData = document.getElementById("tracker-throws");
  const words = wordsData ? JSON.parse(wordsData.textContent) : {};
  const key = app.dataset.storeKey;
  const shownCurrent = new WeakMap(); // #tracker -> the seat whose row was last brought into view
  let memory = null; // used when the browser blocks localStorage
  let incoming = null; // the server's answer about to replace #tracker
  let sending = false; // a round is on its way to the server: it is scored once
  let retries = 0;
  let retryTimer = null;
  let pendingNote = ""; // said on the next #tracker (the loss saved, the next game begins)

  // --- storage ---------------------------------------------------------------------

  function read() {
    if (memory) return memory;
    try {
      return JSON.parse(window.localStorage.getItem(key) || "null");
    } catch (error) {
      return null;
    }
  }

  function write(entry) {
    entry.saved = Date.now();
    if (memory) {
      memory = entry;
      return;
    }
    try {
      window.localStorage.setItem(key, JSON.stringify(entry));
    } catch (error) {
      memory = entry;
    }
  }

  function forget() {
    memory = null;
    try {
      window.localStorage.removeItem(key);
    } catch (error) {
      // nothing kept, nothing to clear
    }
  }

  function forgetOld() {
    try {
      const kept = [];
      for (let i = 0; i < window.localStorage.length; i += 1) {
        const name = window.localStorage.key(i);
        if (!name || !name.startsWith(PREFIX)) continue;
        let entry = null;
        try {
          entry = JSON.parse(window.localStorage.getItem(name));
        } catch (error) {
          entry = null;
        }
        kept.push([name, entry]);
      }
      core.expired(kept, key, Date.now()).forEach((name) => window.localStorage.removeItem(name));
    } catch (error) {
      // storage blocked: nothing to clean
    }
  }

  // The table version a #tracker was rendered with (a recorded result changes it).
  function versionOf(element) {
    return (element && element.dataset.version) || app.dataset.version;
  }

  function fresh(html) {
    return core.fresh(versionOf(parse(html)), html);
  }

  // --- the tracker's state ---------------------------------------------------------

  function tracker() {
    return document.getElementById("tracker");
  }

  function parse(html) {
    const box = document.createElement("div");
    box.innerHTML = html;
    return box.querySelector("#tracker");
  }

  // What a #tracker shows: the step and the hidden state (the sharp flag aside: the clock may have
  // switched a game that has not begun), or the loser of a decided game.
  function signature(element) {
    if (!element) return "";
    const step = element.dataset.step || "";
    const form = element.querySelector("[data-tracker-form]");
    if (!form) {
      const loser = element.querySelector("#tracker-loser");
      return step + "|" + (loser ? loser.textContent.trim() : "");
    }
    return step + "|" + STATE_FIELDS.map((name) => (form.elements[name] ? form.elements[name].value : "")).join("|");
  }

  // A kept html's signature; null when it cannot be read.
  function signatureOf(html) {
    const element = parse(html);
    return element ? signature(element) : null;
  }

  function csrfToken() {
    const field = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return field ? field.value : "";
  }

  // Put a kept #tracker back on the page; its forms carry this page's CSRF token (a new login changes it).
  function show(html) {
    const token = csrfToken();
    const element = parse(html);
    const current = tracker();
    if (!element || !current) return current;
    element.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach((input) => {
      if (token) input.value = token;
    });
    current.replaceWith(element);
    if (window.htmx) window.htmx.process(element);
    return element;
  }

  // --- one round's taps ------------------------------------------------------------
  // A tap is {s: seat, d: face} (a die), {s, r: rolls} or {s, k: 0|1} (a one laid aside). The
  // round is the replay of its taps, so "undo" simply drops the last one.

  function rowsOf(element) {
    return Array.from(element.querySelectorAll("tr[data-seat]"));
  }

  function seatsOf(element) {
    return rowsOf(element).map((row) => row.dataset.seat);
  }

  function replay(element, taps) {
    return core.replay(seatsOf(element), taps, element.dataset.opening === "1", words);
  }

  function die(face) {
    const box = document.createElement("span");
    box.className = "die die-" + face;
    box.setAttribute("aria-hidden", "true");
    for (let i = 0; i < face; i += 1) box.append(document.createElement("i"));
    return box;
  }

  function field(form, name) {
    return form.elements[name] || null;
  }

  function render(element) {
    const form = element.querySelector("[data-tracker-form]");
    const entry = read() || fresh(element.outerHTML);
    const back = core.canTakeBack(entry);
    element.querySelectorAll("[data-take-back]").forEach((button) => (button.hidden = !back));
    if (!form) {
      recordState(element); // a decided game: its loss may be waiting in the outbox
      return;
    }
    const opening = element.dataset.opening === "1";
    const round = replay(element, entry.taps);
    const current = core.seatOf(round, entry.pick);
    const result = core.outcome(round, opening, words);
    const rows = rowsOf(element);
    const shown = result.shown.map((item) => Object.assign({ row: rows[item.turn] }, item));
    shown.forEach((item) => {
      const row = item.row;
      const seat = item.seat;
      const done = item.done;
      const word = item.word;
      const complete = done.dice.length === 3;
      const slots = row.querySelectorAll(".die-slot");
      slots.forEach((slot, index) => {
        slot.replaceChildren();
        if (done.dice[index]) slot.append(die(done.dice[index]));
        slot.classList.toggle("is-filled", Boolean(done.dice[index]));
      });
      const wordBox = row.querySelector("[data-word]");
      wordBox.textContent = word ? word.word : "";
      wordBox.className = "throw-word" + (word ? " kind-" + word.kind : "");
      row.querySelector("[data-lids]").textContent = word ? word.lids : "";
      row.querySelector("[data-rolls-note]").textContent = counted("trackerRolls", item.rolls);
      row.classList.toggle("is-current", seat === current);
      row.classList.toggle("is-complete", complete);
      row.querySelector("[data-pick]").setAttribute("aria-pressed", seat === current ? "true" : "false");
      const dice = field(form, "dice_" + seat);
      if (dice) dice.value = complete ? done.dice.join(" ") : "";
      const rollsField = field(form, "rolls_" + seat);
      if (rollsField) rollsField.value = String(item.rolls);
      const keptField = field(form, "kept_" + seat);
      if (keptField) keptField.value = String(item.kept);
      row.querySelector("[data-mark-high]").hidden = seat !== result.high;
      row.querySelector("[data-mark-low]").hidden = seat !== result.low;
    });
    const all = result.all;
    const now = shown.find((item) => item.seat === current) || shown[0];
    const pad = element.querySelector("[data-pad]");
    if (now && pad) {
      pad.querySelector("[data-pad-name]").textContent = now.row.dataset.name;
      const padWord = pad.querySelector("[data-pad-word]");
      padWord.textContent = now.word ? now.word.word + " · " + now.word.lids : "";
      padWord.className = "pad-word" + (now.word ? " kind-" + now.word.kind : "");
      const limit = core.rollLimit(round, now.seat, opening);
      pad.querySelectorAll("[data-roll]").forEach((button) => {
        button.setAttribute("aria-pressed", Number(button.dataset.roll) === now.rolls ? "true" : "false");
        // The others may not roll more often than the round's first thrower.
        button.disabled = Number(button.dataset.roll) > limit;
      });
      pad.querySelectorAll("[data-throw]").forEach((button) => {
        const here = core.isThrow(now.done.dice, button.dataset.throw);
        button.setAttribute("aria-pressed", here ? "true" : "false");
      });
      const faces = facesOpen();
      pad.querySelector("[data-faces]").hidden = !faces;
      pad.querySelector("[data-dice-toggle]").setAttribute("aria-expanded", faces ? "true" : "false");
      const keptButton = pad.querySelector("[data-kept]");
      keptButton.hidden = !core.keptMatters(words, now.done, now.rolls);
      keptButton.setAttribute("aria-pressed", now.kept ? "true" : "false");
      const undo = pad.querySelector("[data-undo]");
      undo.hidden = back;
      undo.disabled = !entry.taps.length;
      const entered = shown.filter((item) => item.word).length;
      pad.querySelector("[data-progress]").textContent = t("trackerProgress")
        .replace("{done}", entered)
        .replace("{total}", shown.length);
    }
    const score = form.querySelector("[data-score]");
    if (score) score.disabled = !all || sending;
    if (now && shownCurrent.get(element) !== now.seat) {
      shownCurrent.set(element, now.seat);
      keepInView(now.row, form.querySelector(".tracker-controls"));
    }
  }

  // The thrower's row stays visible above the pad, which sits at the bottom of the screen.
  function keepInView(row, controls) {
    if (!controls) return;
    const box = row.getBoundingClientRect();
    const bottom = controls.getBoundingClientRect().top;
    if (box.bottom > bottom) window.scrollBy(0, box.bottom - bottom + 8);
    else if (box.top < 0) window.scrollBy(0, box.top - 8);
  }

  function note(element, text, tone) {
    const box = element && element.querySelector("[data-tracker-note]");
    if (!box) return;
    box.textContent = text;
    box.className = "alert tracker-note " + (tone === "warn" ? "alert-warn" : "alert-ok");
    box.hidden = !text;
  }

  function enhance(element) {
    const form = element.querySelector("[data-tracker-form]");
    if (form) {
      form.classList.add("is-tapping");
      element.querySelectorAll("[data-typed]").forEach((cell) => (cell.hidden = true));
      element.querySelectorAll("[data-tapped], [data-pad]").forEach((part) => (part.hidden = false));
      element.querySelectorAll("input.dice-input").forEach((input) => (input.required = false));
    }
    render(element);
    showRows(element);
    sharpen();
  }

  // Every thrower's row above the pad (the pad sits at the bottom of the screen): scrolled up just
  // enough, never past the top of the tracker's card.
  function showRows(element) {
    const rows = rowsOf(element);
    const controls = element.querySelector(".tracker-controls");
    if (!rows.length || !controls) return;
    const hidden = rows[rows.length - 1].getBoundingClientRect().bottom - controls.getBoundingClientRect().top + 8;
    const room = element.getBoundingClientRect().top - 8;
    if (hidden > 0 && room > 0) window.scrollBy(0, Math.min(hidden, room));
  }

  // The dice one by one: a second way to enter a throw, folded away so the rows stay above the pad.
  function facesOpen() {
    try {
      return window.localStorage.getItem(FACES_KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function setFacesOpen(open) {
    try {
      window.localStorage.setItem(FACES_KEY, open ? "1" : "0");
    } catch (error) {
      // storage blocked: the pad folds again on the next page
    }
  }

  // --- taps ------------------------------------------------------------------------

  function tap(change) {
    const element = tracker();
    const entry = read();
    if (!element || !entry) return;
    write(core.tap(entry, seatsOf(element), element.dataset.opening === "1", words, change));
    render(element);
  }

  app.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !app.contains(target)) return;
    const element = tracker();
    if (target.dataset.throw) {
      tap((seat) => ({ s: seat, t: target.dataset.throw }));
    } else if (target.dataset.face) {
      tap((seat) => ({ s: seat, d: Number(target.dataset.face) }));
    } else if (target.dataset.roll) {
      tap((seat) => ({ s: seat, r: Number(target.dataset.roll) }));
    } else if (target.hasAttribute("data-kept")) {
      tap((seat) => ({ s: seat, k: target.getAttribute("aria-pressed") === "true" ? 0 : 1 }));
    } else if (target.hasAttribute("data-dice-toggle")) {
      setFacesOpen(!facesOpen());
      render(element);
    } else if (target.dataset.pick !== undefined) {
      const entry = read();
      if (!entry) return;
      write(core.pick(entry, target.dataset.pick));
      render(element);
    } else if (target.hasAttribute("data-undo")) {
      const entry = read();
      const undone = entry && core.undo(entry);
      if (!undone) return;
      write(undone);
      render(element);
    } else if (target.hasAttribute("data-take-back")) {
      const entry = read();
      if (!entry || !entry.previous) return;
      // The round just scored comes back with its taps: change a die and score it again.
      const taken = core.takeBack(entry, onRevision(entry.previous.html, parse(entry.html)));
      write(taken);
      const shown = show(taken.html);
      enhance(shown);
      note(shown, t("trackerTakenBack"));
    }
  });

  // The round before, to be scored again on the revision the server keeps now (it holds the
  // round being taken back; the server refuses a round posted on an older revision).
  function onRevision(html, latest) {
    const element = parse(html);
    const kept = latest && latest.querySelector('input[name="revision"]');
    if (!element || !kept) return html;
    element.querySelectorAll('input[name="revision"]').forEach((input) => (input.value = kept.value));
    return element.outerHTML;
  }

  // --- recording the loser -----------------------------------------------------------

  // While the loss waits in the outbox (queued, sending, no connection) its button says so and
  // cannot be tapped twice; the outbox's list above the tracker shows its state.
  function recordState(element) {
    const button = element && element.querySelector("[data-record-loser]");
    if (!button) return;
    const open = openFor(app.dataset.trackerTable);
    if (open.length) {
      button.disabled = true;
      button.textContent = t("trackerRecordWaiting");
      // The loss is on its way: the game is neither taken back nor discarded under it.
      element.querySelectorAll("[data-take-back], [data-discard]").forEach((other) => (other.hidden = true));
    }
  }

  function nextGame() {
    if (!window.htmx) {
      window.location.reload();
      return;
    }
    window.htmx.ajax("GET", window.location.pathname, { target: "#tracker", swap: "outerHTML" });
  }

  document.addEventListener("spielleitung:entry", (event) => {
    const detail = event.detail || {};
    if (detail.table !== app.dataset.trackerTable) return;
    if (detail.fate === "saved") {
      pendingNote = t("saved").replace("{label}", detail.label || "");
      nextGame();
    } else if (detail.fate === "refused") {
      // The outbox's list says why; the tracker shows what the table holds now.
      nextGame();
    } else {
      recordState(tracker());
    }
  });

  // --- the server's answers ----------------------------------------------------------

  app.addEventListener("htmx:beforeRequest", (event) => {
    const element = tracker();
    if (!element || !element.contains(event.detail.elt)) return;
    note(element, "");
    sending = true;
    const score = element.querySelector("[data-score]");
    if (score) score.disabled = true;
  });

  app.addEventListener("htmx:afterRequest", () => {
    sending = false;
    const element = tracker();
    if (element) render(element);
  });

  app.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "tracker" && event.detail.shouldSwap) {
      incoming = typeof event.detail.serverResponse === "string" ? event.detail.serverResponse : null;
    }
  });

  document.addEventListener("htmx:load", (event) => {
    const element = event.detail.elt;
    if (!element || element.id !== "tracker") return;
    const html = incoming || element.outerHTML;
    incoming = null;
    if (element.dataset.step === "nothing") {
      forget();
      return;
    }
    app.dataset.version = versionOf(element);
    // The next round (or half): its taps start empty. Only a round this tablet scored can be taken
    // back: not after a refusal (another tablet scored meanwhile, a result was recorded), nor
    // across games (a new game starts afresh).
    const own = element.dataset.fresh !== "1" && !element.querySelector("#tracker-error");
    const page = { version: versionOf(element), html: html, signature: signature(element), own: own };
    retries = 0;
    write(core.arrive(read(), page, signatureOf));
    enhance(element);
    if (pendingNote) note(element, pendingNote);
    pendingNote = "";
  });

  // No connection: the round stays on the tablet and is scored by itself once the connection is back.
  app.addEventListener("htmx:sendError", (event) => {
    const element = tracker();
    if (!element || !element.contains(event.detail.elt)) return;
    event.stopPropagation(); // said here, in the tracker's words, instead of app.js's generic message
    const entry = read();
    if (entry) {
      entry.waiting = true;
      write(entry);
    }
    render(element);
    note(element, t("trackerOffline"), "warn");
    retryLater();
  });

  // Tried again when the browser says it is online, and meanwhile every few seconds (the browser
  // does not always notice a connection that comes back).
  function resend() {
    window.clearTimeout(retryTimer);
    const entry = read();
    const element = tracker();
    if (!entry || !entry.waiting || !element || sending) return;
    const form = element.querySelector("[data-tracker-form]");
    const score = form && form.querySelector("[data-score]");
    if (!score || score.disabled) return;
    if (window.htmx) window.htmx.process(form);
    form.requestSubmit(score);
  }

  function retryLater() {
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(resend, core.retryDelay(retries));
    retries += 1;
  }

  window.addEventListener("online", resend);
  document.addEventListener("spielleitung:connection", (event) => {
    if (event.detail && event.detail.online) resend();
  });

  // --- sharp play --------------------------------------------------------------------

  const clock = document.querySelector("[data-tracker-clock]");
  const loadedAt = window.performance.now();
  let sharpNow = false;

  function sharpen() {
    const element = tracker();
    if (!sharpNow || !element) return;
    const step = element.dataset.step;
    if (step === "done" || step === "nothing") return;
    if (element.dataset.fresh === "1") {
      // The game has not begun: it is played with one half.
      element.classList.add("is-sharp");
      element.querySelectorAll("[data-when-sharp]").forEach((banner) => (banner.hidden = false));
      const flag = element.querySelector('input[name="sharp"]');
      if (flag) flag.value = "1";
    } else if (!element.classList.contains("is-sharp")) {
      element.querySelectorAll("[data-when-pending]").forEach((banner) => (banner.hidden = false));
    }
  }

  function tick() {
    if (!clock) return;
    const now = core.clock(clock.dataset.elapsed, window.performance.now() - loadedAt, clock.dataset.sharpAfter);
    const timer = clock.querySelector("[data-tracker-timer]");
    if (timer) timer.textContent = now.text;
    const past = now.past;
    clock.classList.toggle("is-sharp", past);
    if (past && !sharpNow) {
      sharpNow = true;
      sharpen();
    }
  }

  // --- start -------------------------------------------------------------------------

  function start() {
    forgetOld();
    let element = tracker();
    if (!element) return;
    if (element.dataset.step === "nothing") {
      forget();
      return;
    }
    // The server's kept game wins (a result recorded meanwhile, another tablet scored a round):
    // the taps this tablet kept for an older round are dropped, said so when there were any.
    const page = { version: versionOf(element), html: element.outerHTML, signature: signature(element) };
    const resumed = core.resume(read(), page, signatureOf);
    const entry = resumed.entry;
    if (resumed.note === "trackerMovedOn") note(element, t("trackerMovedOn"), "warn");
    else if (resumed.note) note(element, t(resumed.note));
    write(entry);
    tick();
    enhance(element);
    // A round left waiting is sent again once htmx has taken over the page's forms (deferred
    // scripts run before it does: sent earlier, the form would post as a plain page).
    if (entry.waiting) {
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => window.setTimeout(resend, 0));
      else resend();
    }
  }

  start();
  if (clock) window.setInterval(tick, 1000);
})();

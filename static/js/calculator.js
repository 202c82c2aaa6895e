// The UNO hand calculator (knockout final, points tables).
//
// Contract with the form (templates/tournament/_final_entry.html):
// - the winner is picked first; only the other players' calculators are shown,
//   and the winner's is disabled so nothing of it is submitted;
// - every tap on a card key adds one card: the hidden input hand_<player>_<card>
//   counts it and the number field shows the hand's total (read-only while the
//   hand holds cards, so the typed total and the tapped cards never disagree);
// - "Undo last card" takes back exactly one card per tap, the last one tapped,
//   until the hand is empty; an emptied hand shows 0 and records 0;
// - "Clear" empties the hand and the field, so the points can be typed instead;
// - typing is the fallback without cards; tapping a card after typing replaces
//   the typed total, and says so.
// A form that is half-done carries data-dirty, so the page's poller leaves it
// alone. Hands sent back by the server after a refusal are shown again.
// Without JavaScript every hand is shown and the points are typed.
//
// The arithmetic is static/js/calculator_core.js (tested under `node --test`); this module is the
// DOM glue. The form's data-entry-label says what it records ("won by Anna (25 points)"), kept
// current here: the outbox reads it when the form is sent (no global between the two).
import * as uno from "./calculator_core.js";
import { t as text } from "./ui.js";

(function () {
  "use strict";
  // The order of the taps, per calculator; rebuilt from the counts when a form arrives.
  const stacks = new WeakMap();

  function keyFor(calc, card) {
    return calc.querySelector('.calc-key[data-card="' + card + '"]');
  }

  function countInput(calc, card) {
    return calc.querySelector('input[data-count="' + card + '"]');
  }

  function labelOf(key) {
    const label = key.querySelector(".calc-key-label");
    return (label ? label.textContent : key.textContent).trim();
  }

  function stackOf(calc) {
    if (!stacks.has(calc)) {
      const counts = Array.from(calc.querySelectorAll("input[data-count]"), (input) => [input.dataset.count, input.value]);
      stacks.set(calc, uno.stackFromCounts(counts));
    }
    return stacks.get(calc);
  }

  // Write the stack into the hidden counts, the total field and the hand line.
  function render(calc, note) {
    const stack = stackOf(calc);
    const { counts, total } = uno.tally(stack, valuesOf(calc));
    calc.querySelectorAll("input[data-count]").forEach((input) => {
      input.value = counts[input.dataset.count] || 0;
    });
    const field = calc.querySelector(".calc-total");
    const hand = calc.querySelector("[data-calc-hand]");
    if (stack.length) {
      field.value = total;
      field.readOnly = true;
      hand.textContent = stack.map((card) => labelOf(keyFor(calc, card))).join(" · ");
    } else {
      field.readOnly = false;
      hand.textContent = "";
    }
    if (note) {
      const extra = document.createElement("strong");
      extra.className = "calc-note";
      extra.textContent = " " + note;
      hand.appendChild(extra);
    }
    update(calc.closest("form"));
  }

  // The points of each card key of a calculator (data-value, from the game's rules).
  function valuesOf(calc) {
    const values = {};
    calc.querySelectorAll(".calc-key[data-card]").forEach((key) => (values[key.dataset.card] = key.dataset.value));
    return values;
  }

  function winnerOf(form) {
    return form.querySelector('input[name="winner"]:checked');
  }

  // Show only the other players' hands once a winner is picked; sum them for the winner.
  function update(form) {
    if (!form) return;
    const winner = winnerOf(form);
    const hint = form.querySelector("[data-calc-hint]");
    const area = form.querySelector("[data-calculators]");
    if (hint) hint.hidden = Boolean(winner);
    if (area) area.hidden = !winner;
    const hands = [];
    form.querySelectorAll("[data-calculator]").forEach((calc) => {
      const isWinner = Boolean(winner) && calc.dataset.player === winner.value;
      calc.hidden = isWinner;
      calc.disabled = isWinner; // a disabled fieldset submits nothing
      hands.push({ player: calc.dataset.player, field: calc.querySelector(".calc-total").value, cards: stackOf(calc).length });
    });
    const sum = uno.winnerPoints(hands, winner ? winner.value : null);
    const out = form.querySelector("[data-winner-total]");
    if (out) out.textContent = sum;
    form.toggleAttribute("data-dirty", uno.isDirty(hands, winner));
    // What the outbox shows for this entry: the winner and the points, else the server's label.
    if (form.dataset.entryLabelBase === undefined) form.dataset.entryLabelBase = form.dataset.entryLabel || "";
    const said = uno.label(winner ? winner.dataset.name || "" : null, out ? out.textContent : null, text);
    form.dataset.entryLabel = said || form.dataset.entryLabelBase;
  }

  function setUp(root) {
    const forms = root.matches && root.matches("form[data-calculator-form]") ? [root] : root.querySelectorAll("form[data-calculator-form]");
    forms.forEach((form) => {
      form.querySelectorAll("[data-calculator]").forEach((calc) => {
        stacks.delete(calc);
        const field = calc.querySelector(".calc-total");
        if (!stackOf(calc).length && field.value !== "") calc.dataset.typed = "1";
        render(calc);
      });
      update(form);
    });
  }

  document.addEventListener("click", (event) => {
    const calc = event.target.closest("[data-calculator]");
    if (!calc) return;
    const stack = stackOf(calc);
    const field = calc.querySelector(".calc-total");
    const key = event.target.closest(".calc-key");
    if (key) {
      const typed = uno.typedReplaced(stack, calc.dataset.typed, field.value);
      delete calc.dataset.typed;
      stack.push(key.dataset.card);
      const note = typed ? text("typedReplaced", "Typed points replaced by the tapped cards.").replace("{points}", typed) : "";
      render(calc, note);
    } else if (event.target.closest("[data-calc-undo]")) {
      if (!stack.length) return;
      const after = uno.afterUndo(stack, valuesOf(calc));
      stack.splice(0, stack.length, ...after.stack);
      field.value = after.field; // an emptied hand counts 0, and records 0
      render(calc);
    } else if (event.target.closest("[data-calc-clear]")) {
      stack.length = 0;
      field.value = "";
      delete calc.dataset.typed;
      render(calc);
    }
  });

  document.addEventListener("input", (event) => {
    if (!event.target.classList.contains("calc-total")) return;
    event.target.closest("[data-calculator]").dataset.typed = "1";
    update(event.target.form);
  });

  document.addEventListener("change", (event) => {
    if (event.target.name === "winner" && event.target.form && event.target.form.matches("[data-calculator-form]")) {
      update(event.target.form);
    }
  });

  // A new panel (poll, outbox answer, htmx swap) may bring a calculator, with hands the server sent back.
  document.addEventListener("htmx:load", (event) => setUp(event.target));
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => setUp(document));
  } else {
    setUp(document);
  }

})();

// UNO hand calculator for the final: each tap adds a card to a player's hand.
// The hidden inputs carry the counts (priced on the server with the
// tournament's scoring table); the number field shows the running total.
// Without JavaScript the referee types the points into the number field.
(function () {
  function refresh(calc) {
    let total = 0;
    let cards = [];
    calc.querySelectorAll("input[data-count]").forEach((input) => {
      const count = parseInt(input.value, 10) || 0;
      if (count > 0) {
        const key = calc.querySelector('.calc-key[data-card="' + input.dataset.count + '"]');
        total += count * parseInt(key.dataset.value, 10);
        cards.push(count + "× " + key.textContent.trim());
      }
    });
    const field = calc.querySelector(".calc-total");
    if (cards.length) {
      field.value = total;
      field.readOnly = true;
    } else {
      field.readOnly = false;
    }
    calc.querySelector("[data-calc-hand]").textContent = cards.join(" · ");
    updateWinnerTotal(calc.closest("form"));
  }

  // What the chosen winner will score: the sum of the other hands.
  function updateWinnerTotal(form) {
    if (!form) return;
    const out = form.querySelector("[data-winner-total]");
    if (!out) return;
    let sum = 0;
    form.querySelectorAll("[data-calculator]").forEach((calc) => {
      if (!calc.hidden) sum += parseInt(calc.querySelector(".calc-total").value, 10) || 0;
    });
    out.textContent = sum;
  }
  document.addEventListener("input", (event) => {
    if (event.target.classList.contains("calc-total")) updateWinnerTotal(event.target.form);
  });
  document.addEventListener("click", (event) => {
    const key = event.target.closest(".calc-key");
    const clear = event.target.closest("[data-calc-clear]");
    const calc = event.target.closest("[data-calculator]");
    if (!calc) return;
    if (key) {
      const input = calc.querySelector('input[data-count="' + key.dataset.card + '"]');
      input.value = (parseInt(input.value, 10) || 0) + 1;
      calc.dataset.lastCard = key.dataset.card;
      refresh(calc);
    } else if (event.target.closest("[data-calc-undo]")) {
      // Remove the last tapped card only.
      const last = calc.dataset.lastCard;
      const input = last && calc.querySelector('input[data-count="' + last + '"]');
      if (input && parseInt(input.value, 10) > 0) input.value = parseInt(input.value, 10) - 1;
      refresh(calc);
    } else if (clear) {
      calc.querySelectorAll("input[data-count]").forEach((input) => (input.value = 0));
      const field = calc.querySelector(".calc-total");
      field.value = "";
      refresh(calc);
    }
  });
  // The winner has no cards left: hide their calculator.
  document.addEventListener("change", (event) => {
    if (event.target.name !== "winner") return;
    const form = event.target.form;
    form.querySelectorAll("[data-calculator]").forEach((calc) => {
      calc.hidden = calc.dataset.player === event.target.value;
    });
    updateWinnerTotal(form);
  });
})();

// Table timers for the 15-minute rule: minutes:seconds since the table started,
// and the sharp-play warning once the limit is reached. Server-rendered state
// stays correct without this file; it only keeps the clock running.
(function () {
  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-started-at]").forEach((box) => {
      const started = Date.parse(box.dataset.startedAt);
      const sharpAt = Date.parse(box.dataset.sharpAt);
      const seconds = Math.max(0, Math.floor((now - started) / 1000));
      const timer = box.querySelector("[data-timer]");
      if (timer) {
        timer.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
      }
      if (!Number.isNaN(sharpAt)) box.classList.toggle("is-sharp", now >= sharpAt);
    });
  }
  tick();
  setInterval(tick, 1000);
})();

// The player's pass (tournament/views/passes.py): the call to the table.
//
// poll.js keeps #pass-body current (ETag/304). When a poll brings a new call (the region's
// data-call names another table), the page rings: a short beep (Web Audio, no file), a vibration
// and, where the player allowed it with "Notify me", a browser notification. Permission is asked
// only on that button, never on load. The page notes each call it rang for in data-called (the
// browser tests read it). Nothing rings for the call the page was opened with.
(function () {
  "use strict";
  const page = document.querySelector("[data-pass]");
  const live = page && page.querySelector(".pass-live");
  if (!page || !live) return;
  const button = page.querySelector("[data-notify]");
  const state = page.querySelector("[data-notify-state]");
  const body = () => document.getElementById("pass-body");
  let current = body() ? body().dataset.call || "" : "";
  let audio = null;

  function unlockAudio() {
    // Browsers start sound only after a tap: the first tap on the page prepares it.
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  }

  function beep() {
    if (!audio || audio.state !== "running") return;
    const start = audio.currentTime;
    [0, 0.35].forEach((offset) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.4, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.25);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.3);
    });
  }

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    try {
      new Notification(page.dataset.notifyTitle || "", { body: text, tag: "spielleitung-pass-call" });
    } catch (error) {
      // Some phones show notifications only through a service worker: the page still rang.
    }
  }

  function ring(region) {
    beep();
    if (navigator.vibrate) navigator.vibrate([250, 120, 250]);
    notify(region.dataset.callText || "");
    page.dataset.called = region.dataset.call;
  }

  new MutationObserver(() => {
    const region = body();
    if (!region) return;
    const call = region.dataset.call || "";
    if (call && call !== current) ring(region);
    current = call;
  }).observe(live, { childList: true });

  function showState() {
    if (!button || !("Notification" in window)) return;
    const permission = Notification.permission;
    button.hidden = permission !== "default";
    if (permission === "granted") state.textContent = page.dataset.notifyOn || "";
    else if (permission === "denied") state.textContent = page.dataset.notifyDenied || "";
  }

  if (button) {
    button.addEventListener("click", () => {
      unlockAudio();
      Notification.requestPermission().then(showState, showState);
    });
  }
  document.addEventListener("pointerdown", unlockAudio, { passive: true });
  document.addEventListener("keydown", unlockAudio);
  showState();
})();

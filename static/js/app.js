// Small progressive enhancements; every page works without this file.
//
// - the translated texts come from static/js/ui.js (the server's #ui-messages, see
//   tournament/context_processors.py), which every module that says something imports;
// - print buttons, and a printout that did not arrive whole (its Print button off);
// - an htmx request that fails (no connection, a timeout, an error answer that
//   is not swapped) shows its message in place, next to what was tapped,
//   instead of doing nothing.
import { t } from "./ui.js";

(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    const printButton = event.target.closest("[data-print]");
    if (printButton) {
      event.preventDefault();
      window.print();
    }
  });

  // The public sign-up's suggestions from the club's register (templates/passes/_signup_suggestions.html):
  // a tap fills Name and Club and remembers the pick (the server links only where the e-mail matches).
  document.addEventListener("click", (event) => {
    const pick = event.target.closest("[data-fill-name]");
    if (!pick) return;
    const form = pick.closest("form");
    if (!form) return;
    const name = form.querySelector('input[name="name"]');
    const team = form.querySelector('input[name="club"]');
    const suggested = form.querySelector('input[name="suggested"]');
    if (name) name.value = pick.dataset.fillName;
    if (team) team.value = pick.dataset.fillTeam || "";
    if (suggested) suggested.value = pick.dataset.person || "";
    const list = pick.closest(".suggestions");
    if (list) list.replaceChildren();
    const contact = form.querySelector('input[name="contact"]');
    if (contact) contact.focus();
  });

  // A printout is streamed in parts (tournament/streaming.py); one whose connection broke
  // ends early without its last element: say so, and keep its Print button from printing it.
  if (document.querySelector(".print-doc") && !document.getElementById("print-complete")) {
    const warning = document.getElementById("print-incomplete");
    if (warning) warning.hidden = false;
    document.querySelectorAll("[data-print]").forEach((button) => {
      button.disabled = true;
    });
  }

  // New tournament: the checklist follows the chosen format while it is still a format's default list.
  const checklists = document.getElementById("format-checklists");
  if (checklists) {
    const lists = JSON.parse(checklists.textContent);
    const format = document.querySelector('select[name="format"]');
    const field = document.querySelector('textarea[name="checklist"]');
    if (format && field) {
      let shown = format.value;
      format.addEventListener("change", () => {
        const untouched = field.value.trim() === (lists[shown] || "").trim() || !field.value.trim();
        if (untouched && lists[format.value] !== undefined) field.value = lists[format.value];
        shown = format.value;
      });
    }
  }

  function anchorOf(element) {
    return (element && (element.closest("form") || element)) || document.querySelector("main");
  }

  function clearError(element) {
    const anchor = anchorOf(element);
    const next = anchor && anchor.nextElementSibling;
    if (next && next.classList.contains("htmx-error")) next.remove();
  }

  function showError(element, text) {
    const anchor = anchorOf(element);
    if (!anchor || !anchor.isConnected) return;
    clearError(element);
    const box = document.createElement("div");
    box.className = "alert alert-bad htmx-error";
    box.setAttribute("role", "alert");
    box.textContent = text;
    anchor.insertAdjacentElement("afterend", box);
  }

  // The server answers htmx errors with a short translated fragment; use its words when there are any.
  function wordsIn(html) {
    if (!html || html.length > 4000) return "";
    const box = document.createElement("div");
    box.innerHTML = html;
    const alert = box.querySelector("[role=alert], .alert");
    return alert ? alert.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // Screen readers hear what an action did (#announce, a polite live region in base.html): the
  // messages of a page loaded after a form (registered, checked in), and the desk's answers in place.
  const announcer = document.getElementById("announce");
  function announce(text) {
    if (!announcer || !text) return;
    announcer.textContent = "";
    // A change after the region is in place is what a screen reader reads out.
    window.setTimeout(() => {
      announcer.textContent = text;
    }, 100);
  }
  const flashed = Array.from(document.querySelectorAll(".messages li"), (item) => item.textContent.trim());
  if (flashed.length) announce(flashed.join(" "));

  // The desk keeps its place: after a check-in the search is emptied (the whole list shown again) and
  // takes the focus for the next name, and the outcome is announced (views.desk.check_in: the HX-Trigger "desk-checked-in").
  document.addEventListener("desk-checked-in", (event) => {
    const search = document.getElementById("id_q");
    if (search) {
      search.value = "";
      search.focus();
      // The list follows the empty search: everyone again (the form's "search" trigger).
      search.dispatchEvent(new Event("search"));
    }
    announce(event.detail && event.detail.message);
  });

  document.addEventListener("htmx:beforeRequest", (event) => clearError(event.detail.elt));
  document.addEventListener("htmx:sendError", (event) => showError(event.detail.elt, t("networkFailed")));
  document.addEventListener("htmx:timeout", (event) => showError(event.detail.elt, t("timeout")));
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    const status = xhr ? xhr.status : 0;
    let fallback = t("serverFailed");
    if (status === 403) fallback = t("notAllowed");
    else if (status === 404) fallback = t("notFound");
    else if (status >= 400 && status < 500) fallback = t("badRequest");
    const words = xhr ? wordsIn(xhr.responseText) : "";
    showError(event.detail.elt, (words || fallback).replace("{status}", status));
  });
})();

// Pages that keep themselves current (tournament/polling.py is the server side).
//
// An element with data-poll="<seconds>", an id, data-poll-url and data-etag asks
// the server for itself every few seconds with If-None-Match; "304 Not
// Modified" leaves it untouched, a 200 replaces it (htmx processes the new
// content). A poll is skipped while the person is busy with the region: a
// field in it has the focus, a form in it is half-done (data-dirty), an entry
// is being sent (body[data-poll-hold]), an htmx request runs, a dialog is open,
// or the tab is hidden. Every answer, or its absence, is reported as the event
// "spielleitung:connection" so the banner can say when the page is out of date.
// Every poll that ran its course, skipped or not, is reported as the event
// "spielleitung:polled" (detail: the region's id and the outcome: "busy",
// "unchanged", "replaced", "kept" or "failed"): that a poll left a page alone has
// no content to wait for, so the browser tests wait for this.
(function () {
  "use strict";
  const TIMEOUT_MS = 8000;
  const ids = Array.from(document.querySelectorAll("[data-poll][id]"), (element) => element.id);
  if (!ids.length || !window.fetch) return;

  function report(online) {
    document.dispatchEvent(new CustomEvent("spielleitung:connection", { detail: { online: online } }));
  }

  function busy(region) {
    if (document.hidden || document.body.dataset.pollHold || document.querySelector(".htmx-request")) return true;
    const active = document.activeElement;
    if (active && region.contains(active) && active.matches("input:not([type=radio]), select, textarea")) return true;
    return Boolean(region.querySelector("[data-dirty], [data-submitting], .htmx-request, dialog[open]"));
  }

  function poll(id) {
    const region = document.getElementById(id);
    if (!region || busy(region)) return Promise.resolve("busy");
    const url = region.dataset.pollUrl || window.location.pathname + window.location.search;
    const etag = region.dataset.etag || "";
    const headers = { "HX-Request": "true", "HX-Target": id };
    if (etag) headers["If-None-Match"] = etag;
    const controller = new AbortController();
    const timer = window.setTimeout(() => controller.abort(), TIMEOUT_MS);
    return window
      .fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin", redirect: "manual", signal: controller.signal })
      .then((response) => {
        if (response.status === 304) {
          report(true);
          return "unchanged";
        }
        if (response.type === "opaqueredirect" || !response.ok) {
          // Logged out, or a server error: keep what is shown and say it may be old.
          report(response.status >= 500 ? false : true);
          return "kept";
        }
        report(true);
        return response.text().then((html) => {
          const current = document.getElementById(id);
          // Replaced while this poll was under way (a tap's answer, another poll): that is newer; keep it.
          if (current !== region || busy(current) || !html.includes('id="' + id + '"')) return "kept";
          window.htmx.swap(current, html, { swapStyle: "outerHTML" });
          const fresh = document.getElementById(id);
          const tag = response.headers.get("ETag");
          if (fresh && tag) fresh.dataset.etag = tag;
          return "replaced";
        });
      })
      .catch(() => {
        report(false);
        return "failed";
      })
      .finally(() => window.clearTimeout(timer));
  }

  function pollAndReport(id) {
    return poll(id).then((outcome) => {
      document.dispatchEvent(new CustomEvent("spielleitung:polled", { detail: { id: id, outcome: outcome } }));
    });
  }

  ids.forEach((id) => {
    const region = document.getElementById(id);
    const seconds = Math.max(2, parseInt(region.dataset.poll, 10) || 5);
    let running = false;
    window.setInterval(() => {
      if (running) return;
      running = true;
      pollAndReport(id).finally(() => (running = false));
    }, seconds * 1000);
  });
  // Coming back to the tab (or the connection): look at once.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) ids.forEach(pollAndReport);
  });
  window.addEventListener("online", () => ids.forEach(pollAndReport));
})();

// Projector: rotate between views, poll for changes with a conditional GET,
// show how fresh the picture is, and keep the last state when offline.
(function () {
  const body = document.body;
  const screen = document.getElementById("screen");
  const fresh = document.getElementById("freshness");
  const dots = document.getElementById("view-dots");
  const rotateMs = Math.max(3, parseInt(body.dataset.rotateSeconds, 10) || 15) * 1000;
  let etag = body.dataset.etag || "";
  let lastContact = Date.now();
  let offline = false;
  let index = 0;
  let currentKind = "";

  // 304 means "nothing changed": keep the page as it is.
  htmx.config.responseHandling = [
    { code: "304", swap: false },
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "[45]..", swap: false, error: true },
  ];

  function views() {
    return Array.from(screen.querySelectorAll("[data-view]"));
  }

  function show(i) {
    const all = views();
    if (!all.length) return;
    index = ((i % all.length) + all.length) % all.length;
    all.forEach((view, n) => view.classList.toggle("active", n === index));
    currentKind = all[index].dataset.view;
    dots.innerHTML = all.map((_, n) => '<span class="' + (n === index ? "on" : "") + '"></span>').join("");
  }

  function renderFreshness() {
    const seconds = Math.round((Date.now() - lastContact) / 1000);
    if (offline) {
      const time = new Date(lastContact).toLocaleTimeString();
      fresh.textContent = fresh.dataset.textOffline.replace("{time}", time);
      fresh.classList.add("offline");
    } else {
      fresh.textContent = fresh.dataset.textFresh.replace("{s}", seconds);
      fresh.classList.remove("offline");
    }
  }

  screen.addEventListener("htmx:configRequest", (event) => {
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });
  screen.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (xhr && (xhr.status === 200 || xhr.status === 304)) {
      lastContact = Date.now();
      offline = false;
      const tag = xhr.getResponseHeader("ETag");
      if (tag) etag = tag;
    } else {
      offline = true;
    }
    renderFreshness();
  });
  screen.addEventListener("htmx:sendError", () => {
    offline = true;
    renderFreshness();
  });
  screen.addEventListener("htmx:afterSwap", () => {
    // Stay on the same kind of view after new data arrives.
    const all = views();
    const same = all.findIndex((view) => view.dataset.view === currentKind);
    show(same >= 0 ? Math.min(index, all.length - 1) : 0);
  });

  show(0);
  renderFreshness();
  setInterval(() => show(index + 1), rotateMs);
  setInterval(renderFreshness, 1000);
})();

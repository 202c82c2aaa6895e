// Projector: rotate between views, poll for changes with a conditional GET,
// show how fresh the picture is, and keep the last state when offline.
//
// The server sends its lists (tables, names, standings, waiting pool) in pages of a
// fixed size; how many fit depends on the screen (its shape, names that wrap onto a
// second line). So the lists are paged again here, to the screen they are shown on:
// each kind's items fill as many pages as they need, and no page runs off the screen.
// The bracket keeps the latest rounds that fit side by side. The server's fragment is
// kept, and laid out again when the screen area changes size (window, header).
//
// A big field's lists come in windows (tournament/selectors/screen.py): each rotation
// through the views shows one window of every list, and when the rotation wraps the
// next windows are asked for (?cycle=N, N counting round the windows the server names
// in .pj-cycle[data-windows]). Such a list's pages count the items shown of how many
// ("97–108 / 1111") rather than pages.
(function () {
  const body = document.body;
  const screen = document.getElementById("screen");
  const title = document.querySelector(".pj-title h1");
  const fresh = document.getElementById("freshness");
  const dots = document.getElementById("view-dots");
  const rotateMs = Math.max(3, parseInt(body.dataset.rotateSeconds, 10) || 15) * 1000;
  const FIT_STEPS = 4; // display.css: .fit-1 … .fit-4
  let etag = body.dataset.etag || "";
  let lastContact = Date.now();
  let offline = false;
  let index = 0;
  let currentKind = "";
  let currentPage = 0;
  let serverHtml = screen.innerHTML;
  let windows = 1; // rotations that show every list once (the server's .pj-cycle)
  let wantedCycle = 0; // the rotation whose windows are asked for
  let startOver = false; // the next windows were asked for: show the first view when they come

  function readCycle() {
    const marker = screen.querySelector(".pj-cycle");
    windows = Math.max(1, parseInt(marker && marker.dataset.windows, 10) || 1);
    if (wantedCycle >= windows) wantedCycle = 0; // the lists got shorter
  }

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

  function overflows(el) {
    return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
  }

  // A word (up to a space) whose letters lie on two lines, such as "Dell'Acqua-" / "Bergmann".
  function brokenWord(el) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const boxes = Array.from(range.getClientRects()).filter((box) => box.width > 0);
        const tops = new Set(boxes.map((box) => Math.round(box.top)));
        if (tops.size > 1) return true;
      }
    }
    return false;
  }

  function setFit(el, step) {
    for (let n = 1; n <= FIT_STEPS; n++) el.classList.toggle("fit-" + n, n === step);
  }

  // [data-fit] (the title, podium names): the largest size, down to 30 design pixels (3rem), at
  // which every word stays on one line (classes fit-1 … fit-4 set it smaller, step by step).
  // A name no size can keep whole ("Schwarzenbacher-Oberhollenzer") breaks after its hyphen at
  // the largest size that fits; only a single word wider than its box may break (fit-wrap).
  function fitWords(root) {
    const floor = 3 * parseFloat(getComputedStyle(document.documentElement).fontSize) - 0.5;
    root.querySelectorAll("[data-fit]").forEach((el) => {
      el.classList.remove("fit-wrap");
      const wide = () => el.scrollWidth > el.clientWidth + 1;
      let chosen = -1;
      for (let step = 0; step <= FIT_STEPS && chosen < 0; step++) {
        setFit(el, step);
        if (step > 0 && parseFloat(getComputedStyle(el).fontSize) < floor) break;
        if (!wide() && !brokenWord(el)) chosen = step;
      }
      for (let step = 0; step <= FIT_STEPS && chosen < 0; step++) {
        setFit(el, step);
        if (!wide()) chosen = step;
      }
      setFit(el, chosen < 0 ? FIT_STEPS : chosen);
      if (chosen < 0) el.classList.add("fit-wrap");
    });
  }

  // How many of `items` fit on `view` (its list holds them afterwards): at least one, so
  // that paging always ends.
  function fitting(view, list, items) {
    list.replaceChildren(...items);
    if (!overflows(view)) return items.length;
    let lo = 1; // the first `lo` items fit (taken as given for one)
    let hi = items.length; // the first `hi` items do not
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      list.replaceChildren(...items.slice(0, mid));
      if (overflows(view)) hi = mid;
      else lo = mid;
    }
    list.replaceChildren(...items.slice(0, lo));
    return lo;
  }

  // The pages of one kind, in order: their items refilled into as many pages as the screen needs.
  function pageKind(pages) {
    const first = pages[0];
    const items = pages.flatMap((page) => Array.from(page.querySelector("[data-items]").children));
    const blank = first.cloneNode(true);
    blank.classList.remove("active", "htmx-added");
    blank.querySelector("[data-items]").replaceChildren();
    pages.slice(1).forEach((page) => page.remove());
    first.querySelector("[data-items]").replaceChildren();
    first.classList.add("pj-measure");
    const hopeless = overflows(first); // too full without any item: paging cannot help
    first.classList.remove("pj-measure");
    const done = [];
    let page = first;
    let rest = items;
    for (;;) {
      page.classList.add("pj-measure");
      const count = hopeless ? rest.length : fitting(page, page.querySelector("[data-items]"), rest);
      page.classList.remove("pj-measure");
      done.push(page);
      rest = rest.slice(count);
      if (!rest.length) break;
      const next = blank.cloneNode(true);
      page.after(next);
      page = next;
    }
    // A window of a longer list (data-offset, data-total): each page counts the items it shows.
    const total = parseInt(first.dataset.total, 10);
    let shown = parseInt(first.dataset.offset, 10) || 0;
    done.forEach((page, n) => {
      const counter = page.querySelector("[data-page]");
      const count = page.querySelector("[data-items]").children.length;
      const range = count > 1 ? shown + 1 + "–" + (shown + count) : String(shown + 1);
      if (counter && total) counter.textContent = range + " / " + total;
      else if (counter) counter.textContent = done.length > 1 ? n + 1 + "/" + done.length : "";
      shown += count;
      // What follows the whole list ("+ 11 more tables") closes the last page only.
      if (n < done.length - 1) page.querySelectorAll("[data-last-page]").forEach((el) => el.remove());
    });
  }

  // The bracket: the latest rounds that fit side by side (the oldest go first); a round shown
  // alone is paged like the lists.
  function fitBracket(view) {
    const bracket = view.querySelector(".pj-bracket");
    if (!bracket) return;
    const columns = Array.from(bracket.children);
    while (columns.length > 1 && overflows(view)) {
      columns.shift().remove();
      bracket.className = bracket.className.replace(/\brounds-\d+\b/, "rounds-" + columns.length);
    }
    const list = columns.length === 1 && columns[0].querySelector(".pj-boxes, .pj-compact");
    if (list) list.setAttribute("data-items", "");
  }

  function layout() {
    readCycle();
    if (title) fitWords(title.parentElement);
    const kinds = new Map();
    for (const view of views()) {
      view.classList.add("pj-measure");
      fitWords(view);
      fitBracket(view);
      view.classList.remove("pj-measure");
      if (!view.querySelector("[data-items]")) continue;
      if (!kinds.has(view.dataset.view)) kinds.set(view.dataset.view, []);
      kinds.get(view.dataset.view).push(view);
    }
    kinds.forEach(pageKind);
  }

  function show(i) {
    const all = views();
    if (!all.length) return;
    index = ((i % all.length) + all.length) % all.length;
    all.forEach((view, n) => view.classList.toggle("active", n === index));
    currentKind = all[index].dataset.view;
    currentPage = all.slice(0, index).filter((view) => view.dataset.view === currentKind).length;
    dots.innerHTML = all.map((_, n) => '<span class="' + (n === index ? "on" : "") + '"></span>').join("");
  }

  // After new content: the same kind of view, on the same page where it still exists.
  function showSame() {
    const all = views();
    const same = all.filter((view) => view.dataset.view === currentKind);
    if (!same.length) return show(0);
    show(all.indexOf(same[Math.min(currentPage, same.length - 1)]));
  }

  function relayout() {
    screen.innerHTML = serverHtml;
    layout();
    showSame();
  }

  // Laid out again when the screen area changes size: a resized window, a header that grew
  // (the offline notice). The first observation is the size just laid out for.
  let resizing = 0;
  let laidOutFor = "";
  new ResizeObserver(() => {
    const size = screen.clientWidth + "x" + screen.clientHeight;
    if (size === laidOutFor) return;
    const first = !laidOutFor;
    laidOutFor = size;
    if (first) return;
    clearTimeout(resizing);
    resizing = setTimeout(relayout, 150);
  }).observe(screen);

  function renderFreshness() {
    const seconds = Math.round((Date.now() - lastContact) / 1000);
    if (offline) {
      const time = new Date(lastContact).toLocaleTimeString(document.documentElement.lang || undefined);
      fresh.textContent = fresh.dataset.textOffline.replace("{time}", time);
      fresh.classList.add("offline");
    } else {
      fresh.textContent = fresh.dataset.textFresh.replace("{s}", seconds);
      fresh.classList.remove("offline");
    }
  }

  // The next view; when the rotation wraps and the lists have further windows, ask for them now.
  function advance() {
    if (windows > 1 && index + 1 >= views().length) {
      wantedCycle = (wantedCycle + 1) % windows;
      startOver = true;
      htmx.trigger(screen, "pj-next");
    }
    show(index + 1);
  }

  screen.addEventListener("htmx:configRequest", (event) => {
    if (etag) event.detail.headers["If-None-Match"] = etag;
    if (wantedCycle > 0) event.detail.parameters.cycle = wantedCycle;
  });
  screen.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || xhr.status !== 200) startOver = false; // no new windows: rotate on as before
    if (xhr && (xhr.status === 200 || xhr.status === 304)) {
      // The state shown is as old as the server says (a big field's screen is kept a while,
      // tournament.renderings): "updated N s ago" counts from then, not from this answer.
      const age = parseFloat(xhr.getResponseHeader("X-State-Age") || "0");
      lastContact = Date.now() - (age > 0 ? age * 1000 : 0);
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
    serverHtml = screen.innerHTML;
    layout();
    if (startOver) show(0);
    else showSame();
    startOver = false;
  });
  // Fonts change the measure: page again once they are all there.
  if (document.fonts && document.fonts.status !== "loaded") document.fonts.ready.then(relayout);

  renderFreshness(); // first: the header's final width and height
  layout();
  show(0);
  body.dataset.paged = "true"; // for the browser tests: the lists are paged to this screen
  setInterval(advance, rotateMs);
  setInterval(renderFreshness, 1000);
})();

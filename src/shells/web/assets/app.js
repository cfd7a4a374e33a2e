// Assay's web UI: the only script its pages load (served by `assay serve` as /ui/app.js under a
// policy that allows no other). Pages work without it; with it, a run's progress follows the
// run's event stream and the runs list refreshes while a run goes on. Every fragment it inserts
// is HTML rendered (and escaped) by the server.

/** Replaces `element` with the server's current rendering of its fragment; returns the new element. */
async function refresh(element) {
  const url = element.getAttribute("data-fragment");
  if (!url) return element;
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (response.status === 401) {
    window.location.reload();
    return element;
  }
  if (!response.ok) return element;
  const template = document.createElement("template");
  template.innerHTML = await response.text();
  const next = template.content.firstElementChild;
  if (!next || next.id !== element.id) return element;
  const focused = document.activeElement && element.contains(document.activeElement);
  element.replaceWith(next);
  if (focused) next.setAttribute("tabindex", "-1");
  return next;
}

/** Follows a live panel: every event of the run refreshes it (at most every 400 ms), until the stream ends. */
function follow(panel) {
  const url = panel.getAttribute("data-events");
  if (!url || typeof EventSource === "undefined") return;
  const source = new EventSource(url);
  let current = panel;
  let timer = 0;
  let ended = false;
  const schedule = () => {
    if (timer) return;
    timer = window.setTimeout(async () => {
      timer = 0;
      current = await refresh(current);
      if (ended || !current.hasAttribute("data-events")) {
        source.close();
        document.body.setAttribute("data-run-ended", "true");
      }
    }, 400);
  };
  source.onmessage = schedule;
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) schedule();
  };
  // Named events (the run's event types) do not reach onmessage: listen to every one the stream sends.
  const types = [
    "run-started",
    "run-resumed",
    "stage-changed",
    "corpus-indexed",
    "scope-prepared",
    "search-finished",
    "search-failed",
    "source-fetched",
    "fetch-failed",
    "source-persisted",
    "generation-started",
    "generation-finished",
    "generation-failed",
    "research-state",
    "investigative-turn",
    "budget-exhausted",
    "deadline-reached",
    "run-cancelled",
    "preliminary-published",
    "final-published",
    "publication-failed",
    "strategy-failed",
    "run-finished",
  ];
  for (const type of types) source.addEventListener(type, schedule);
  source.addEventListener("end", () => {
    ended = true;
    source.close();
    schedule();
  });
}

/** Refreshes an element every `data-every` milliseconds while it asks to be. */
function poll(element) {
  const every = Number(element.getAttribute("data-every"));
  if (!(every >= 1000)) return;
  let current = element;
  const tick = async () => {
    current = await refresh(current);
    if (current.hasAttribute("data-every")) window.setTimeout(tick, every);
  };
  window.setTimeout(tick, every);
}

/** Counts elapsed time up, each second, for a run that goes on. */
function tickElapsed() {
  for (const element of document.querySelectorAll(".elapsed[data-since]")) {
    const since = Date.parse(element.getAttribute("data-since") || "");
    if (Number.isNaN(since)) continue;
    const total = Math.max(0, Math.round((Date.now() - since) / 1000));
    element.textContent = total < 60 ? `${total} s` : `${Math.floor(total / 60)} min ${total % 60} s`;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const panel of document.querySelectorAll("[data-events]")) follow(panel);
  for (const element of document.querySelectorAll("[data-every]")) poll(element);
  window.setInterval(tickElapsed, 1000);
});

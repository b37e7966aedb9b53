// Live-updating fragments: the lobby's table list and a table's seats, re-fetched every few seconds.
const POLL_MS = 2000;

function focusKey(el) {
  const a = document.activeElement;
  if (!a || !el.contains(a)) return null;
  const form = a.closest("form");
  return form ? form.getAttribute("action") + "|" + (form.querySelector("[name=seat]")?.value ?? "") : null;
}

function restoreFocus(el, key) {
  if (!key) return;
  for (const form of el.querySelectorAll("form")) {
    const k = form.getAttribute("action") + "|" + (form.querySelector("[name=seat]")?.value ?? "");
    if (k === key) {
      form.querySelector("button")?.focus();
      return;
    }
  }
}

async function poll(el) {
  try {
    const r = await fetch(el.dataset.poll, { headers: { "X-Requested-With": "fetch" }, cache: "no-store" });
    if (r.ok) {
      const html = await r.text();
      if (html !== el.dataset.last) {
        const key = focusKey(el);
        el.dataset.last = html;
        el.innerHTML = html;
        restoreFocus(el, key);
        followGame(el);
      }
    }
  } catch {
    // offline for a moment: the next poll will tell
  }
  setTimeout(() => poll(el), POLL_MS);
}

// A seated player is taken to a game that starts while they wait at the table.
function followGame(el) {
  const panel = el.querySelector("#table-panel");
  if (!panel || panel.dataset.seated !== "1") return;
  const running = panel.dataset.runningGame;
  if (running && running !== (el.dataset.startGame || "")) {
    location.assign(`/games/${running}/`);
  }
}

for (const el of document.querySelectorAll("[data-poll]")) {
  setTimeout(() => poll(el), POLL_MS);
}

// The game log (newest first, plays joined with what they caused), the screen reader's live
// region, and the error box.

import { $, el, gettext } from "../core/dom.js";
import { describe } from "../table/words.js";
import { ctx } from "./state.js";

export function logEvent(g, e, announce) {
  const { S } = g;
  const d = describe(ctx(g), e);
  if (!d.text) return;
  const log = $("log");
  if (d.join && S.lastPlayLine) {
    S.lastPlayLine.textContent += `; ${d.text}`;
  } else {
    const line = el("li", { class: d.minor ? "minor" : "", text: d.text });
    log.prepend(line);
    while (log.children.length > 200) log.lastChild.remove();
    if (d.starts) S.lastPlayLine = line;
    else if (!d.minor) S.lastPlayLine = null;
  }
  if (announce) say(d.text);
}

function say(text) {
  const a = $("announcer");
  a.append(el("p", { text }));
  while (a.children.length > 5) a.firstChild.remove();
}

export function showError(text) {
  const box = $("error");
  box.hidden = false;
  box.textContent = "";
  box.append(el("strong", { text: gettext("Not possible:") }), " ", text, " ");
  box.append(
    el("button", { type: "button", class: "button small", text: gettext("Dismiss"), onclick: () => (box.hidden = true) }),
  );
}

// The log's history up to `upto`, read once the state is shown; lines that live events added
// meanwhile stay on top. onDone() runs after it is in place.
export async function loadHistory(g, upto, onDone) {
  const { cfg, S } = g;
  const log = $("log");
  log.textContent = "";
  S.lastPlayLine = null;
  try {
    const r = await fetch(`/api/games/${cfg.game}/events/?after=0`, { cache: "no-store" });
    if (!r.ok) return;
    const d = await r.json();
    const frag = [];
    for (const item of d.events) if (item.seq <= upto) frag.push(item.event);
    const live = Array.from(log.children);
    log.textContent = "";
    S.lastPlayLine = null;
    for (const e of frag) logEvent(g, e, false);
    for (const li of live.reverse()) log.prepend(li);
    onDone();
  } catch {
    // the log is a convenience; the game state is already shown
  }
}

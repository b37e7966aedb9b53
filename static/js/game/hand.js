// This player's hand: a button per card, greyed out with the reason when it cannot be used now
// (shown on focus, press or long-press), chosen cards marked.

import { $, el, gettext } from "../core/dom.js";
import { cardImg } from "../table/tableview.js";
import { card, myTurn, whyNot } from "./state.js";

// onCard(i): the card at hand index i was pressed and may be used.
export function renderHand(g, onCard) {
  const { cfg, S } = g;
  const v = S.view;
  const hand = $("hand");
  const section = $("hand-section");
  if (cfg.seat === null || !v.hand) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const focusedIndex = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.index : undefined;
  hand.textContent = "";
  hand.dataset.count = String(v.hand.length);
  const waiting = !myTurn(g) || v.over;
  hand.classList.toggle("waiting", waiting);
  if (!v.hand.length) hand.append(el("p", { class: "hand-empty", text: gettext("No cards in your hand.") }));
  v.hand.forEach((id, i) => {
    const c = card(g, id);
    const reason = whyNot(g, i);
    const enabled = reason === null;
    const picked = S.picked.includes(i);
    const tipId = `card-why-${i}`;
    const b = el(
      "button",
      {
        type: "button",
        class: `card${picked ? " picked" : ""}${enabled ? " playable" : " off"}`,
        "data-card": id,
        "data-index": i,
        "data-reason": reason,
        "aria-disabled": enabled ? null : "true",
        "aria-pressed": S.mode ? String(picked) : null,
        "aria-label": c.name,
        "aria-describedby": tipId,
        title: reason ? `${c.name}: ${reason}` : `${c.name}: ${c.effect}`,
        onclick: () => {
          if (enabled) onCard(i);
          else if (!waiting) showTip(b, c, reason);
        },
        onfocus: () => {
          // Why not, when the person moves onto the card; not when a re-render gives it back.
          if (!enabled && !waiting && !restoring) showTip(b, c, reason);
        },
        onblur: () => hideTip(),
      },
      cardImg(id),
      el("span", { class: "card-name", text: c.name }),
      el("span", { class: "visually-hidden", id: tipId, text: reason ? reason : c.effect }),
      picked ? el("span", { class: "picked-mark", text: `✓ ${gettext("chosen")}` }) : null,
    );
    longPress(b, c);
    hand.append(b);
  });
  if (focusedIndex !== undefined) {
    const again = hand.querySelector(`[data-index="${focusedIndex}"]`);
    restoring = true;
    try {
      if (again) again.focus({ preventScroll: true });
    } finally {
      restoring = false;
    }
  }
}

let restoring = false; // the hand is giving a re-rendered card its focus back

// Long-press (touch) shows the card's name and effect, as hover does with the title.
function longPress(target, c) {
  let timer = null;
  target.addEventListener("touchstart", () => {
    timer = setTimeout(() => showTip(target, c, target.dataset.reason || null), 500);
  }, { passive: true });
  for (const ev of ["touchend", "touchmove", "touchcancel"]) target.addEventListener(ev, () => clearTimeout(timer));
  target.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    showTip(target, c, target.dataset.reason || null);
  });
}

function showTip(target, c, reason) {
  tipAt(target, c.name, reason || c.effect, Boolean(reason));
}

// The tip above `target`: a name (or none), and what it does or why it cannot be used (why).
let tipTimer = null;
export function tipAt(target, name, text, why) {
  const tip = $("card-tip");
  tip.textContent = "";
  tip.append(name ? el("strong", { text: `${name} ` }) : "", el("span", { text }));
  tip.classList.toggle("why", why);
  tip.hidden = false;
  const r = target.getBoundingClientRect();
  tip.style.top = `${window.scrollY + r.top - 8}px`;
  tip.style.left = `${Math.max(8, Math.min(window.innerWidth - 248, r.left))}px`;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(hideTip, 3500);
}

export function hideTip() {
  $("card-tip").hidden = true;
}

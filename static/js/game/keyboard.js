// The game page by keyboard: a new decision takes the focus (game/keys.js says where), arrow
// keys move along the hand and along the buttons below it (the targets first), Escape drops a
// chosen Hare Cumi, and "?" opens the list of keys. The focused target's seat lights up.

import { $ } from "../core/dom.js";
import { firstControl, mayTakeFocus, otherRow, stepIndex, typing } from "./keys.js";

const rowOf = { cards: () => Array.from($("hand").querySelectorAll("button.card")), buttons: () => Array.from($("prompt-buttons").querySelectorAll("button")) };

function usable(b) {
  return !b.disabled && b.getAttribute("aria-disabled") !== "true";
}

function focusControl(node) {
  if (!node) return;
  node.focus({ preventScroll: true });
  node.scrollIntoView({ block: "nearest", inline: "nearest" });
}

// Put the focus on the decision now asked of this player (if the person is not typing words).
export function focusDecision(g) {
  if (!mayTakeFocus(document.activeElement)) return false;
  const cards = rowOf.cards();
  const buttons = rowOf.buttons();
  const at = firstControl({
    mode: g.S.mode,
    cards: cards.map(usable),
    buttons: buttons.map((b) => ({ action: b.dataset.action, disabled: !usable(b) })),
  });
  if (!at) return false;
  focusControl((at.row === "cards" ? cards : buttons)[at.index]);
  bringIntoView();
  return true;
}

// The page may have been scrolled away (to the chat, on a phone): bring the decision back, its
// turn line and title on the screen, with as much of the table above them as fits.
function bringIntoView() {
  const first = $("turn-info");
  const last = $("prompt").hidden ? first : $("prompt-title");
  const seen = () => first.getBoundingClientRect().top >= 0 && last.getBoundingClientRect().bottom <= window.innerHeight;
  if (seen()) return;
  $("dock").scrollIntoView({ block: "end" });
  if (!seen()) first.scrollIntoView({ block: "start" });
}

// The seat of the focused (or hovered) target button lights up on the table.
export function syncAimFocus() {
  const active = document.activeElement;
  const seat = active && active.closest && active.closest("#prompt-buttons") ? active.dataset.seat : undefined;
  for (const tile of document.querySelectorAll("#players .seat")) {
    tile.classList.toggle("aim-focus", seat !== undefined && tile.dataset.seat === seat);
  }
}

function toggleKeys(open) {
  const button = $("keys-help");
  const panel = $("keys-panel");
  if (!button || !panel) return;
  const show = open === undefined ? panel.hidden : open;
  panel.hidden = !show;
  button.setAttribute("aria-expanded", String(show));
}

export function bindKeys(g) {
  const help = $("keys-help");
  if (help) help.addEventListener("click", () => toggleKeys());
  const close = $("keys-close");
  if (close) {
    close.addEventListener("click", () => {
      toggleKeys(false);
      help.focus();
    });
  }
  $("prompt-buttons").addEventListener("focusin", syncAimFocus);
  $("prompt-buttons").addEventListener("focusout", () => setTimeout(syncAimFocus));
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    if (e.key === "Escape") {
      const panel = $("keys-panel");
      if (panel && !panel.hidden) {
        toggleKeys(false);
        e.preventDefault();
      } else if (g.S.mode === "cumi") {
        const picked = g.S.picked[0];
        g.cancelAim();
        focusControl($("hand").querySelector(`button.card[data-index="${picked}"]`));
        e.preventDefault();
      }
      return;
    }
    if (e.key === "?") {
      toggleKeys();
      e.preventDefault();
      return;
    }
    const row = e.target.closest && (e.target.closest("#hand") ? "cards" : e.target.closest("#prompt-buttons") ? "buttons" : null);
    if (!row) return;
    const rows = { cards: rowOf.cards(), buttons: rowOf.buttons() };
    const to = otherRow(row, e.key, { cards: rows.cards.length > 0, buttons: rows.buttons.length > 0 });
    if (to) {
      // Down to the buttons: the first target of a chosen Hare Cumi, else the first that works.
      const first = (list, best) => list.find(best) || list.find(usable) || list[0];
      const isTarget = (b) => usable(b) && String(b.dataset.action || "").startsWith("target-");
      focusControl(to === "buttons" ? first(rows.buttons, isTarget) : first(rows.cards, usable));
      e.preventDefault();
      return;
    }
    const list = rows[row];
    const next = stepIndex(list.length, list.indexOf(e.target.closest("button")), e.key);
    if (next === null) return;
    focusControl(list[next]);
    e.preventDefault();
  });
}

// Playing by keyboard, with no page: where an arrow key goes, which control a decision starts on,
// and whether a key press belongs to a text field. The controls of a decision come in its order:
// the cards of the hand (a row), then the buttons below it (the targets of a chosen Hare Cumi,
// then the other answers). ←/→ move along a row, ↑/↓ between the two rows.

const ALONG = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
const ACROSS = { ArrowUp: "cards", ArrowDown: "buttons" };

// The index `key` moves to in a row of `count` controls from `index` (wrapping round), or null
// when the key does not move along a row.
export function stepIndex(count, index, key) {
  const move = ALONG[key];
  if (move === undefined || count <= 0) return null;
  if (move === "first") return 0;
  if (move === "last") return count - 1;
  const from = index >= 0 && index < count ? index : move > 0 ? -1 : count;
  return (from + move + count) % count;
}

// The row ↑ or ↓ goes to from `row` ("cards" or "buttons"), or null: the same row, no such key,
// or the other row has nothing to focus.
export function otherRow(row, key, rows) {
  const to = ACROSS[key];
  if (!to || to === row || !rows[to]) return null;
  return to;
}

// The control a decision starts on. d: {mode, cards: [enabled], buttons: [{action, disabled}]}.
// Aiming Hare Cumi: the first target. Otherwise the first card that can be used, else the first
// button (take it, lose my turn, pass, ...). Returns {row, index} or null.
export function firstControl(d) {
  const buttons = d.buttons || [];
  const cards = d.cards || [];
  if (d.mode === "cumi") {
    const t = buttons.findIndex((b) => !b.disabled && String(b.action || "").startsWith("target-"));
    if (t >= 0) return { row: "buttons", index: t };
  }
  const c = cards.findIndex(Boolean);
  if (c >= 0) return { row: "cards", index: c };
  const b = buttons.findIndex((x) => !x.disabled);
  return b >= 0 ? { row: "buttons", index: b } : null;
}

// Whether keys typed in `node` are words (a text field) rather than moves.
export function typing(node) {
  if (!node || !node.tagName) return false;
  if (node.isContentEditable || node.tagName === "TEXTAREA" || node.tagName === "SELECT") return true;
  if (node.tagName !== "INPUT") return false;
  return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes((node.type || "text").toLowerCase());
}

// Whether a new decision should take the focus from `node`: not from a text field that holds
// words not yet sent.
export function mayTakeFocus(node) {
  return !(typing(node) && String(node.value || node.textContent || "").trim() !== "");
}

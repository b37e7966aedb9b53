// Playing by keyboard: where arrow keys go, the control a decision starts on, and text fields.
import assert from "node:assert/strict";
import { test } from "node:test";

import { firstControl, mayTakeFocus, otherRow, stepIndex, typing } from "../../static/js/game/keys.js";

test("←/→ move along a row and wrap round; Home and End go to its ends", () => {
  assert.equal(stepIndex(5, 0, "ArrowRight"), 1);
  assert.equal(stepIndex(5, 4, "ArrowRight"), 0);
  assert.equal(stepIndex(5, 0, "ArrowLeft"), 4);
  assert.equal(stepIndex(5, 3, "ArrowLeft"), 2);
  assert.equal(stepIndex(5, 3, "Home"), 0);
  assert.equal(stepIndex(5, 1, "End"), 4);
  // From outside the row: → goes to the first, ← to the last.
  assert.equal(stepIndex(3, -1, "ArrowRight"), 0);
  assert.equal(stepIndex(3, -1, "ArrowLeft"), 2);
  assert.equal(stepIndex(3, 1, "ArrowUp"), null); // ↑/↓ go between rows, not along one
  assert.equal(stepIndex(3, 1, "Enter"), null);
  assert.equal(stepIndex(0, 0, "ArrowRight"), null);
});

test("↓ goes from the hand to the buttons below it and ↑ back, when there is something there", () => {
  const both = { cards: true, buttons: true };
  assert.equal(otherRow("cards", "ArrowDown", both), "buttons");
  assert.equal(otherRow("buttons", "ArrowUp", both), "cards");
  assert.equal(otherRow("cards", "ArrowUp", both), null);
  assert.equal(otherRow("buttons", "ArrowDown", both), null);
  assert.equal(otherRow("cards", "ArrowDown", { cards: true, buttons: false }), null);
  assert.equal(otherRow("cards", "ArrowRight", both), null);
});

test("a decision starts on its first usable card, else its first button; aiming, on the first target", () => {
  const buttons = [
    { action: "target-2", disabled: false },
    { action: "target-3", disabled: false },
    { action: "cancel", disabled: false },
  ];
  // A turn: the first card that can be played (an off card first in the hand is passed over).
  assert.deepEqual(firstControl({ mode: null, cards: [false, true, true], buttons: [] }), { row: "cards", index: 1 });
  // A volley with no Hare Taptap in hand: "take it".
  assert.deepEqual(firstControl({ mode: null, cards: [false, false], buttons: [{ action: "decline", disabled: false }] }), { row: "buttons", index: 0 });
  // Hare Cumi chosen: the targets come next in the decision's order.
  assert.deepEqual(firstControl({ mode: "cumi", cards: [true, true], buttons }), { row: "buttons", index: 0 });
  assert.deepEqual(firstControl({ mode: "cumi", cards: [true], buttons: [{ action: "target-1", disabled: true }, ...buttons.slice(1)] }), { row: "buttons", index: 1 });
  // A discard: the cards, then the (disabled until enough are chosen) confirm button.
  assert.deepEqual(firstControl({ mode: "discard", cards: [true, true], buttons: [{ action: "discard", disabled: true }] }), { row: "cards", index: 0 });
  // A move on its way: nothing to focus.
  assert.equal(firstControl({ mode: null, cards: [false], buttons: [{ action: "decline", disabled: true }] }), null);
});

test("keys typed in a text field are words, and a message being written keeps its focus", () => {
  const input = (type, value = "") => ({ tagName: "INPUT", type, value });
  assert.equal(typing(input("text")), true);
  assert.equal(typing(input("search")), true);
  assert.equal(typing(input("checkbox")), false);
  assert.equal(typing({ tagName: "TEXTAREA", value: "" }), true);
  assert.equal(typing({ tagName: "SELECT" }), true);
  assert.equal(typing({ tagName: "BUTTON" }), false);
  assert.equal(typing({ tagName: "DIV", isContentEditable: true }), true);
  assert.equal(typing(null), false);
  assert.equal(mayTakeFocus(input("text", "gg, well played")), false);
  assert.equal(mayTakeFocus(input("text", "  ")), true); // sent: the input is empty again
  assert.equal(mayTakeFocus({ tagName: "BUTTON" }), true);
  assert.equal(mayTakeFocus({ tagName: "BODY" }), true);
});

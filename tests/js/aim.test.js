// Aiming Hare Cumi on the table: the targets come from the legal commands alone, every other seat
// says why it is not one, and a volley waiting for its answer is shown to every viewer.
import assert from "node:assert/strict";
import { test } from "node:test";

import { aimBadge, aimCommand, aimTargets, aimWords, pendingVolley, seatAims, volleyBadge, volleyWords } from "../../static/js/table/aim.js";
import { edgePoint } from "../../static/js/table/volleyline.js";

const players = [
  { seat: 0, protected: false, eliminated: false },
  { seat: 1, protected: true, eliminated: false },
  { seat: 2, protected: false, eliminated: false },
  { seat: 3, protected: false, eliminated: true },
  { seat: 4, protected: false, eliminated: false },
];
// Seat 0 holds two Hare Cumi and a House; seats 2 and 4 may be aimed at (the server's legal list).
const legal = [
  { play: ["house"] },
  { play: ["cumi"], target: 2 },
  { play: ["cumi", "cumi"], target: 2 },
  { play: ["cumi"], target: 4 },
  { play: ["cumi", "cumi"], target: 4 },
];

test("the targets of k Hare Cumi are the seats the legal commands aim k at", () => {
  assert.deepEqual(aimTargets(legal, 1), [2, 4]);
  assert.deepEqual(aimTargets(legal, 2), [2, 4]);
  assert.deepEqual(aimTargets(legal, 3), []);
  assert.deepEqual(aimTargets([{ play: ["house"] }, { burn: "cumi" }], 1), []);
  assert.deepEqual(aimTargets(undefined, 1), []);
});

test("only a volley the legal commands hold is ever made", () => {
  assert.deepEqual(aimCommand(legal, 2, 4), { play: ["cumi", "cumi"], target: 4 });
  assert.equal(aimCommand(legal, 1, 1), null); // protected
  assert.equal(aimCommand(legal, 1, 3), null); // out
  assert.equal(aimCommand(legal, 1, 0), null); // oneself
  assert.equal(aimCommand(legal, 3, 2), null); // more Hare Cumi than held
});

test("every other seat is a target or says why not", () => {
  assert.deepEqual(seatAims(players, 0, legal, 1), [
    { seat: 1, ok: false, why: "protected" },
    { seat: 2, ok: true, why: null },
    { seat: 3, ok: false, why: "out" },
    { seat: 4, ok: true, why: null },
  ]);
  // A seat the rules refuse for another reason (here: no legal volley at all) is closed.
  assert.deepEqual(seatAims(players, 0, [], 1)[1], { seat: 2, ok: false, why: "closed" });
  assert.equal(aimBadge(null), "Aim here");
  assert.equal(aimBadge("protected"), "Protected");
  assert.equal(aimBadge("out"), "Out");
  assert.equal(aimBadge("closed"), "Not a target");
  assert.equal(aimWords("protected", "bob"), "bob is protected from moral damage until their next turn: not a target.");
  assert.equal(aimWords(null, "bob"), "Aim your Hare Cumi at bob");
  assert.equal(aimWords("out", "bob"), "bob is out of the game: not a target.");
});

test("a volley shows while its target is asked, and not after", () => {
  const view = { over: false, awaiting: { seat: 2, kind: "volley" }, volley: { attacker: 0, target: 2, count: 2 } };
  assert.deepEqual(pendingVolley(view), { attacker: 0, target: 2, count: 2 });
  assert.equal(pendingVolley({ ...view, awaiting: { seat: 2, kind: "discard" } }), null);
  assert.equal(pendingVolley({ ...view, over: true }), null);
  assert.equal(pendingVolley({ ...view, volley: null }), null);
  assert.equal(pendingVolley(null), null);
  assert.equal(volleyBadge(1), "Aimed at");
  assert.equal(volleyBadge(3), "Aimed at × 3");
  assert.equal(volleyWords("ann", "bob", 1), "ann aims Hare Cumi at bob");
  assert.equal(volleyWords("ann", "bob", 2), "ann aims 2 × Hare Cumi at bob");
});

test("the volley's arrow leaves a seat at its edge, toward the other seat", () => {
  const seat = { x: 0, y: 0, width: 100, height: 50 }; // centre (50, 25)
  assert.deepEqual(edgePoint(seat, { x: 50, y: 225 }, 0), { x: 50, y: 50 }); // straight down
  assert.deepEqual(edgePoint(seat, { x: 350, y: 25 }, 0), { x: 100, y: 25 }); // straight right
  const p = edgePoint(seat, { x: 250, y: 225 }, 0); // down and right: leaves by the bottom edge
  assert.equal(p.y, 50);
  assert.ok(p.x > 50 && p.x < 100);
  const gap = edgePoint(seat, { x: 50, y: 225 }, 4);
  assert.equal(gap.y, 54);
  assert.deepEqual(edgePoint(seat, { x: 50, y: 25 }), { x: 50, y: 25 });
});

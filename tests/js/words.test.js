// The describer's sentences (static/js/table/words.js): what the game log, the watch page and the
// replay viewer say for an event, for the reader and about others.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describe, errorWords, seatName } from "../../static/js/table/words.js";

const ctx = {
  mySeat: 0,
  seats: [
    { seat: 0, name: "ann" },
    { seat: 1, name: "bob" },
  ],
  cards: [
    { id: "cumi", name: "Hare Cumi" },
    { id: "taptap", name: "Hare Taptap" },
    { id: "strom", name: "Strom" },
  ],
  handLimit: 5,
};

test("a play at a target says who played how many at whom, and starts a line", () => {
  assert.deepEqual(describe(ctx, { type: "CardsPlayed", seat: 1, cards: ["cumi", "cumi"], target: 0 }), {
    text: "bob played 2 × Hare Cumi at you",
    starts: true,
  });
  assert.equal(describe(ctx, { type: "CardsPlayed", seat: 0, cards: ["cumi"], target: 1 }).text, "You played Hare Cumi at bob");
});

test("a sentence of its own starts with You; a joined clause with you; names are kept as typed", () => {
  assert.equal(describe(ctx, { type: "PlayerSkipped", seat: 0 }).text, "you are skipped");
  assert.equal(describe({ ...ctx, standalone: true }, { type: "PlayerSkipped", seat: 0 }).text, "You are skipped");
  assert.equal(describe(ctx, { type: "PlayerEliminated", seat: 0 }).text, "You are out of the game!");
  assert.equal(describe(ctx, { type: "PlayerEliminated", seat: 1 }).text, "bob is out of the game!");
  assert.equal(describe(ctx, { type: "TurnStarted", seat: 1 }).text, "bob's turn.");
});

test("counts choose singular or plural, and damage names the hand limit left", () => {
  assert.equal(describe(ctx, { type: "CardsDrawn", seat: 1, count: 1 }).text, "bob drew 1 card");
  assert.equal(describe(ctx, { type: "CardsDrawn", seat: 1, count: 3 }).text, "bob drew 3 cards");
  assert.equal(describe(ctx, { type: "CardsDrawn", seat: 0, cards: ["cumi", "cumi", "strom"] }).text, "You drew 2 × Hare Cumi, Strom");
  assert.deepEqual(describe(ctx, { type: "DamageTaken", seat: 1, amount: 2, damage: 2 }), {
    text: "bob took 2 moral damage (hand limit 3)",
    join: true,
  });
});

test("a pending volley is said only where a step stands alone (replays)", () => {
  const e = { type: "VolleyPending", target: 0, attacker: 1, count: 2 };
  assert.equal(describe(ctx, e).text, null);
  assert.equal(describe({ ...ctx, standalone: true }, e).text, "you must answer 2 × Hare Cumi from bob");
});

test("the end, a draw, an unknown seat and an unknown event", () => {
  assert.equal(describe(ctx, { type: "GameEnded", winner: 1 }).text, "bob won the game!");
  assert.equal(describe(ctx, { type: "GameEnded", winner: null }).text, "The game ended in a draw at the turn limit.");
  assert.equal(seatName(ctx, 3), "Seat 4");
  assert.equal(describe(ctx, { type: "NoSuchEvent" }).text, null);
});

test("errors are worded by their code; an unknown code keeps the server's detail", () => {
  assert.equal(errorWords("stale", "moved on to seq 9"), "The game moved on before your move arrived. Try again.");
  assert.equal(errorWords("weird", "because"), "That did not work. (because)");
});

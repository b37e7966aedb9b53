// The describer's sentences (static/js/table/words.js): what the game log, the watch page and the
// replay viewer say for an event, for the reader and about others.
import assert from "node:assert/strict";
import { test } from "node:test";

import { EventType } from "../../static/js/table/events.js";
import { SENTENCES } from "../../static/js/table/sentences.js";
import { describe, errorWords, labelName, seatName, VALUES } from "../../static/js/table/words.js";

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

test("a pending volley is said only where a step stands alone (replays), by whoever reads it", () => {
  const e = { type: "VolleyPending", target: 0, attacker: 1, count: 2 };
  assert.equal(describe(ctx, e).text, null);
  const alone = { ...ctx, standalone: true };
  assert.equal(describe(alone, e).text, "You must answer 2 × Hare Cumi from bob");
  assert.equal(describe(alone, { ...e, target: 1, attacker: 0, count: 1 }).text, "bob must answer Hare Cumi from you");
  assert.equal(describe({ ...alone, mySeat: null }, e).text, "ann must answer 2 × Hare Cumi from bob");
});

test("the end, a draw, an unknown seat and an unknown event", () => {
  assert.equal(describe(ctx, { type: "GameEnded", winner: 1 }).text, "bob won the game!");
  assert.equal(describe(ctx, { type: "GameEnded", winner: null }).text, "The game ended in a draw at the turn limit.");
  assert.equal(seatName(ctx, 3), "Seat 4");
  assert.equal(describe(ctx, { type: "NoSuchEvent" }).text, null);
});

test("errors are worded by their code; an unknown code gets the general words, not the detail", () => {
  assert.equal(errorWords("stale", "moved on to seq 9"), "The game moved on before your move arrived. Try again.");
  assert.equal(errorWords("weird", "because"), "That did not work."); // never the server's English detail
});

// The game log's line for a run of events, joined as static/js/game/log.js joins them.
function logLine(events) {
  let line = "";
  for (const e of events) {
    const d = describe(ctx, e);
    if (!d.text) continue;
    line = d.join && line ? `${line}; ${d.text}` : d.text;
  }
  return line;
}

test("a skip is said once in the log: who is skipped, or who forwarded it", () => {
  const cards = [...ctx.cards, { id: "house", name: "House" }];
  const strom = { type: "CardsPlayed", seat: 1, cards: ["strom"], target: null };
  const taken = [strom, { type: "SkipPending", seat: 0, by: 1 }, { type: "ReactionDeclined", seat: 0, kind: "skip" }, { type: "PlayerSkipped", seat: 0 }];
  assert.equal(logLine(taken), "bob played Strom; you are skipped");
  const forwarded = [
    { type: "CardsPlayed", seat: 0, cards: ["strom"], target: null },
    { type: "SkipPending", seat: 1, by: 0 },
    { type: "ReactionPlayed", seat: 1, card: "strom", kind: "skip" },
    { type: "SkipPending", seat: 0, by: 1 },
    { type: "ReactionDeclined", seat: 0, kind: "skip" },
    { type: "PlayerSkipped", seat: 0 },
  ];
  assert.equal(logLine(forwarded), "You played Strom; bob forwarded the skip with Strom; you are skipped");
  assert.equal(describe({ ...ctx, cards }, { type: "SkipPending", seat: 0, by: 1 }).text, null);
  // A replay's steps stand alone: each says its own part, none twice.
  const alone = { ...ctx, standalone: true };
  assert.equal(describe(alone, { type: "SkipPending", seat: 1, by: 0 }).text, "bob may forward the skip with Strom");
  assert.equal(describe(alone, { type: "ReactionDeclined", seat: 1, kind: "skip" }).text, "bob did not forward the skip");
  assert.equal(describe(alone, { type: "ReactionDeclined", seat: 0, kind: "skip" }).text, "You did not forward the skip");
});

test("Hare Zada at no damage heals nothing, and the log says what is true", () => {
  assert.equal(describe(ctx, { type: "DamageHealed", seat: 1, damage: 0 }).text, "bob has no moral damage");
  assert.equal(describe(ctx, { type: "DamageHealed", seat: 0, damage: 0 }).text, "you have no moral damage");
  assert.equal(describe(ctx, { type: "DamageHealed", seat: 1, damage: 2 }).text, "bob healed to 2 damage");
});

test("a bot's name is made in the page's language; a person's is kept", () => {
  const czech = { "Bot %(n)s · %(level)s": "Bot %(n)s · %(level)s", easy: "snadný", hard: "těžký" };
  globalThis.gettext = (s) => czech[s] ?? s;
  try {
    assert.equal(labelName({ seat: 2, name: "Bot 3 · easy", is_bot: true, bot_level: "easy" }), "Bot 3 · snadný");
    assert.equal(labelName({ seat: 0, name: "ann", is_bot: false, bot_level: "hard" }), "ann");
    const seats = [{ seat: 1, name: "Bot 2 · hard", is_bot: true, bot_level: "hard" }];
    assert.equal(describe({ ...ctx, seats }, { type: "TurnStarted", seat: 1 }).text, "Bot 2 · těžký's turn.");
  } finally {
    delete globalThis.gettext;
  }
});

test("the describer reads every case of the table, and knows every kind of value it names", () => {
  assert.deepEqual(Object.keys(SENTENCES).sort(), Object.values(EventType).sort());
  for (const [type, cases] of Object.entries(SENTENCES)) {
    assert.ok(cases.length >= 1 && !cases.at(-1).when, `${type}: the last case must take any event`);
    for (const say of cases) {
      for (const [kind] of Object.values(say.values || {})) assert.ok(kind in VALUES, `${type}: ${kind}`);
      if (say.name) assert.ok(say.you, `${type}: no sentence for the reader as %(name)s`);
      if (say.target) assert.ok(say.to_you, `${type}: no sentence for the reader as %(target)s`);
    }
  }
});

test("the case is the first whose fields the event has, a missing field being null", () => {
  assert.equal(describe(ctx, { type: "CardsPlayed", seat: 1, cards: ["strom"] }).text, "bob played Strom");
  assert.equal(describe(ctx, { type: "CardsPlayed", seat: 1, cards: ["strom"], target: null }).text, "bob played Strom");
  assert.equal(describe(ctx, { type: "CardBurned", seat: 1, card: null }).text, "bob could not play");
  assert.equal(describe(ctx, { type: "CardBurned", seat: 0, card: "mini" }).text, "You could not play and burned mini");
  assert.equal(describe(ctx, { type: "DirectionChanged", direction: "ccw" }).text, "play now goes counterclockwise");
  assert.equal(describe({ ...ctx, standalone: true }, { type: "DirectionChanged", direction: "cw" }).text, "Play now goes clockwise");
  assert.equal(describe(ctx, { type: "SeatTakenByBot", seat: 1, reason: "left" }).text, "bob left; a bot plays the seat");
  assert.equal(describe(ctx, { type: "SeatTakenByBot", seat: 0, reason: "away" }).text, "You are away; a bot plays your seat");
  // A suspension or ban: its person reads why, the others that the person left.
  assert.equal(
    describe(ctx, { type: "SeatTakenByBot", seat: 0, reason: "banned" }).text,
    "Your account was suspended or banned; a bot plays your seat",
  );
  assert.equal(describe(ctx, { type: "SeatTakenByBot", seat: 1, reason: "banned" }).text, "bob left; a bot plays the seat");
});

test("a play at the reader says you as its object; a seat with no name is numbered", () => {
  assert.deepEqual(describe(ctx, { type: "CardsPlayed", seat: 1, cards: ["cumi"], target: 0 }), {
    text: "bob played Hare Cumi at you",
    starts: true,
  });
  assert.equal(describe(ctx, { type: "CardsPlayed", seat: 4, cards: ["cumi"], target: 1 }).text, "Seat 5 played Hare Cumi at bob");
  assert.equal(describe({ ...ctx, mySeat: null }, { type: "TurnStarted", seat: 0 }).text, "ann's turn.");
  assert.equal(describe(ctx, { type: "DamageTaken", seat: 0, amount: 1, damage: 6 }).text, "you took 1 moral damage (hand limit 0)");
});

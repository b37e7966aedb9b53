// The game page's pure logic: why a card cannot be used now, how long a decision lasts, placings.
import assert from "node:assert/strict";
import { test } from "node:test";

import { placings, ratingWords } from "../../static/js/game/end.js";
import { BOT_NEWS_MS, DEADLINE_NEWS_MS, deadlineTotal, newState, newsDue, whyNot } from "../../static/js/game/state.js";

const cfg = { seat: 0, seats: [{ seat: 0, name: "ann" }, { seat: 1, name: "bob" }], cards: [], timers: { turn: 30, volley: 10 }, auto_answer_seconds: 4 };

function game({ hand, awaiting, legal = [], ...rest }) {
  const S = newState(cfg);
  S.view = { hand, awaiting, over: false, players: [] };
  S.legal = legal;
  Object.assign(S, rest);
  return { cfg, S };
}

test("on my turn a legal card may be played and the others say why not", () => {
  const g = game({
    hand: ["cumi", "taptap", "mini", "strom"],
    awaiting: { seat: 0, kind: "turn" },
    legal: [{ play: ["strom"] }],
  });
  assert.equal(whyNot(g, 3), null);
  assert.equal(whyNot(g, 1), "Hare Taptap only answers a Hare Cumi aimed at you.");
  assert.equal(whyNot(g, 2), "Hare Mini is disabled.");
  assert.equal(whyNot(g, 0), "Every other player is protected.");
});

test("a volley is answered by Hare Taptap alone, a skip by Strom alone", () => {
  const volley = game({ hand: ["taptap", "cumi"], awaiting: { seat: 0, kind: "volley" }, legal: [{ react: "taptap" }, { react: "none" }] });
  assert.equal(whyNot(volley, 0), null);
  assert.equal(whyNot(volley, 1), "Only Hare Taptap answers a Hare Cumi; or take it.");
  const skip = game({ hand: ["strom"], awaiting: { seat: 0, kind: "skip" }, legal: [{ react: "none" }] });
  assert.equal(whyNot(skip, 0), "Only a Strom forwards the skip; or lose your turn.");
});

test("not my turn, a move on its way, a bot at my seat, the game over, aiming Hare Cumi, burning", () => {
  assert.equal(whyNot(game({ hand: ["cumi"], awaiting: { seat: 1, kind: "turn" } }), 0), "Wait for your turn.");
  assert.equal(whyNot(game({ hand: ["cumi"], awaiting: { seat: 0, kind: "turn" }, pending: true }), 0), "Your move is on its way.");
  assert.equal(
    whyNot(game({ hand: ["cumi"], awaiting: { seat: 0, kind: "turn" }, presence: { 0: { bot_playing: true } } }), 0),
    "A bot is playing your seat: take it back first.",
  );
  const over = game({ hand: ["cumi"], awaiting: null });
  over.S.view.over = true;
  assert.equal(whyNot(over, 0), "The game is over.");
  const aiming = game({ hand: ["cumi", "strom"], awaiting: { seat: 0, kind: "turn" }, legal: [{ play: ["strom"] }, { play: ["cumi"], target: 1 }], mode: "cumi" });
  assert.equal(whyNot(aiming, 1), "Choose more Hare Cumi, or a player to aim at.");
  assert.equal(whyNot(aiming, 0), null);
  const burn = game({ hand: ["cumi", "strom"], awaiting: { seat: 0, kind: "turn" }, legal: [{ burn: "strom" }] });
  assert.equal(whyNot(burn, 1), null);
  assert.equal(whyNot(burn, 0), "That card cannot be played now.");
  assert.equal(whyNot(game({ hand: ["cumi"], awaiting: { seat: 0, kind: "discard" } }), 0), null);
});

test("a decision's length: the table's timer, the short one for my reactions with answer-for-me on", () => {
  const g = game({ hand: [], awaiting: null });
  assert.equal(deadlineTotal(g, "turn", 0), 30000);
  assert.equal(deadlineTotal(g, "volley", 0), 10000);
  assert.equal(deadlineTotal(g, "discard", 0), 30000); // no timer of its own: 30 s
  g.S.autoAnswer = true;
  assert.equal(deadlineTotal(g, "volley", 0), 4000);
  assert.equal(deadlineTotal(g, "volley", 1), 10000);
});

test("a standing answer makes the short window for its own kind of reaction only", () => {
  const g = game({ hand: [], awaiting: null });
  assert.deepEqual(g.S.standing, { volley: "ask", skip: "ask" }); // none in the page's config
  g.S.standing = { volley: "taptap", skip: "ask" };
  assert.equal(deadlineTotal(g, "volley", 0), 4000);
  assert.equal(deadlineTotal(g, "skip", 0), 30000); // no skip timer here: 30 s
  assert.equal(deadlineTotal(g, "volley", 1), 10000); // another seat's window: the table's
  g.S.standing = { volley: "ask", skip: "never" };
  assert.equal(deadlineTotal(g, "volley", 0), 10000);
  assert.equal(deadlineTotal(g, "skip", 0), 4000);
});

test("placings are the server's places, grouped: shared places together, first place first", () => {
  // Seat 2 won; seats 0 and 3 went out by one move and share second; seat 1, whose person left
  // and whose bot outlasted the others, is last (the server's rule, docs/RULES.md).
  assert.deepEqual(placings([2, 4, 1, 2]), [
    { place: 1, seats: [2] },
    { place: 2, seats: [0, 3] },
    { place: 4, seats: [1] },
  ]);
  // A turn-limit draw: the players left share first.
  assert.deepEqual(placings([1, 3, 1]), [
    { place: 1, seats: [0, 2] },
    { place: 3, seats: [1] },
  ]);
  // Before the game has finished, and for an aborted game, there are none.
  assert.deepEqual(placings(null), []);
});

test("news is due after a bot's delay and search, or after a deadline ran out; never from a finished game", () => {
  const now = 1_000_000;
  const waiting = game({ hand: [], awaiting: { seat: 1, kind: "turn" } });
  assert.equal(newsDue(waiting, now), null); // a person thinking with no deadline: nothing is due

  waiting.S.presence[1] = { bot_playing: true };
  assert.equal(newsDue(waiting, now), now + BOT_NEWS_MS);

  waiting.S.deadline = now + 500; // a bot with a deadline sooner than its bound
  assert.equal(newsDue(waiting, now), now + Math.min(BOT_NEWS_MS, 500 + DEADLINE_NEWS_MS));

  const mineRunningOut = game({ hand: [], awaiting: { seat: 0, kind: "turn" }, deadline: now + 20_000 });
  assert.equal(newsDue(mineRunningOut, now), now + 20_000 + DEADLINE_NEWS_MS);

  mineRunningOut.S.view.over = true;
  assert.equal(newsDue(mineRunningOut, now), null);
});

test("a rating change reads before → after with its signed difference", () => {
  assert.equal(ratingWords({ before: 1000, after: 1012 }), "1000 → 1012 (+12)");
  assert.equal(ratingWords({ before: 1000, after: 990 }), "1000 → 990 (−10)");
  assert.equal(ratingWords({ before: 1005, after: 1005 }), "1005 → 1005 (±0)");
});

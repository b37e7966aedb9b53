// Challenges said live (static/js/core/challenge.js): the banner's sentence from the page's words,
// and which socket messages are its own.
import assert from "node:assert/strict";
import { test } from "node:test";

import { challengeIncoming, offerText } from "../../static/js/core/challenge.js";

const words = { offer: "%(name)s challenges you to a table of %(seats)s.", rematch: "%(name)s offers a rematch at your table." };

test("an offer names the challenger and the table's seats", () => {
  assert.equal(offerText(words, { from: "alena", seats: 3 }), "alena challenges you to a table of 3.");
});

test("a rematch says so", () => {
  assert.equal(offerText(words, { from: "alena", seats: 3, rematch: true }), "alena offers a rematch at your table.");
});

test("the challenge and friend messages are taken, the others passed on", () => {
  for (const type of ["challenge", "challenge_changed", "challenge_started", "friend_online", "friend_gone"]) {
    assert.equal(challengeIncoming({ type }), true, type);
  }
  for (const type of ["notification", "state", "chat_message", "lobby"]) assert.equal(challengeIncoming({ type }), false, type);
  assert.equal(challengeIncoming(null), false);
});

// The live game socket's bookkeeping (static/js/core/gamesocket.js), without a network: what it
// sends is recorded.
import assert from "node:assert/strict";
import { mock, test } from "node:test";

import { LiveGame } from "../../static/js/core/gamesocket.js";

function live() {
  const game = new LiveGame(7, {
    onState() {},
    onEvent() {},
    onView() {},
  });
  game.sent = [];
  game.send = (m) => {
    game.sent.push(m);
    return true;
  };
  return game;
}

test("when news is due and no event came, the page asks for what it missed, once", () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
  try {
    const game = live();
    game.handle({ type: "state", seq: 12 });
    game.expectNews(5000);
    mock.timers.tick(4999);
    assert.deepEqual(game.sent, []);
    mock.timers.tick(1);
    assert.deepEqual(game.sent, [{ type: "resume", after: 12 }]);
    game.expectNews(6000); // already asking: no second resume while the first is unanswered
    mock.timers.tick(2000);
    assert.equal(game.sent.length, 1);
  } finally {
    mock.timers.reset();
  }
});

test("an event that comes in time calls the watch off", () => {
  mock.timers.enable({ apis: ["setTimeout", "Date"], now: 0 });
  try {
    const game = live();
    game.handle({ type: "state", seq: 3 });
    game.expectNews(5000);
    mock.timers.tick(1000);
    game.handle({ type: "event", seq: 4, event: { type: "TurnStarted", seat: 1 } });
    mock.timers.tick(10_000);
    assert.deepEqual(game.sent, []);
    assert.equal(game.lastSeq, 4);
  } finally {
    mock.timers.reset();
  }
});

// The event page's pure decisions: the entry panel's sentence, and when a player's own entry takes
// the page to a game.
import assert from "node:assert/strict";
import { test } from "node:test";

import { entryState, gameToOpen } from "../../static/js/tournament/follow.js";

const me = (over = {}) => ({ entered: true, paused: false, withdrawn: false, pauses: 0, table: null, game: null, ...over });

test("the entry panel says what the entry is", () => {
  assert.equal(entryState("running", null), "");
  assert.equal(entryState("running", me({ entered: false })), "");
  assert.equal(entryState("scheduled", me()), "entered");
  assert.equal(entryState("running", me()), "waiting");
  assert.equal(entryState("running", me({ game: 7, table: 3, paused: true })), "playing"); // the game goes on
  assert.equal(entryState("running", me({ paused: true })), "paused");
  assert.equal(entryState("running", me({ withdrawn: true, game: 7 })), "withdrawn");
  assert.equal(entryState("running", me({ withdrawn: true, removed: true })), "removed");
  assert.equal(entryState("finished", me()), "played");
  assert.equal(entryState("finished", me({ paused: true })), "played");
  assert.equal(entryState("cancelled", me()), "cancelled");
  assert.equal(entryState("cancelled", me({ game: 7 })), "playing"); // played to its end
});

test("a new table's game is opened; the one shown at load or just left is not", () => {
  assert.equal(gameToOpen(me({ game: 7 })), 7);
  assert.equal(gameToOpen(me({ game: 7 }), { shown: 7 }), null); // looking at the standings mid-game
  assert.equal(gameToOpen(me({ game: 8 }), { shown: 7 }), 8); // seated again while the page is open
  assert.equal(gameToOpen(me({ game: 7 }), { left: 7 }), null); // back from it: never re-entered
  assert.equal(gameToOpen(me({ game: 9 }), { left: 7 }), 9); // seated while on the way back
  assert.equal(gameToOpen(me()), null);
  assert.equal(gameToOpen(null), null);
  assert.equal(gameToOpen(me({ game: 9, withdrawn: true })), null);
});

test("the end screen of a running arena's game goes back to the event, only for its players", async () => {
  const { goesBackToEvent } = await import("../../static/js/game/end.js");
  const event = { id: 3, name: "Arena", format: "arena", status: "running", url: "/tournaments/3/" };
  const cfg = (over = {}) => ({ seat: 1, event, ...over });
  assert.equal(goesBackToEvent(cfg(), { loadedOver: false }), true);
  assert.equal(goesBackToEvent(cfg(), { loadedOver: true }), false); // a finished game opened later
  assert.equal(goesBackToEvent(cfg({ seat: null }), { loadedOver: false }), false); // a spectator
  assert.equal(goesBackToEvent(cfg({ event: { ...event, format: "swiss" } }), { loadedOver: false }), false);
  assert.equal(goesBackToEvent(cfg({ event: { ...event, status: "finished" } }), { loadedOver: false }), false);
  assert.equal(goesBackToEvent(cfg({ event: null }), { loadedOver: false }), false);
});

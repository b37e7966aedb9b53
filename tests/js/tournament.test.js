// The event page's pure decisions: the entry panel's sentence, and when a player's own entry takes
// the page to a game.
import assert from "node:assert/strict";
import { test } from "node:test";

import { entryControls, entryOpen, entryState, gameToOpen } from "../../static/js/tournament/follow.js";
import { gameWords, gamesBehind } from "../../static/js/tournament/games.js";

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

test("the entry panel's buttons follow the entry and the event", () => {
  const shown = (status, format, m, open = true) => {
    const c = entryControls(status, format, m, open);
    return [c.enter, c.actions, c.pause, c.comeBack, c.withdrawWord];
  };
  assert.deepEqual(shown("scheduled", "arena", me({ entered: false })), [true, false, false, false, "leave"]);
  assert.deepEqual(shown("running", "arena", me({ entered: false }), false), [false, false, false, false, "withdraw"]);
  assert.deepEqual(shown("scheduled", "arena", me()), [false, true, true, false, "leave"]); // entered elsewhere
  assert.deepEqual(shown("running", "arena", me()), [false, true, true, false, "withdraw"]); // started: "withdraw"
  assert.deepEqual(shown("running", "arena", me({ paused: true })), [false, true, false, true, "withdraw"]); // paused
  assert.deepEqual(shown("running", "arena", me({ paused: true, game: 4 })), [false, true, false, true, "withdraw"]);
  assert.deepEqual(shown("running", "swiss", me()), [false, true, false, false, "withdraw"]); // no pause in Swiss
  assert.deepEqual(shown("running", "arena", me({ withdrawn: true })), [false, false, false, false, "withdraw"]);
  assert.deepEqual(shown("finished", "arena", me()), [false, false, false, false, "withdraw"]);
  assert.deepEqual(shown("cancelled", "arena", me({ paused: true })), [false, false, false, false, "withdraw"]);
  assert.deepEqual(shown("running", "arena", null, false), [false, false, false, false, "withdraw"]);
});

test("entry is open before the start, and in an arena until its end", () => {
  const end = "2030-01-01T12:00:00+00:00";
  const before = Date.parse(end) - 1000;
  assert.equal(entryOpen("scheduled", "swiss", null, before), true);
  assert.equal(entryOpen("running", "swiss", null, before), false);
  assert.equal(entryOpen("running", "arena", end, before), true);
  assert.equal(entryOpen("running", "arena", end, Date.parse(end)), false); // its time is up
  assert.equal(entryOpen("finished", "arena", end, before), false);
});

test("the lists of games behind the standings are asked for, fewer held only", () => {
  const row = (entry, games, byes = 0) => ({ entry, games, byes });
  const standings = [row(1, 2), row(2, 1, 1), row(3, 0), row(4, 3)];
  const held = new Map([[1, 2], [2, 1], [4, 4]]); // 2 lacks its bye; 4 holds one more than said
  assert.deepEqual(gamesBehind(standings, held, 50), [2]);
  assert.deepEqual(gamesBehind(standings, new Map(), 50), [1, 2, 4]); // a new player with none: nothing to ask
  assert.deepEqual(gamesBehind(standings, new Map(), 2), [1, 2]); // at most `limit` at a time
  assert.deepEqual(gamesBehind([], held, 50), []);
});

test("a player's games are worded as the page's template words them", () => {
  const g = { game: 5, round: null, bye: false, place: 1, players: 3, points: 24, won: true, bot_played: false, replay: "/replays/5/" };
  assert.deepEqual(gameWords(g), { what: "place 1 of 3 (sole win)", points: "24 points", replay: "/replays/5/" });
  assert.deepEqual(gameWords({ ...g, round: 2, place: 3, points: 0, won: false, bot_played: true, replay: null }), {
    what: "Round 2: place 3 of 3 (left: a bot played the seat)",
    points: "0 points",
    replay: null,
  });
  assert.deepEqual(gameWords({ game: null, round: 3, bye: true, place: null, players: null, points: 6, won: false, bot_played: false, replay: null }), {
    what: "Round 3: a bye",
    points: "6 points",
    replay: null,
  });
  assert.equal(gameWords({ ...g, points: 1 }).points, "1 point");
});

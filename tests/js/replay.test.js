// The replay viewer's rules with no page: where stepping and turn jumps land, what a key asks
// for, how long a step lasts while playing, the links (table/replaysteps.js); and the words and
// the chart's lines a frame is drawn with (table/replaydraw.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  capacityPath,
  frameWords,
  perspectiveLabel,
  playerName,
  positionText,
  statusText,
  viewerSeat,
} from "../../static/js/table/replaydraw.js";
import {
  clampStep,
  clipSpan,
  clipUrl,
  embedSnippet,
  embedUrl,
  isTurnStart,
  keyAction,
  nextTurnStep,
  prevTurnStep,
  stepDelay,
  stepUrl,
} from "../../static/js/table/replaysteps.js";

const frame = (type, capacity = [5, 5]) => ({ event: { type }, capacity, text: `${type}.` });
// Steps 0..7; turns start at 0 (the first frame), 2 and 5.
const frames = ["GameStarted", "CardsDealt", "TurnStarted", "CardsPlayed", "DamageTaken", "TurnStarted", "CardsDrawn", "GameEnded"].map((t) => frame(t));

test("a step is kept within the frames, and nonsense is the first step", () => {
  assert.equal(clampStep(3, 8), 3);
  assert.equal(clampStep(-1, 8), 0);
  assert.equal(clampStep(99, 8), 7);
  assert.equal(clampStep("40", 100), 40); // the slider's value is text
  assert.equal(clampStep("x", 8), 0);
  assert.equal(clampStep(undefined, 8), 0);
});

test("turns start at TurnStarted and at the first frame; jumps land on the next or previous start", () => {
  assert.deepEqual(frames.map((_, i) => isTurnStart(frames, i)), [true, false, true, false, false, true, false, false]);
  assert.equal(nextTurnStep(frames, 0), 2);
  assert.equal(nextTurnStep(frames, 2), 5);
  assert.equal(nextTurnStep(frames, 5), 7); // no later turn: the last step
  assert.equal(prevTurnStep(frames, 7), 5);
  assert.equal(prevTurnStep(frames, 5), 2);
  assert.equal(prevTurnStep(frames, 3), 2);
  assert.equal(prevTurnStep(frames, 1), 0);
  assert.equal(prevTurnStep(frames, 0), 0);
});

test("playing shows each step 900 ms at normal speed, less when faster", () => {
  assert.equal(stepDelay(1), 900);
  assert.equal(stepDelay(2), 450);
  assert.equal(stepDelay(0.5), 1800);
});

const key = (k, more = {}) => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, target: { tagName: "BODY" }, ...more });

test("keys name the buttons' actions; Shift with an arrow jumps a turn", () => {
  const expected = {
    ArrowRight: "next", ArrowLeft: "prev", PageDown: "next-turn", PageUp: "prev-turn", Home: "first", End: "last", " ": "play",
  };
  for (const [k, action] of Object.entries(expected)) assert.equal(keyAction(key(k)), action, k);
  assert.equal(keyAction(key("ArrowRight", { shiftKey: true })), "next-turn");
  assert.equal(keyAction(key("ArrowLeft", { shiftKey: true })), "prev-turn");
  assert.equal(keyAction(key("a")), null);
  assert.equal(keyAction(key("constructor")), null);
});

test("no action with Ctrl, Alt or Meta, while typing, or for the space bar on a button", () => {
  for (const mod of ["ctrlKey", "altKey", "metaKey"]) assert.equal(keyAction(key("ArrowRight", { [mod]: true })), null, mod);
  for (const target of [{ tagName: "TEXTAREA" }, { tagName: "SELECT" }, { tagName: "INPUT", type: "text" }, { tagName: "DIV", isContentEditable: true }]) {
    assert.equal(keyAction(key("ArrowRight", { target })), null, JSON.stringify(target));
  }
  // The slider is an input too, but its arrows step the replay.
  assert.equal(keyAction(key("ArrowRight", { target: { tagName: "INPUT", type: "range" } })), "next");
  assert.equal(keyAction(key(" ", { target: { tagName: "BUTTON" } })), null);
  assert.equal(keyAction(key("ArrowRight", { target: { tagName: "BUTTON" } })), "next");
  assert.equal(keyAction(key("End", { target: null })), "last");
});

test("a link keeps its path and other parameters and sets the step and the perspective", () => {
  assert.equal(stepUrl("/replays/7/", "https://h.example", 26, "all").toString(), "https://h.example/replays/7/?step=26&perspective=all");
  const here = stepUrl("https://h.example/replays/7/?step=3&perspective=seat%3A1&x=1", "https://h.example", 4, "spectator");
  assert.equal(here.pathname + here.search, "/replays/7/?step=4&perspective=spectator&x=1");
});

test("the embed's address and the code that frames it", () => {
  assert.equal(embedUrl("/replays/7/", "https://h.example", 26, "all").toString(), "https://h.example/embed/replays/7/?step=26&perspective=all");
  assert.equal(embedUrl("https://h.example/replays/Ab-_9/", "https://h.example", 0, "seat:1").toString(), "https://h.example/embed/replays/Ab-_9/?step=0&perspective=seat%3A1");
  const code = embedSnippet("https://h.example/embed/replays/7/?step=2&perspective=all", 'Replay: ann, "bob" <3');
  assert.match(code, /^<iframe src="https:\/\/h\.example\/embed\/replays\/7\/\?step=2&amp;perspective=all" /);
  assert.match(code, /title="Replay: ann, &quot;bob&quot; &lt;3"/);
  assert.match(code, /><\/iframe>$/);
});

test("a clip's span stays within the game and 60 steps, and its address", () => {
  assert.deepEqual(clipSpan(10, "", 500, 60), { from: 10, to: 29 }); // no end: 20 steps
  assert.deepEqual(clipSpan("10", "200", 500, 60), { from: 10, to: 69 }); // at most 60
  assert.deepEqual(clipSpan("10", "200", 500, 30), { from: 10, to: 39 }); // at most what the page was given
  assert.deepEqual(clipSpan(10, 5, 500, 60), { from: 10, to: 10 }); // the end never before the start
  assert.deepEqual(clipSpan(495, "", 500, 60), { from: 495, to: 500 }); // not past the last step
  assert.deepEqual(clipSpan(900, 950, 500, 60), { from: 500, to: 500 });
  assert.deepEqual(clipSpan("x", "y", 500, 60), { from: 0, to: 19 });
  assert.equal(
    clipUrl("/replays/7/", "https://h.example", { from: 3, to: 9 }, "seat:1").toString(),
    "https://h.example/replays/7/clip.gif?from=3&to=9&perspective=seat%3A1",
  );
});

test("perspectives read as seats and as labels", () => {
  assert.equal(viewerSeat("seat:2"), 2);
  assert.equal(viewerSeat("all"), null);
  assert.equal(viewerSeat("spectator"), null);
  const names = ["ann", "bob"];
  assert.equal(perspectiveLabel("all", names), "Every hand");
  assert.equal(perspectiveLabel("spectator", names), "Spectator (no hands)");
  assert.equal(perspectiveLabel("seat:1", names), "As bob saw it");
  assert.equal(perspectiveLabel("seat:3", names), "As #4 saw it");
});

test("names, the position and the line under the table", () => {
  const names = ["ann", "bob"];
  assert.equal(playerName(names, 0), "ann");
  assert.equal(playerName(names, 5), "#6");
  assert.equal(playerName(names, null), "–");
  assert.equal(positionText(12, 40, 3), "Step 12 of 40 · turn 3");
  assert.equal(statusText({ over: true, result: "win", winner: 1 }, names), "bob won");
  assert.equal(statusText({ over: true, result: "draw" }, names), "Game over");
  assert.equal(statusText({ over: false, turn_number: 4, awaiting: { seat: 0, kind: "volley" } }, names), "Turn 4 · ann is answering Hare Cumi");
  assert.equal(statusText({ over: false, turn_number: 4, awaiting: { seat: 1, kind: "other" } }, names), "Turn 4 · bob is other");
  assert.equal(statusText({ over: false, turn_number: 0, awaiting: null }, names), "Turn 0");
});

test("a frame's words come from the describer, else from the frame's own text", () => {
  const ctx = { mySeat: null, standalone: true, seats: [{ seat: 0, name: "ann" }, { seat: 1, name: "bob" }], cards: [], handLimit: 5 };
  assert.equal(frameWords(ctx, { event: { type: "TurnStarted", seat: 1 }, text: "server words" }), "bob's turn.");
  assert.equal(frameWords(ctx, { event: { type: "NoSuchEvent" }, text: "server words" }), "server words");
  assert.equal(frameWords(ctx, { event: null, text: "server words" }), "server words"); // the describer throws
});

test("a seat's capacity line moves only where the capacity changes, each seat a little lower", () => {
  const caps = [[5, 5], [5, 5], [4, 5], [4, 3], [4, 3]].map((capacity) => ({ capacity }));
  const x = (i) => i * 10;
  const y = (c) => 100 - c * 10;
  assert.equal(capacityPath(caps, 0, x, y, 1000), "M0.0,50.0H20.0V60.0H1000");
  assert.equal(capacityPath(caps, 1, x, y, 1000), "M0.0,51.5H30.0V71.5H1000");
});

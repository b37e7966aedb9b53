// The replay viewer's playback rules, with no page: where a step or a turn jump lands, what a key
// asks for, how long a step lasts while playing, and the link that opens a step. The viewer
// (table/replayviewer.js) applies them; Node tests them (tests/js/replay.test.js).

import { EventType } from "./events.js";

export const BASE_DELAY_MS = 900;

// How long each step is shown while playing, at a speed (1 = normal, 2 = twice as fast).
export function stepDelay(speed) {
  return BASE_DELAY_MS / speed;
}

// A requested step (a number, or the slider's text) kept within the frames; 0 for nonsense.
export function clampStep(step, count) {
  return Math.max(0, Math.min(count - 1, Number(step) || 0));
}

// A turn starts at its TurnStarted event; the first frame starts the game.
export function isTurnStart(frames, i) {
  const t = frames[i].event.type;
  return t === EventType.TURN_STARTED || i === 0;
}

// The next turn's first step after `step`, or the last step when no turn starts later.
export function nextTurnStep(frames, step) {
  for (let i = step + 1; i < frames.length; i++) if (isTurnStart(frames, i)) return i;
  return frames.length - 1;
}

// The nearest turn start before `step`, or the first step.
export function prevTurnStep(frames, step) {
  for (let i = step - 1; i >= 0; i--) if (isTurnStart(frames, i)) return i;
  return 0;
}

// A control being typed in keeps its keys; the slider (a range input) does not, so its arrows
// step the replay like everywhere else.
export function isTyping(t) {
  return Boolean(
    t &&
      (t.tagName === "TEXTAREA" ||
        t.tagName === "SELECT" ||
        (t.tagName === "INPUT" && t.type !== "range") ||
        t.isContentEditable),
  );
}

function keyName(key, shift) {
  switch (key) {
    case "ArrowRight":
      return shift ? "next-turn" : "next";
    case "ArrowLeft":
      return shift ? "prev-turn" : "prev";
    case "PageDown":
      return "next-turn";
    case "PageUp":
      return "prev-turn";
    case "Home":
      return "first";
    case "End":
      return "last";
    case " ":
      return "play";
    case "n":
    case "N": // Caps Lock on: still N, and Shift+N the other way
      return shift ? "prev-mistake" : "next-mistake"; // with an analysis (table/analysisview.js)
    default:
      return null;
  }
}

// The action a key press asks for, named as the buttons' data-action, or null: nothing with
// Ctrl, Alt or Meta held, nothing while typing, and the space bar on a button is left to the
// button's own click (which toggles play already).
export function keyAction(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const t = e.target;
  if (isTyping(t)) return null;
  const action = keyName(e.key, e.shiftKey);
  if (action === "play" && t && t.tagName === "BUTTON") return null;
  return action;
}

// `base` (a path or an address) with the step and the perspective in its query.
export function stepUrl(base, origin, step, perspective) {
  const url = new URL(base, origin);
  url.searchParams.set("step", String(step));
  url.searchParams.set("perspective", perspective);
  return url;
}

// The embed's address for a replay page's share path ("/replays/7/" -> "/embed/replays/7/"), at a
// step and from a perspective.
export function embedUrl(sharePath, origin, step, perspective) {
  const path = new URL(sharePath, origin).pathname;
  return stepUrl(`/embed${path}`, origin, step, perspective);
}

const attr = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// The markup another site pastes to show the replay: an <iframe> of the embed (`src`), titled.
export function embedSnippet(src, title) {
  return (
    `<iframe src="${attr(src)}" title="${attr(title)}" width="960" height="820" ` +
    `style="border:0;max-width:100%" loading="lazy"></iframe>`
  );
}

export const CLIP_STEPS = 20; // a clip offered from the shown step

// A clip's span kept within the game (steps 0..last) and `maxSteps` (the page's boot: what the
// server draws, replays/images.py CLIP_MAX_STEPS): `from` first, then `to` at or after it; a
// missing `to` is CLIP_STEPS on.
export function clipSpan(from, to, last, maxSteps) {
  const first = clampStep(from, last + 1);
  const wanted = to === "" || to === null || to === undefined || Number.isNaN(Number(to)) ? first + CLIP_STEPS - 1 : Number(to);
  const end = Math.max(first, Math.min(wanted, last, first + maxSteps - 1));
  return { from: first, to: end };
}

// The clip's address (/replays/<id>/clip.gif) for a replay page's share path.
export function clipUrl(sharePath, origin, span, perspective) {
  const url = new URL(`${new URL(sharePath, origin).pathname}clip.gif`, origin);
  url.searchParams.set("from", String(span.from));
  url.searchParams.set("to", String(span.to));
  url.searchParams.set("perspective", perspective);
  return url;
}

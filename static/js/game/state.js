// The game page's state and what follows from it alone (no page, no socket): whose decision it
// is, what this seat may do, and why a card cannot be used now. `g` is {cfg, S}: the page's
// configuration (#game-config) and its state, made by newState and changed by the controller.

import { gettext } from "../core/dom.js";
import { labelName, seatName } from "../table/words.js";

export function newState(cfg) {
  return {
    view: null,
    legal: [],
    seq: 0,
    seats: cfg.seats,
    status: "running",
    presence: {},
    deadline: null,
    deadlineFor: null,
    deadlineTotal: 30000,
    mode: null, // null | "cumi" | "discard"
    picked: [], // indexes into the hand
    pending: false,
    ended: false,
    loadedOver: undefined, // whether the game was over when the page loaded
    lastPlayLine: null,
    autoAnswer: Boolean(cfg.auto_answer),
    // This seat's standing answers (docs/RULES.md): {volley: ask | taptap | never, skip: ask |
    // strom | never}; only the seat's own page has them (the server sends them to no one else).
    standing: cfg.standing || { volley: "ask", skip: "ask" },
    awayWarning: false, // one more missed turn hands this seat to a bot
    sanctioned: false, // the person was suspended or banned while the page was open
    places: null, // each seat's place once the game has finished, as the server sends them
    // Each person's overall rating before and after the game: {state: "rated" | "unrated" |
    // "pending", changes: [{seat, before, after}]}, from the page, then pushed when the game ends.
    ratings: cfg.ratings || { state: "unrated", changes: [] },
    outSeen: false,
    stayHere: false, // a tournament's game: the player chose not to go back to the event by itself
    askedAt: 0, // the seq at which the decision now awaited was asked
    focusedDecision: null, // the last decision of this player's that took the focus
  };
}

// The describer's context (table/words.js).
export const ctx = ({ cfg, S }) => ({
  mySeat: cfg.seat,
  seats: S.seats,
  cards: cfg.cards,
  handLimit: S.view && S.view.ruleset ? S.view.ruleset.hand_size : undefined,
});

export const card = ({ cfg }, id) => cfg.cards.find((c) => c.id === id) || { id, name: id, effect: "" };

export function nameOf(g, seat) {
  const label = g.S.seats.find((s) => s.seat === seat);
  return label ? labelName(label) : seatName(ctx(g), seat);
}

export const myTurn = ({ cfg, S }) => Boolean(S.view && S.view.awaiting && S.view.awaiting.seat === cfg.seat && cfg.seat !== null);
export const mine = (g, kind) => myTurn(g) && g.S.view.awaiting.kind === kind && !g.S.view.over;
// A seat is away when a bot plays it: the server said so, or its person was suspended or banned
// (the socket closed right after saying so, so no later presence comes).
export const away = ({ cfg, S }) =>
  cfg.seat !== null && (S.sanctioned || Boolean(S.presence[cfg.seat] && S.presence[cfg.seat].bot_playing));
export const legalPlays = ({ S }, c) => S.legal.filter((x) => x.play && x.play[0] === c);
export const burnable = ({ S }) => S.legal.filter((x) => "burn" in x);
export const canReact = ({ S }, r) => S.legal.some((x) => x.react === r);

// Why the card at hand index i cannot be used now, in words (null: it can).
export function whyNot(g, i) {
  const v = g.S.view;
  if (!v || v.over) return gettext("The game is over.");
  if (away(g)) return gettext("A bot is playing your seat: take it back first.");
  if (g.S.pending) return gettext("Your move is on its way.");
  const id = v.hand[i];
  if (!myTurn(g)) return gettext("Wait for your turn.");
  const kind = v.awaiting.kind;
  if (kind === "discard") return null;
  if (kind === "volley") {
    return id === "taptap" && canReact(g, "taptap") ? null : gettext("Only Hare Taptap answers a Hare Cumi; or take it.");
  }
  if (kind === "skip") {
    return id === "strom" && canReact(g, "strom") ? null : gettext("Only a Strom forwards the skip; or lose your turn.");
  }
  if (burnable(g).length) {
    return burnable(g).some((x) => x.burn === id) ? null : gettext("That card cannot be played now.");
  }
  if (g.S.mode === "cumi" && id !== "cumi") return gettext("Choose more Hare Cumi, or a player to aim at.");
  if (legalPlays(g, id).length) return null;
  if (id === "taptap") return gettext("Hare Taptap only answers a Hare Cumi aimed at you.");
  if (id === "mini") return gettext("Hare Mini is disabled.");
  if (id === "cumi") return gettext("Every other player is protected.");
  return gettext("That card cannot be played now.");
}

// Whether this seat answers a reaction of `kind` by itself at the end of the short window:
// "answer for me when I can't", or a standing answer for that kind.
export const answersItself = ({ S }, kind) =>
  (kind === "volley" || kind === "skip") && (S.autoAnswer || (S.standing[kind] || "ask") !== "ask");

// How long the decision now awaited lasts in all (ms), for the countdown ring. With "answer for
// me when I can't" or a standing answer, my reaction windows of that kind are the short one.
export function deadlineTotal(g, kind, seat) {
  const { cfg } = g;
  let total = (cfg.timers && cfg.timers[kind]) || 30;
  if (seat === cfg.seat && answersItself(g, kind)) total = Math.min(total, cfg.auto_answer_seconds);
  return total * 1000;
}

// When news is due from the server if nothing is lost (LiveGame.expectNews): a bot's move comes
// within its delay and search, the outcome of a decision whose deadline ran out just after it
// (the timer's task, or beat's sweep 5 s later at worst). Past these, the page asks for it.
export const BOT_NEWS_MS = 6000;
export const DEADLINE_NEWS_MS = 7000;
export function newsDue({ S }, now) {
  const v = S.view;
  if (!v || v.over || !v.awaiting) return null;
  const due = [];
  const seat = S.presence[v.awaiting.seat];
  if (seat && seat.bot_playing) due.push(now + BOT_NEWS_MS);
  if (S.deadline) due.push(S.deadline + DEADLINE_NEWS_MS);
  return due.length ? Math.min(...due) : null;
}

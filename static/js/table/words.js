// Events and errors in plain words. Every string goes through the JS translation catalog; the
// events' sentences are table/sentences.js's.
import { gettext, interpolate, ngettext } from "../core/dom.js";
import { SEAT, SENTENCES } from "./sentences.js";

export function cardName(cards, id) {
  const c = cards.find((x) => x.id === id);
  return c ? c.name : id;
}

// A bot level in the page's language (one literal each, so the catalogue finds them).
function levelWord(level) {
  switch (level) {
    case "easy":
      return gettext("easy");
    case "normal":
      return gettext("normal");
    case "hard":
      return gettext("hard");
    default:
      return level;
  }
}

// A seat label's name in the page's language: a person's as they typed it; a bot's ("Bot 3 ·
// hard") made here, as the server's labels (games/labels.py) come over the socket in the site's
// language whoever reads them. A label without `is_bot` and `bot_level` keeps its name.
export function labelName(label) {
  if (label.is_bot && label.bot_level) {
    return interpolate(gettext("Bot %(n)s · %(level)s"), { n: label.seat + 1, level: levelWord(label.bot_level) }, true);
  }
  return label.name;
}

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "";
  const s = ctx.seats.find((x) => x.seat === seat);
  return s ? labelName(s) : interpolate(gettext(SEAT), { n: seat + 1 }, true);
}

// "2 × Hare Cumi, Strom" (in first-seen order).
function cardList(ctx, list) {
  const counts = new Map();
  for (const c of list) counts.set(c, (counts.get(c) || 0) + 1);
  const name = (c) => cardName(ctx.cards, c);
  return Array.from(counts, ([c, n]) => (n === 1 ? name(c) : `${n} × ${name(c)}`)).join(", ");
}

// The values of games/sentences.py's VALUE_KINDS, as games/describe.py says them.
export const VALUES = {
  card: (ctx, v) => cardName(ctx.cards, v),
  first_card: (ctx, v) => cardName(ctx.cards, v ? v[0] : null),
  cards: (ctx, v) => cardList(ctx, v || []),
  number: (ctx, v) => v,
  limit: (ctx, v) => Math.max(0, ctx.handLimit - (v || 0)),
};

const FLAGS = ["minor", "turn", "starts", "join"];

function capFirst(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// The first of the event type's cases whose `when` fields the event has (a missing one is null).
function caseFor(e) {
  const cases = SENTENCES[e.type] || [];
  return cases.find((say) => Object.entries(say.when || {}).every(([k, v]) => (e[k] ?? null) === v));
}

// One event as a sentence, from the one table of sentences (table/sentences.js, written from
// games/sentences.py, which says what its fields mean), read as games/describe.py reads it. For
// the reader (ctx.mySeat) the "you" templates; in the game log (ctx.standalone false) a clause
// joined to a play's line keeps its small letter, and some steps are not said there (the log
// says them otherwise). The game log, the watch page and the replay viewer all use this.
// Returns {text, and the log's flags that hold: join, starts, minor, turn}; text null: not said.
export function describe(ctx, e) {
  const say = caseFor(e);
  if (!say || (say.log === false && !ctx.standalone)) return { text: null };
  let template = say.other;
  const values = {};
  const reader = ctx.mySeat ?? null;
  for (const [placeholder, source, mine] of [["name", say.name, say.you], ["target", say.target, say.to_you]]) {
    if (!source) continue;
    const seat = e[source];
    if (reader !== null && seat === reader && mine) template = mine;
    else values[placeholder] = seatName(ctx, seat);
  }
  let n = 0;
  if (say.count) {
    const raw = e[say.count];
    n = values.n = Array.isArray(raw) ? raw.length : Number(raw || 0);
  }
  for (const [key, [kind, source]] of Object.entries(say.values || {})) values[key] = VALUES[kind](ctx, e[source]);
  const words = Array.isArray(template) ? ngettext(template[0], template[1], n) : gettext(template);
  // A sentence starts with a capital, unless with a name, kept as its owner typed it.
  const named = ["name", "target"].some((p) => p in values && words.startsWith(`%(${p})s`));
  const text = interpolate(words, values, true);
  const out = { text: named || (say.join && !ctx.standalone) ? text : capFirst(text) };
  for (const flag of FLAGS) if (say[flag]) out[flag] = true;
  return out;
}

const ERRORS = {
  not_your_turn: () => gettext("It is not your turn."),
  wrong_action: () => gettext("That is not the decision being asked for now."),
  not_in_hand: () => gettext("You do not hold that card."),
  not_playable: () => gettext("That card cannot be played now."),
  mixed_cards: () => gettext("Only Hare Cumi may be played several at once."),
  bad_target: () => gettext("Choose another player who is still in the game."),
  target_protected: () => gettext("That player is protected right now."),
  must_play: () => gettext("You can play a card, so you may not burn one."),
  bad_reaction: () => gettext("You cannot react that way now."),
  bad_discard: () => gettext("Discard exactly the number of cards asked for."),
  game_over: () => gettext("The game is over."),
  stale: () => gettext("The game moved on before your move arrived. Try again."),
  seat_away: () => gettext("A bot is playing your seat: take it back first."),
  not_seated: () => gettext("You are watching: only players can move."),
  not_authenticated: () => gettext("Sign in to play."),
};

// A refused command in the page's words; a code these do not know gets the general ones, never
// the server's `detail` (English whatever the page's language).
export function errorWords(code) {
  const f = ERRORS[code];
  return f ? f() : gettext("That did not work.");
}

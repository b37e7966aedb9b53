// Events and errors in plain words. Every string goes through the JS translation catalog.
import { gettext, interpolate, ngettext } from "../core/dom.js";
import { EventType } from "./events.js";

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
  if (seat === ctx.mySeat) return gettext("you");
  const s = ctx.seats.find((x) => x.seat === seat);
  return s ? labelName(s) : interpolate(gettext("Seat %s"), [seat + 1]);
}

// Sentences for the person reading: "you are skipped", "you are out", never "you is"; a sentence
// of its own starts with "You", a clause joined to a line with "you"; names stay as their owners
// typed them ("bob" is never made "Bob").
let joining = false;
function capFirst(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// `you` is the template used when `seat` is the reader's, `other` when it is someone else's.
function say(ctx, seat, you, other, values = {}) {
  const mine = seat !== null && seat !== undefined && seat === ctx.mySeat;
  const template = mine ? you : other;
  const text = interpolate(template, { ...values, name: mine ? "" : seatName(ctx, seat) }, true);
  if (joining) return text;
  // Capitalise the sentence's own first word, never a name it starts with.
  return !mine && template.startsWith("%(name)s") ? text : capFirst(text);
}

function other(ctx, seat) {
  return seatName(ctx, seat);
}

const JOINED = [
  EventType.DIRECTION_CHANGED,
  EventType.PROTECTION_GAINED,
  EventType.DAMAGE_HEALED,
  EventType.PLAYER_SKIPPED,
  EventType.SKIP_PENDING,
  EventType.REACTION_PLAYED,
  EventType.REACTION_DECLINED,
  EventType.DAMAGE_TAKEN,
];

// One event as a sentence; `join` says it continues the previous line ("; Ann evaded ...").
// The game log, the watch page and the replay viewer all describe events with this function.
export function describe(ctx, e) {
  joining = JOINED.includes(e.type) && !ctx.standalone;
  const card = (id) => cardName(ctx.cards, id);
  const cards = (list) => {
    const counts = new Map();
    for (const c of list) counts.set(c, (counts.get(c) || 0) + 1);
    return Array.from(counts, ([c, n]) => (n === 1 ? card(c) : `${n} × ${card(c)}`)).join(", ");
  };
  const s = e.seat;
  switch (e.type) {
    case EventType.GAME_STARTED:
      return { text: say(ctx, e.shuffler, gettext("the game begins. You shuffled."), gettext("the game begins. %(name)s shuffled.")) };
    case EventType.TURN_STARTED:
      return { text: say(ctx, s, gettext("your turn."), gettext("%(name)s's turn.")), minor: true, turn: true };
    case EventType.CARDS_PLAYED: {
      const n = e.cards.length;
      if (e.target !== null && e.target !== undefined) {
        const target = e.target === ctx.mySeat ? gettext("you") : other(ctx, e.target);
        return {
          text: say(ctx, s,
            ngettext("you played %(card)s at %(target)s", "you played %(n)s × %(card)s at %(target)s", n),
            ngettext("%(name)s played %(card)s at %(target)s", "%(name)s played %(n)s × %(card)s at %(target)s", n),
            { n, card: card(e.cards[0]), target }),
          starts: true,
        };
      }
      return { text: say(ctx, s, gettext("you played %(card)s"), gettext("%(name)s played %(card)s"), { card: cards(e.cards) }), starts: true };
    }
    case EventType.DIRECTION_CHANGED:
      return {
        text: say(ctx, null, "", e.direction === "cw" ? gettext("play now goes clockwise") : gettext("play now goes counterclockwise")),
        join: true,
      };
    case EventType.PROTECTION_GAINED:
      return { text: say(ctx, s, gettext("you are protected from moral damage"), gettext("%(name)s is protected from moral damage")), join: true };
    case EventType.DAMAGE_HEALED:
      // At 0 the event cannot tell a healed point from none to heal (Hare Zada at no damage).
      if (!e.damage) return { text: say(ctx, s, gettext("you have no moral damage"), gettext("%(name)s has no moral damage")), join: true };
      return { text: say(ctx, s, gettext("you healed to %(d)s damage"), gettext("%(name)s healed to %(d)s damage"), { d: e.damage }), join: true };
    case EventType.PLAYER_SKIPPED:
      return { text: say(ctx, s, gettext("you are skipped"), gettext("%(name)s is skipped")), join: true };
    case EventType.VOLLEY_PENDING:
      // The game log says it with the play; a replay's step of its own says who must answer.
      if (!ctx.standalone) return { text: null };
      return {
        text: interpolate(
          ngettext("%(target)s must answer Hare Cumi from %(name)s", "%(target)s must answer %(n)s × Hare Cumi from %(name)s", e.count),
          { target: seatName(ctx, e.target), n: e.count, name: seatName(ctx, e.attacker) }, true),
      };
    case EventType.SKIP_PENDING:
      // The game log says the skip once, as it ends ("you are skipped", or who forwarded it); the
      // one who must answer has the prompt, the others the turn line. A replay's step says it.
      if (!ctx.standalone) return { text: null };
      return {
        text: say(ctx, s, gettext("you may forward the skip with Strom"), gettext("%(name)s may forward the skip with Strom")),
        join: true,
      };
    case EventType.REACTION_PLAYED:
      if (e.kind === "volley") {
        return { text: say(ctx, s, gettext("you evaded with %(card)s"), gettext("%(name)s evaded with %(card)s"), { card: card(e.card) }), join: true };
      }
      return {
        text: say(ctx, s, gettext("you forwarded the skip with %(card)s"), gettext("%(name)s forwarded the skip with %(card)s"), { card: card(e.card) }),
        join: true,
      };
    case EventType.REACTION_DECLINED:
      return e.kind === "volley"
        ? { text: say(ctx, s, gettext("you took it"), gettext("%(name)s took it")), join: true }
        : ctx.standalone
          ? { text: say(ctx, s, gettext("you did not forward the skip"), gettext("%(name)s did not forward the skip")) }
          : { text: null }; // the log's next clause says it: "you are skipped"
    case EventType.DAMAGE_TAKEN:
      return {
        text: say(ctx, s,
          ngettext("you took %(n)s moral damage (hand limit %(limit)s)", "you took %(n)s moral damage (hand limit %(limit)s)", e.amount),
          ngettext("%(name)s took %(n)s moral damage (hand limit %(limit)s)", "%(name)s took %(n)s moral damage (hand limit %(limit)s)", e.amount),
          { n: e.amount, limit: Math.max(0, ctx.handLimit - e.damage) }),
        join: true,
      };
    case EventType.PLAYER_ELIMINATED:
      return { text: say(ctx, s, gettext("you are out of the game!"), gettext("%(name)s is out of the game!")) };
    case EventType.CARD_BURNED:
      return e.card
        ? { text: say(ctx, s, gettext("you could not play and burned %(card)s"), gettext("%(name)s could not play and burned %(card)s"), { card: card(e.card) }) }
        : { text: say(ctx, s, gettext("you could not play"), gettext("%(name)s could not play")) };
    case EventType.CARDS_DRAWN: {
      const n = e.cards ? e.cards.length : e.count;
      if (e.cards) {
        return {
          text: say(ctx, s, gettext("you drew %(cards)s"), gettext("%(name)s drew %(cards)s"), { cards: cards(e.cards) }),
          minor: true,
        };
      }
      return {
        text: say(ctx, s, ngettext("you drew %(n)s card", "you drew %(n)s cards", n), ngettext("%(name)s drew %(n)s card", "%(name)s drew %(n)s cards", n), { n }),
        minor: true,
      };
    }
    case EventType.DRAW_PILE_RESHUFFLED:
      return { text: gettext("The discard pile was shuffled into a new draw pile."), minor: true };
    case EventType.DISCARD_REQUIRED:
      return {
        text: say(ctx, s,
          ngettext("you must discard %(n)s card", "you must discard %(n)s cards", e.count),
          ngettext("%(name)s must discard %(n)s card", "%(name)s must discard %(n)s cards", e.count),
          { n: e.count }),
      };
    case EventType.CARDS_DISCARDED:
      if (!e.cards) return { text: say(ctx, s, gettext("you discarded"), gettext("%(name)s discarded")) };
      return { text: say(ctx, s, gettext("you discarded %(cards)s"), gettext("%(name)s discarded %(cards)s"), { cards: cards(e.cards) }) };
    case EventType.GAME_ENDED:
      if (e.winner === null || e.winner === undefined) return { text: gettext("The game ended in a draw at the turn limit.") };
      return { text: say(ctx, e.winner, gettext("you won the game!"), gettext("%(name)s won the game!")) };
    case EventType.GAME_ABORTED:
      return { text: gettext("The game was called off.") };
    case EventType.SEAT_TAKEN_BY_BOT:
      return {
        text: e.reason === "left"
          ? say(ctx, s, gettext("you left; a bot plays your seat"), gettext("%(name)s left; a bot plays the seat"))
          : say(ctx, s, gettext("you are away; a bot plays your seat"), gettext("%(name)s is away; a bot plays the seat")),
      };
    case EventType.SEAT_RECLAIMED:
      return { text: say(ctx, s, gettext("you are back and play again"), gettext("%(name)s is back and plays again")) };
    default:
      return { text: null };
  }
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

export function errorWords(code, detail) {
  const f = ERRORS[code];
  const words = f ? f() : gettext("That did not work.");
  return detail && !f ? `${words} (${detail})` : words;
}

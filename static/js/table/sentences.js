// Generated from games/sentences.py by `python manage.py export_sentences`: change that module and
// run the command, never this file (tests/games/test_sentences.py fails when the two differ).
// What the fields mean is said there. gettext_noop and ngettext_noop only mark the templates for
// makemessages (djangojs.po); the describer (words.js) translates each when it says it.
import { EventType } from "./events.js";

const gettext_noop = (s) => s;
const ngettext_noop = (singular, plural) => [singular, plural];

export const SEAT = gettext_noop("Seat %(n)s");

export const SENTENCES = Object.freeze({
  [EventType.GAME_STARTED]: [
    {
      other: gettext_noop("the game begins. %(name)s shuffled."),
      you: gettext_noop("the game begins. You shuffled."),
      name: "shuffler",
    },
  ],
  [EventType.TURN_STARTED]: [
    {
      other: gettext_noop("%(name)s's turn."),
      you: gettext_noop("your turn."),
      name: "seat",
      minor: true,
      turn: true,
    },
  ],
  [EventType.CARDS_PLAYED]: [
    {
      other: gettext_noop("%(name)s played %(card)s"),
      you: gettext_noop("you played %(card)s"),
      when: { target: null },
      name: "seat",
      values: { card: ["cards", "cards"] },
      starts: true,
    },
    {
      other: ngettext_noop("%(name)s played %(card)s at %(target)s", "%(name)s played %(n)s × %(card)s at %(target)s"),
      you: ngettext_noop("you played %(card)s at %(target)s", "you played %(n)s × %(card)s at %(target)s"),
      to_you: ngettext_noop("%(name)s played %(card)s at you", "%(name)s played %(n)s × %(card)s at you"),
      name: "seat",
      target: "target",
      count: "cards",
      values: { card: ["first_card", "cards"] },
      starts: true,
    },
  ],
  [EventType.DIRECTION_CHANGED]: [
    {
      other: gettext_noop("play now goes counterclockwise"),
      when: { direction: "ccw" },
      name: null,
      join: true,
    },
    {
      other: gettext_noop("play now goes clockwise"),
      name: null,
      join: true,
    },
  ],
  [EventType.PROTECTION_GAINED]: [
    {
      other: gettext_noop("%(name)s is protected from moral damage"),
      you: gettext_noop("you are protected from moral damage"),
      name: "seat",
      join: true,
    },
  ],
  [EventType.DAMAGE_HEALED]: [
    {
      other: gettext_noop("%(name)s has no moral damage"),
      you: gettext_noop("you have no moral damage"),
      when: { damage: 0 },
      name: "seat",
      join: true,
    },
    {
      other: gettext_noop("%(name)s healed to %(d)s damage"),
      you: gettext_noop("you healed to %(d)s damage"),
      name: "seat",
      values: { d: ["number", "damage"] },
      join: true,
    },
  ],
  [EventType.PLAYER_SKIPPED]: [
    {
      other: gettext_noop("%(name)s is skipped"),
      you: gettext_noop("you are skipped"),
      name: "seat",
      join: true,
    },
  ],
  [EventType.VOLLEY_PENDING]: [
    {
      other: ngettext_noop("%(target)s must answer Hare Cumi from %(name)s", "%(target)s must answer %(n)s × Hare Cumi from %(name)s"),
      you: ngettext_noop("%(target)s must answer Hare Cumi from you", "%(target)s must answer %(n)s × Hare Cumi from you"),
      to_you: ngettext_noop("you must answer Hare Cumi from %(name)s", "you must answer %(n)s × Hare Cumi from %(name)s"),
      name: "attacker",
      target: "target",
      count: "count",
      log: false,
    },
  ],
  [EventType.SKIP_PENDING]: [
    {
      other: gettext_noop("%(name)s may forward the skip with Strom"),
      you: gettext_noop("you may forward the skip with Strom"),
      name: "seat",
      log: false,
    },
  ],
  [EventType.REACTION_PLAYED]: [
    {
      other: gettext_noop("%(name)s forwarded the skip with %(card)s"),
      you: gettext_noop("you forwarded the skip with %(card)s"),
      when: { kind: "skip" },
      name: "seat",
      values: { card: ["card", "card"] },
      join: true,
    },
    {
      other: gettext_noop("%(name)s evaded with %(card)s"),
      you: gettext_noop("you evaded with %(card)s"),
      name: "seat",
      values: { card: ["card", "card"] },
      join: true,
    },
  ],
  [EventType.REACTION_DECLINED]: [
    {
      other: gettext_noop("%(name)s did not forward the skip"),
      you: gettext_noop("you did not forward the skip"),
      when: { kind: "skip" },
      name: "seat",
      log: false,
    },
    {
      other: gettext_noop("%(name)s took it"),
      you: gettext_noop("you took it"),
      name: "seat",
      join: true,
    },
  ],
  [EventType.DAMAGE_TAKEN]: [
    {
      other: ngettext_noop("%(name)s took %(n)s moral damage (hand limit %(limit)s)", "%(name)s took %(n)s moral damage (hand limit %(limit)s)"),
      you: ngettext_noop("you took %(n)s moral damage (hand limit %(limit)s)", "you took %(n)s moral damage (hand limit %(limit)s)"),
      name: "seat",
      count: "amount",
      values: { limit: ["limit", "damage"] },
      join: true,
    },
  ],
  [EventType.PLAYER_ELIMINATED]: [
    {
      other: gettext_noop("%(name)s is out of the game!"),
      you: gettext_noop("you are out of the game!"),
      name: "seat",
    },
  ],
  [EventType.CARD_BURNED]: [
    {
      other: gettext_noop("%(name)s could not play"),
      you: gettext_noop("you could not play"),
      when: { card: null },
      name: "seat",
    },
    {
      other: gettext_noop("%(name)s could not play and burned %(card)s"),
      you: gettext_noop("you could not play and burned %(card)s"),
      name: "seat",
      values: { card: ["card", "card"] },
    },
  ],
  [EventType.CARDS_DRAWN]: [
    {
      other: ngettext_noop("%(name)s drew %(n)s card", "%(name)s drew %(n)s cards"),
      you: ngettext_noop("you drew %(n)s card", "you drew %(n)s cards"),
      when: { cards: null },
      name: "seat",
      count: "count",
      minor: true,
    },
    {
      other: gettext_noop("%(name)s drew %(cards)s"),
      you: gettext_noop("you drew %(cards)s"),
      name: "seat",
      values: { cards: ["cards", "cards"] },
      minor: true,
    },
  ],
  [EventType.DRAW_PILE_RESHUFFLED]: [
    {
      other: gettext_noop("The discard pile was shuffled into a new draw pile."),
      name: null,
      minor: true,
    },
  ],
  [EventType.DISCARD_REQUIRED]: [
    {
      other: ngettext_noop("%(name)s must discard %(n)s card", "%(name)s must discard %(n)s cards"),
      you: ngettext_noop("you must discard %(n)s card", "you must discard %(n)s cards"),
      name: "seat",
      count: "count",
    },
  ],
  [EventType.CARDS_DISCARDED]: [
    {
      other: gettext_noop("%(name)s discarded"),
      you: gettext_noop("you discarded"),
      when: { cards: null },
      name: "seat",
    },
    {
      other: gettext_noop("%(name)s discarded %(cards)s"),
      you: gettext_noop("you discarded %(cards)s"),
      name: "seat",
      values: { cards: ["cards", "cards"] },
    },
  ],
  [EventType.GAME_ENDED]: [
    {
      other: gettext_noop("The game ended in a draw at the turn limit."),
      when: { winner: null },
      name: null,
    },
    {
      other: gettext_noop("%(name)s won the game!"),
      you: gettext_noop("you won the game!"),
      name: "winner",
    },
  ],
  [EventType.GAME_ABORTED]: [
    {
      other: gettext_noop("The game was called off."),
      name: null,
    },
  ],
  [EventType.SEAT_TAKEN_BY_BOT]: [
    {
      other: gettext_noop("%(name)s left; a bot plays the seat"),
      you: gettext_noop("you left; a bot plays your seat"),
      when: { reason: "left" },
      name: "seat",
    },
    {
      other: gettext_noop("%(name)s left; a bot plays the seat"),
      you: gettext_noop("your account was suspended or banned; a bot plays your seat"),
      when: { reason: "banned" },
      name: "seat",
    },
    {
      other: gettext_noop("%(name)s is away; a bot plays the seat"),
      you: gettext_noop("you are away; a bot plays your seat"),
      name: "seat",
    },
  ],
  [EventType.SEAT_RECLAIMED]: [
    {
      other: gettext_noop("%(name)s is back and plays again"),
      you: gettext_noop("you are back and play again"),
      name: "seat",
    },
  ],
});

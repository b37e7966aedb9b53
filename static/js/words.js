// Events and errors in plain words. Every string goes through the JS translation catalog.
/* global gettext, ngettext, interpolate */

export function cardName(cards, id) {
  const c = cards.find((x) => x.id === id);
  return c ? c.name : id;
}

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "";
  if (seat === ctx.mySeat) return gettext("you");
  const s = ctx.seats.find((x) => x.seat === seat);
  return s ? s.name : interpolate(gettext("Seat %s"), [seat + 1]);
}

function cap(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// A sentence of its own starts with "You" rather than "you"; a clause joined to a line does not.
let joining = false;
function fmt(template, values) {
  const v = { ...values };
  if (!joining && v.name === gettext("you")) v.name = gettext("You");
  const text = interpolate(template, v, true);
  return joining ? text : cap(text);
}

// One event as a sentence; `join` says it continues the previous line ("; Ann evaded ...").
export function describe(ctx, e) {
  joining = ["DirectionChanged", "ProtectionGained", "DamageHealed", "PlayerSkipped", "SkipPending",
    "ReactionPlayed", "ReactionDeclined", "DamageTaken"].includes(e.type);
  const who = (s) => seatName(ctx, s);
  const card = (id) => cardName(ctx.cards, id);
  switch (e.type) {
    case "GameStarted":
      return { text: fmt(gettext("The game begins. %(name)s shuffled."), { name: who(e.shuffler) }) };
    case "TurnStarted":
      return {
        text:
          e.seat === ctx.mySeat
            ? gettext("Your turn.")
            : fmt(gettext("%(name)s's turn."), { name: who(e.seat) }),
        minor: true,
      };
    case "CardsPlayed": {
      const n = e.cards.length;
      const name = card(e.cards[0]);
      if (e.target !== null && e.target !== undefined) {
        return {
          text: fmt(
            ngettext("%(name)s played %(card)s at %(target)s", "%(name)s played %(n)s × %(card)s at %(target)s", n),
            { name: who(e.seat), n, card: name, target: who(e.target) },
          ),
          starts: true,
        };
      }
      return { text: fmt(gettext("%(name)s played %(card)s"), { name: who(e.seat), card: name }), starts: true };
    }
    case "DirectionChanged":
      return {
        text: e.direction === "cw" ? gettext("play now goes clockwise") : gettext("play now goes counterclockwise"),
        join: true,
      };
    case "ProtectionGained":
      return { text: fmt(gettext("%(name)s is protected from moral damage"), { name: who(e.seat) }), join: true };
    case "DamageHealed":
      return { text: fmt(gettext("%(name)s healed to %(d)s damage"), { name: who(e.seat), d: e.damage }), join: true };
    case "PlayerSkipped":
      return { text: fmt(gettext("%(name)s loses the turn"), { name: who(e.seat) }), join: true };
    case "VolleyPending":
      return { text: null };
    case "SkipPending":
      return {
        text: fmt(gettext("%(name)s is skipped and may forward it with Strom"), { name: who(e.seat) }),
        join: true,
      };
    case "ReactionPlayed":
      if (e.kind === "volley") {
        return { text: fmt(gettext("%(name)s evaded with %(card)s"), { name: who(e.seat), card: card(e.card) }), join: true };
      }
      return {
        text: fmt(gettext("%(name)s forwarded the skip with %(card)s"), { name: who(e.seat), card: card(e.card) }),
        join: true,
      };
    case "ReactionDeclined":
      return e.kind === "volley"
        ? { text: fmt(gettext("%(name)s did not evade"), { name: who(e.seat) }), join: true }
        : { text: null };
    case "DamageTaken":
      return {
        text: fmt(
          ngettext(
            "%(name)s took %(n)s moral damage (hand limit %(limit)s)",
            "%(name)s took %(n)s moral damage (hand limit %(limit)s)",
            e.amount,
          ),
          { name: who(e.seat), n: e.amount, limit: Math.max(0, 5 - e.damage) },
        ),
        join: true,
      };
    case "PlayerEliminated":
      return { text: fmt(gettext("%(name)s is out of the game!"), { name: who(e.seat) }) };
    case "CardBurned":
      return e.card
        ? { text: fmt(gettext("%(name)s could not play and burned %(card)s"), { name: who(e.seat), card: card(e.card) }) }
        : { text: fmt(gettext("%(name)s could not play"), { name: who(e.seat) }) };
    case "CardsDrawn": {
      const n = e.cards ? e.cards.length : e.count;
      if (e.cards) {
        return {
          text: fmt(gettext("You drew %(cards)s"), { cards: e.cards.map(card).join(", ") }),
          minor: true,
        };
      }
      return {
        text: fmt(ngettext("%(name)s drew %(n)s card", "%(name)s drew %(n)s cards", n), { name: who(e.seat), n }),
        minor: true,
      };
    }
    case "DrawPileReshuffled":
      return { text: gettext("The discard pile was shuffled into a new draw pile."), minor: true };
    case "DiscardRequired":
      return {
        text: fmt(ngettext("%(name)s must discard %(n)s card", "%(name)s must discard %(n)s cards", e.count), {
          name: who(e.seat),
          n: e.count,
        }),
      };
    case "CardsDiscarded":
      return {
        text: fmt(gettext("%(name)s discarded %(cards)s"), { name: who(e.seat), cards: e.cards.map(card).join(", ") }),
      };
    case "GameEnded":
      if (e.winner === null || e.winner === undefined) return { text: gettext("The game ended in a draw.") };
      return {
        text:
          e.winner === ctx.mySeat
            ? gettext("You won the game!")
            : fmt(gettext("%(name)s won the game!"), { name: who(e.winner) }),
      };
    case "GameAborted":
      return { text: gettext("The game was called off.") };
    case "SeatTakenByBot":
      return {
        text:
          e.reason === "left"
            ? fmt(gettext("%(name)s left; a bot plays the seat"), { name: who(e.seat) })
            : fmt(gettext("%(name)s is away; a bot plays the seat"), { name: who(e.seat) }),
      };
    case "SeatReclaimed":
      return { text: fmt(gettext("%(name)s is back and plays again"), { name: who(e.seat) }) };
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

// The event types a game's log holds, named once for the page scripts. The server's list is
// harehra/events.py's EventType (the same names and values); tests/test_page_event_types.py fails
// when the two differ, and tests/js/events.test.js when a page script spells a type itself.

export const EventType = Object.freeze({
  GAME_STARTED: "GameStarted",
  TURN_STARTED: "TurnStarted",
  CARDS_PLAYED: "CardsPlayed",
  DIRECTION_CHANGED: "DirectionChanged",
  PROTECTION_GAINED: "ProtectionGained",
  DAMAGE_HEALED: "DamageHealed",
  PLAYER_SKIPPED: "PlayerSkipped",
  VOLLEY_PENDING: "VolleyPending",
  SKIP_PENDING: "SkipPending",
  REACTION_PLAYED: "ReactionPlayed",
  REACTION_DECLINED: "ReactionDeclined",
  DAMAGE_TAKEN: "DamageTaken",
  PLAYER_ELIMINATED: "PlayerEliminated",
  CARD_BURNED: "CardBurned",
  CARDS_DRAWN: "CardsDrawn",
  DRAW_PILE_RESHUFFLED: "DrawPileReshuffled",
  DISCARD_REQUIRED: "DiscardRequired",
  CARDS_DISCARDED: "CardsDiscarded",
  GAME_ENDED: "GameEnded",
  GAME_ABORTED: "GameAborted",
  SEAT_TAKEN_BY_BOT: "SeatTakenByBot",
  SEAT_RECLAIMED: "SeatReclaimed",
});

// Outside the rules: who controls a seat (a person or a bot), as harehra.events.SEAT_EVENTS.
export const SEAT_EVENTS = Object.freeze([EventType.SEAT_TAKEN_BY_BOT, EventType.SEAT_RECLAIMED]);

// The events that end a game, by the rules or by a moderator.
export const END_EVENTS = Object.freeze([EventType.GAME_ENDED, EventType.GAME_ABORTED]);

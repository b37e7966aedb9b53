// The event page's pure decisions: which sentence its entry panel shows, and whether a player's
// own entry (the socket's `me`) means going to a game now. tournaments/selectors.py `entry_state`
// decides the first the same way when the page is rendered.

// "" for someone not in the event; else removed (by a moderator), withdrawn, playing, cancelled, paused, entered (before
// the start), waiting (for a table) or played.
export function entryState(status, me) {
  if (!me || !me.entered) return "";
  if (me.removed) return "removed";
  if (me.withdrawn) return "withdrawn";
  if (me.game) return "playing";
  if (status === "cancelled") return "cancelled";
  if (me.paused && (status === "scheduled" || status === "running")) return "paused";
  if (status === "scheduled") return "entered";
  if (status === "running") return "waiting";
  return "played";
}

// The game to take the player to, or null. `shown`: the game the page showed when it loaded (a
// player looking at the standings during their game is not sent back to it); `left`: the game the
// player came back from (the end screen's link says `?from=<game>`), never re-entered. So a new
// table, seated while the page is open or while the player was on their way back, is opened.
export function gameToOpen(me, { shown = null, left = null } = {}) {
  if (!me || !me.game || me.withdrawn) return null;
  if (me.game === shown || me.game === left) return null;
  return me.game;
}

// Whether a new player may enter now, as far as the page can tell (tournaments/selectors.py
// `tournament_entry_open`; the page offers entry only if it was open when it loaded): before the
// start, and in an arena until its end.
export function entryOpen(status, format, endsAt, now = Date.now()) {
  if (status === "scheduled") return true;
  return status === "running" && format === "arena" && Boolean(endsAt) && now < Date.parse(endsAt);
}

// The entry panel's controls a signed-in viewer sees: the entry form (not in, entry open); for an
// entrant still in a scheduled or running event the actions: pause or come back (an arena), and
// withdraw, worded "leave" before the start (the entry is taken back) and "withdraw" after it.
export function entryControls(status, format, me, open) {
  const entered = Boolean(me && me.entered);
  const actions = entered && !me.withdrawn && (status === "scheduled" || status === "running");
  return {
    enter: !entered && open,
    actions,
    pause: actions && format === "arena" && !me.paused,
    comeBack: actions && format === "arena" && me.paused,
    withdrawWord: status === "scheduled" ? "leave" : "withdraw",
  };
}

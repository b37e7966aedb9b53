// The event page's lists of each player's games, kept by the socket: the `standings` message
// carries the whole lists of the players a change gave a result (`games`), and a page whose lists
// fell behind the standings' counts (a reconnect, a lost push) asks for the rest (`games` request,
// docs/PROTOCOL.md). The pure parts: which lists are behind, and a game's words.
import { fmt, gettext, ngettext } from "../core/dom.js";

// How many results (games and byes) a standings row says the player has.
export const resultsOf = (row) => row.games + row.byes;

// The entries whose lists hold fewer results than their standings row says, at most `limit` (the
// page's config: what the socket takes in one request, tournaments/publish.py GAMES_ASKED_AT_MOST).
// Fewer only: a list read a moment after the standings may hold more, and the next push agrees.
export function gamesBehind(standings, held, limit) {
  const behind = [];
  for (const row of standings) {
    if ((held.get(row.entry) ?? 0) < resultsOf(row)) behind.push(row.entry);
    if (behind.length === limit) break;
  }
  return behind;
}

// One game (or bye) of a player's list, as the page's template words it: what happened, the
// points, and the replay's address (null: none to show).
export function gameWords(g) {
  let what;
  if (g.bye) what = fmt(gettext("Round %(n)s: a bye"), { n: g.round });
  else {
    what = g.round ? `${fmt(gettext("Round %(n)s:"), { n: g.round })} ` : "";
    what += fmt(gettext("place %(place)s of %(players)s"), { place: g.place, players: g.players });
    if (g.won) what += ` (${gettext("sole win")})`;
    if (g.bot_played) what += ` (${gettext("left: a bot played the seat")})`;
  }
  return {
    what,
    points: fmt(ngettext("%(n)s point", "%(n)s points", g.points), { n: g.points }),
    replay: g.replay || null,
  };
}

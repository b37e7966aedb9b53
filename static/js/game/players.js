// The table on the game page: every seat around the felt (table/tableview.js) with its presence,
// and this player's own seat below it.

import { $, gettext } from "../core/dom.js";
import { drawTable, seatTile, shownVolley } from "../table/tableview.js";
import { card, nameOf } from "./state.js";

export function syncPresence({ S }, seats) {
  for (const s of seats) S.presence[s.seat] = { ...(S.presence[s.seat] || {}), bot_playing: s.bot_playing };
}

function presenceText({ cfg, S }, seat) {
  const p = S.presence[seat];
  const label = S.seats.find((s) => s.seat === seat);
  if (label && label.is_bot) return { cls: "bot", text: gettext("bot") };
  if ((p && p.bot_playing) || (label && label.bot_playing)) {
    // A suspended or banned person is not away: the sanction took the seat (the notice says why).
    const sanctioned = S.sanctioned && seat === cfg.seat;
    return { cls: "away", text: sanctioned ? gettext("a bot plays") : gettext("away · a bot plays") };
  }
  if (!p || !p.status) return { cls: "", text: "" };
  if (p.status === "connected") return { cls: "connected", text: gettext("online") };
  return { cls: "offline", text: gettext("offline") };
}

function playerModel(g, p) {
  return {
    ...p,
    name: nameOf(g, p.seat),
    presence: presenceText(g, p.seat),
    you: p.seat === g.cfg.seat,
    hand: null,
  };
}

// aims: while this player aims Hare Cumi, each other seat's {ok, why, words, onAim} (else null).
export function renderPlayers(g, aims = null) {
  const { cfg, S } = g;
  const v = S.view;
  const seated = cfg.seat !== null;
  const players = v.players.map((p) => playerModel(g, p));
  const common = {
    shuffler: v.shuffler,
    awaiting: v.awaiting,
    over: v.over,
    winner: v.winner,
  };
  drawTable($("table-area"), {
    ...v,
    ...common,
    aims,
    players,
    bottom: seated ? cfg.seat : 0,
    withBottom: !seated,
    seatsBox: $("players"),
    feltBox: { drawBox: $("draw-pile"), discardBox: $("discard-pile"), dirBox: $("direction") },
    cardName: (id) => card(g, id).name,
  });
  const me = $("me");
  if (seated) {
    const p = players.find((x) => x.seat === cfg.seat);
    me.replaceChildren(seatTile(p, { ...common, shownVolley: shownVolley({ ...v, players }), pos: "bottom" }));
  } else {
    me.replaceChildren();
  }
}

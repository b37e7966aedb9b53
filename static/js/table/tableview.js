// The table, drawn the same way for playing, watching and replays: seats around a felt in play
// order (the viewer's seat at the bottom), each with its name, presence, hand (card backs, or
// faces where the viewer may see them), capacity pips, shield, shuffler mark and the marker with
// a countdown ring on whoever must decide; the draw pile, a large face-up discard and the
// direction of play in the middle.

import { el, fmt, gettext, ngettext } from "../core/dom.js";
import { aimBadge, pendingVolley, volleyBadge, volleyWords } from "./aim.js";
import { drawVolleyLine } from "./volleyline.js";

export const STATIC_CARDS = "/static/cards/";
const RING = 2 * Math.PI * 21;

function svg(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export function cardImg(id, cls = "") {
  return el("img", { src: `${STATIC_CARDS}${id || "back"}.svg`, alt: "", class: `card-art ${cls}`, width: 72, height: 100, draggable: "false" });
}

// Where opponents sit, in play order from the viewer's left (clockwise seen from above). The
// replay's picture places them alike (replays/preview.py; tests/test_page_copies.py).
export const POSITIONS = {
  1: ["top"],
  2: ["top-left", "top-right"],
  3: ["left", "top", "right"],
  4: ["left", "top-left", "top-right", "right"],
  5: ["left", "top-left", "top", "top-right", "right"],
};

export function seatsInPlayOrder(count, bottom) {
  const start = bottom === null || bottom === undefined ? 0 : bottom;
  return Array.from({ length: count }, (_, i) => (start + i) % count);
}

export function decidingWords(kind) {
  return {
    turn: gettext("taking a turn"),
    volley: gettext("answering Hare Cumi"),
    skip: gettext("answering a skip"),
    discard: gettext("discarding"),
  }[kind] || "";
}

function pips(capacity, max) {
  const box = el("span", {
    class: "pips",
    role: "img",
    "aria-label": fmt(gettext("Hand limit %(c)s of %(max)s"), { c: capacity, max }),
    title: fmt(gettext("Hand limit %(c)s of %(max)s"), { c: capacity, max }),
  });
  for (let i = 0; i < max; i++) box.append(el("span", { class: i < capacity ? "pip on" : "pip off" }));
  return box;
}

function ring() {
  const s = svg("svg", { class: "seat-ring", viewBox: "0 0 48 48", "aria-hidden": "true" });
  s.append(svg("circle", { class: "seat-ring-bg", cx: 24, cy: 24, r: 21 }));
  s.append(svg("circle", { class: "seat-ring-fg", cx: 24, cy: 24, r: 21, "stroke-dasharray": RING, "stroke-dashoffset": 0 }));
  return s;
}

// What the seat says of aiming: while this viewer aims (o.aims: seat -> {ok, why, words, onAim}),
// whether it is a target and why not; else whether a volley waits on it (o.shownVolley).
function aimParts(p, o) {
  const aim = o.aims ? o.aims.get(p.seat) : null;
  if (aim) {
    return {
      classes: [aim.ok ? "aim-ok" : "aim-no"],
      badge: el("span", { class: `aim-badge${aim.ok ? "" : " no"}`, "aria-hidden": "true", text: aimBadge(aim.why) }),
      words: aim.words,
      attrs: { "data-aim": aim.ok ? "ok" : aim.why, onclick: () => aim.onAim(p.seat) },
    };
  }
  const v = o.shownVolley;
  if (!v || (v.target !== p.seat && v.attacker !== p.seat)) return null;
  if (v.attacker === p.seat) return { classes: ["aiming"], badge: null, words: null, attrs: {} };
  return {
    classes: ["aimed"],
    badge: el("span", { class: "aimed-badge", "aria-hidden": "true", text: volleyBadge(v.count) }),
    words: v.words,
    attrs: { "data-aimed": String(v.count) },
  };
}

// One seat. p: {seat, name, hand_size, damage, max_hand, protected, eliminated, hand, presence,
// you}; o: {shuffler, awaiting, over, winner, pos, faces (show `hand` as faces), aims, shownVolley}
export function seatTile(p, o) {
  const deciding = !o.over && o.awaiting && o.awaiting.seat === p.seat;
  // The view says each seat's hand limit now (max_hand) and its damage; the two make the full limit.
  const capacity = p.max_hand;
  const full = p.max_hand + p.damage;
  const classes = ["seat", `pos-${o.pos || "bottom"}`];
  if (deciding) classes.push("deciding", `deciding-${o.awaiting.kind}`);
  if (p.eliminated) classes.push("eliminated");
  if (p.you) classes.push("me");
  if (p.presence && p.presence.cls === "bot") classes.push("bot");
  if (o.over && o.winner === p.seat) classes.push("winner");
  const aim = aimParts(p, o);
  if (aim) classes.push(...aim.classes);
  const initial = (p.name || "?").trim().charAt(0).toUpperCase() || "?";
  const avatar = el("span", { class: "avatar", "aria-hidden": "true" }, el("span", { class: "avatar-letter", text: initial }), ring());
  const shuffler = o.shuffler === p.seat
    ? el("span", { class: "shuffler-mark", title: gettext("Shuffler"), "aria-label": gettext("Shuffler"), role: "img", text: "S" })
    : null;
  const title = el("h3", { class: "seat-name" },
    el("span", { class: "seat-name-text", text: p.you ? fmt(gettext("%(name)s (you)"), { name: p.name }) : p.name }));
  const presence = p.presence && p.presence.text
    ? el("span", { class: `presence ${p.presence.cls}`, text: p.presence.text })
    : null;
  let hand;
  if (p.eliminated) {
    hand = el("span", { class: "seat-out", text: gettext("Out of the game") });
  } else if (o.faces && p.hand) {
    hand = el("ul", { class: "seat-hand faces rp-hand", "data-seat": p.seat, "aria-label": gettext("Hand") },
      ...p.hand.map((c) => el("li", { class: "mini-card", "data-card": c, title: o.cardName ? o.cardName(c) : c },
        cardImg(c), el("span", { class: "visually-hidden", text: o.cardName ? o.cardName(c) : c }))));
  } else {
    hand = el("span", { class: "seat-hand backs rp-hidden", "data-seat": p.seat },
      el("span", { class: "back-fan", "aria-hidden": "true" },
        ...Array.from({ length: Math.min(p.hand_size, 8) }, () => el("span", { class: "back" }))),
      el("span", { class: "hand-count", text: fmt(ngettext("%(n)s card", "%(n)s cards", p.hand_size), { n: p.hand_size }) }));
  }
  const status = p.eliminated
    ? null
    : el("span", { class: "seat-stats" },
        pips(capacity, full),
        p.protected ? el("span", { class: "shield", role: "img", title: gettext("Protected from moral damage"), "aria-label": gettext("Protected from moral damage") }) : null);
  const marker = deciding
    ? el("p", { class: "deciding-text", text: decidingWords(o.awaiting.kind) })
    : o.over && o.winner === p.seat
      ? el("p", { class: "winner-text", text: gettext("Winner") })
      : null;
  const label = fmt(gettext("Seat %(n)s: %(name)s"), { n: p.seat + 1, name: p.name });
  return el(
    "article",
    {
      class: classes.join(" "),
      "data-seat": p.seat,
      "aria-label": aim && aim.words ? `${label}. ${aim.words}` : label,
      title: aim && aim.words ? aim.words : null,
      ...(aim ? aim.attrs : {}),
    },
    aim ? aim.badge : null,
    el("div", { class: "seat-head" }, avatar, el("div", { class: "seat-id" }, title, presence), shuffler),
    el("div", { class: "seat-body" }, hand, status),
    marker,
  );
}

// The felt: draw pile, discard pile, direction. t: {draw_pile_size, discard_pile_size,
// discard_top, direction}; cardName(id) for the discard's label.
export function feltParts(t, cardName) {
  const draw = el("div", { class: "pile draw", id: null },
    t.draw_pile_size ? el("span", { class: "pile-card" }, cardImg("back", "pile-img")) : el("span", { class: "pile-card empty small" }),
    el("span", { class: "pile-label", text: fmt(ngettext("Draw pile: %(n)s card", "Draw pile: %(n)s cards", t.draw_pile_size), { n: t.draw_pile_size }) }));
  const discard = el("div", { class: "pile discard" },
    t.discard_top
      ? el("span", { class: "pile-card discard-card", "data-card": t.discard_top }, cardImg(t.discard_top, "pile-img big"))
      : el("span", { class: "pile-card empty" }),
    el("span", { class: "pile-label", text: t.discard_top ? fmt(gettext("Discard pile: %(card)s on top"), { card: cardName(t.discard_top) }) : gettext("Discard pile: empty") }));
  const cw = t.direction === "cw";
  const dir = el("div", { class: `direction dir-${t.direction}`, "data-direction": t.direction },
    el("span", { class: "dir-arrow", "aria-hidden": "true", text: cw ? "↻" : "↺" }),
    el("span", { class: "dir-label", text: cw ? gettext("Clockwise") : gettext("Counterclockwise") }));
  return { draw, discard, dir };
}

// The volley waiting for its answer, with names, as the seats show it (null: none).
export function shownVolley(m) {
  const v = pendingVolley(m);
  if (!v) return null;
  const name = (seat) => (m.players.find((p) => p.seat === seat) || { name: "" }).name;
  return { ...v, words: volleyWords(name(v.attacker), name(v.target), v.count) };
}

// Fill `root` (a .table-area) with the seats and the felt. m: {players (with names etc.), bottom,
// withBottom, shuffler, awaiting, volley, over, winner, faces, cardName, aims, pile fields}.
export function drawTable(root, m) {
  const order = seatsInPlayOrder(m.players.length, m.bottom);
  const others = order.slice(1);
  const pos = POSITIONS[others.length] || others.map(() => "top");
  root.dataset.opponents = String(others.length);
  const bySeat = new Map(m.players.map((p) => [p.seat, p]));
  const volley = shownVolley(m);
  const o = { ...m, shownVolley: volley };
  root.classList.toggle("aiming-now", Boolean(m.aims));
  const tiles = [];
  others.forEach((seat, i) => tiles.push(seatTile(bySeat.get(seat), { ...o, pos: pos[i] })));
  if (m.withBottom && order.length) tiles.push(seatTile(bySeat.get(order[0]), { ...o, pos: "bottom" }));
  const seats = m.seatsBox || root.querySelector(".seats");
  seats.replaceChildren(...tiles);
  const felt = feltParts(m, m.cardName || ((c) => c));
  const box = m.feltBox || root.querySelector(".felt");
  if (m.feltBox) {
    // the game page keeps its named boxes (draw-pile, discard-pile, direction)
    m.feltBox.drawBox.replaceChildren(...felt.draw.childNodes);
    m.feltBox.discardBox.replaceChildren(...felt.discard.childNodes);
    m.feltBox.dirBox.replaceChildren(...felt.dir.childNodes);
    m.feltBox.dirBox.dataset.direction = m.direction;
    m.feltBox.dirBox.className = `direction dir-${m.direction}`;
  } else {
    box.replaceChildren(felt.dir, felt.draw, felt.discard);
  }
  drawVolleyLine(root, volley);
}

// The countdown ring of the deciding seat: frac is the share of time left (null: none).
export function setRing(root, frac) {
  for (const c of root.querySelectorAll(".seat-ring-fg")) {
    const tile = c.closest(".seat");
    const on = tile && tile.classList.contains("deciding") && frac !== null;
    c.setAttribute("stroke-dashoffset", String(on ? RING * (1 - frac) : RING));
    if (tile) tile.classList.toggle("urgent", on && frac < 0.2);
  }
}

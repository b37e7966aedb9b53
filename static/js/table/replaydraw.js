// Drawing one replay frame: the table as the game page draws it, the status line under it, the
// step's words, the log's lines and the capacity chart. No stepping here: the viewer
// (table/replayviewer.js) decides which frame to show and calls these.

import { el, gettext, interpolate } from "../core/dom.js";
import { drawTable as drawSeats, setRing } from "./tableview.js";
import { describe } from "./words.js";

export const COLORS = ["#2f6b3a", "#c2410c", "#1d4ed8", "#9333ea", "#b45309", "#0f766e"];
const SVG = "http://www.w3.org/2000/svg";

// A seat's name: the player's, #n where the document names none, "–" for no seat.
export function playerName(names, seat) {
  return seat === null || seat === undefined ? "–" : names[seat] ?? `#${seat + 1}`;
}

// The seat a perspective ("seat:2") looks from, or null ("all", "spectator").
export function viewerSeat(perspective) {
  return perspective.startsWith("seat:") ? Number(perspective.split(":")[1]) : null;
}

export function perspectiveLabel(p, names) {
  if (p === "all") return gettext("Every hand");
  if (p === "spectator") return gettext("Spectator (no hands)");
  const seat = Number(p.split(":")[1]);
  return interpolate(gettext("As %(name)s saw it"), { name: names[seat] ?? `#${seat + 1}` }, true);
}

// The same words as the game page's log (words.js); the frame's own text when it has none.
export function frameWords(ctx, f) {
  try {
    return describe(ctx, f.event).text || f.text;
  } catch {
    return f.text;
  }
}

export function logItem(ctx, f, i, turnStart) {
  return el("li", { "data-step": i, class: turnStart ? "rp-turn-start" : null, text: frameWords(ctx, f) });
}

export function positionText(step, last, turn) {
  return interpolate(gettext("Step %(step)s of %(last)s · turn %(turn)s"), { step, last, turn }, true);
}

// The line under the table: who won, or whose turn it is and what they are deciding.
export function statusText(s, names) {
  const name = (seat) => playerName(names, seat);
  const kinds = {
    turn: gettext("taking a turn"),
    volley: gettext("answering Hare Cumi"),
    skip: gettext("answering a skip"),
    discard: gettext("discarding"),
  };
  if (s.over) {
    return s.result === "win" ? interpolate(gettext("%(name)s won"), { name: name(s.winner) }, true) : gettext("Game over");
  }
  if (s.awaiting) {
    return interpolate(
      gettext("Turn %(n)s · %(name)s is %(what)s"),
      { n: s.turn_number, name: name(s.awaiting.seat), what: kinds[s.awaiting.kind] || s.awaiting.kind },
      true,
    );
  }
  return interpolate(gettext("Turn %(n)s"), { n: s.turn_number }, true);
}

// The same table as the game page: seats around the felt, card art, pips and shields; every
// hand face up where the chosen perspective shows it. `box` is #replay-table.
export function drawTable(box, s, { names, perspective, cardName, bots = [] }) {
  let area = box.querySelector(".table-area");
  if (!area) {
    area = el("div", { class: "table-area" }, el("div", { class: "seats" }), el("div", { class: "felt" }));
    const line = el("p", { class: "rp-status", "data-field": "awaiting" });
    box.replaceChildren(area, line);
  }
  const viewer = viewerSeat(perspective);
  const players = s.players.map((p) => ({
    ...p,
    name: playerName(names, p.seat),
    you: false,
    presence: bots[p.seat] ? { cls: "bot", text: gettext("bot") } : null,
    hand: s.hands ? s.hands[p.seat] : s.seat === p.seat && s.hand ? s.hand : null,
  }));
  drawSeats(area, { ...s, players, bottom: viewer === null ? 0 : viewer, withBottom: true, faces: true, cardName });
  for (const tile of area.querySelectorAll(".seat")) tile.classList.add("rp-seat");
  setRing(area, s.awaiting && !s.over ? 1 : null);
  box.querySelector(".rp-status").textContent = statusText(s, names);
}

// One seat's capacity over the frames as an SVG path of steps: x(i) and y(capacity) place the
// points, each seat a little lower than the one before so equal lines stay apart.
export function capacityPath(frames, seat, x, y, width) {
  let d = "";
  let prev = null;
  for (let i = 0; i < frames.length; i++) {
    const c = frames[i].capacity[seat];
    if (prev === null) d += `M${x(i).toFixed(1)},${(y(c) + seat * 1.5).toFixed(1)}`;
    else if (c !== prev) d += `H${x(i).toFixed(1)}V${(y(c) + seat * 1.5).toFixed(1)}`;
    prev = c;
  }
  return d + `H${width}`;
}

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// Every seat's capacity over the game in `box` (#replay-chart), with a legend; a click picks the
// step under it (onPick(step)). Returns mark(step), which moves the chart's marker to a step.
export function drawChart(box, frames, names, onPick) {
  const n = frames.length;
  const W = 1000, H = 180, pad = 14;
  const top = Math.max(5, ...frames[0].capacity);
  const x = (i) => (n > 1 ? (i / (n - 1)) * W : 0);
  const y = (c) => pad + (1 - c / top) * (H - 2 * pad);
  const svg = svgNode("svg", {
    viewBox: `0 0 ${W} ${H}`,
    preserveAspectRatio: "none",
    role: "img",
    "aria-label": gettext("Each player's capacity over the game; click to jump there"),
  });
  for (let c = 0; c <= top; c++) {
    svg.append(svgNode("line", { x1: 0, x2: W, y1: y(c), y2: y(c), stroke: "#eee7d6", "stroke-width": 1 }));
  }
  const seats = frames[0].capacity.length;
  for (let s = 0; s < seats; s++) {
    svg.append(svgNode("path", {
      d: capacityPath(frames, s, x, y, W),
      fill: "none",
      stroke: COLORS[s % COLORS.length],
      "stroke-width": "2.5",
      "vector-effect": "non-scaling-stroke",
    }));
  }
  const marker = svgNode("line", {
    y1: "0", y2: String(H), stroke: "#111", "stroke-width": "2", "vector-effect": "non-scaling-stroke", class: "rp-marker",
  });
  svg.append(marker);
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const frac = Math.max(0, Math.min(1, (e.clientX - r.left) / r.width));
    onPick(Math.round(frac * (frames.length - 1)));
  });
  const legend = el("div", { class: "rp-legend" },
    ...names.map((nm, s) => el("span", { class: `rp-c${s % COLORS.length}`, text: nm })));
  box.replaceChildren(svg, legend);
  return (step) => {
    marker.setAttribute("x1", String(x(step)));
    marker.setAttribute("x2", String(x(step)));
  };
}

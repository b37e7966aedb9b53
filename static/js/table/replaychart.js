// The replay viewer's capacity chart: each player's capacity (5 − damage) over the game, a line
// per seat, with a marker at the step shown; a click jumps to the step under it.

import { el, gettext } from "../core/dom.js";

const COLORS = ["#2f6b3a", "#c2410c", "#1d4ed8", "#9333ea", "#b45309", "#0f766e"];
const NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// Draw the chart of `frames` into `box`; returns {mark(step)}. go(step) is called on a click.
export function drawCapacityChart(box, frames, names, go) {
  const n = frames.length;
  const W = 1000, H = 180, pad = 14;
  const top = Math.max(5, ...frames[0].capacity);
  const x = (i) => (n > 1 ? (i / (n - 1)) * W : 0);
  const y = (c) => pad + (1 - c / top) * (H - 2 * pad);
  const svg = svgEl("svg", {
    viewBox: `0 0 ${W} ${H}`,
    preserveAspectRatio: "none",
    role: "img",
    "aria-label": gettext("Each player's capacity over the game; click to jump there"),
  });
  for (let c = 0; c <= top; c++) svg.append(svgEl("line", { x1: 0, x2: W, y1: y(c), y2: y(c), stroke: "#eee7d6", "stroke-width": 1 }));
  const seats = frames[0].capacity.length;
  for (let s = 0; s < seats; s++) {
    let d = "";
    let prev = null;
    for (let i = 0; i < n; i++) {
      const c = frames[i].capacity[s];
      if (prev === null) d += `M${x(i).toFixed(1)},${(y(c) + s * 1.5).toFixed(1)}`;
      else if (c !== prev) d += `H${x(i).toFixed(1)}V${(y(c) + s * 1.5).toFixed(1)}`;
      prev = c;
    }
    d += `H${W}`;
    svg.append(svgEl("path", { d, fill: "none", stroke: COLORS[s % COLORS.length], "stroke-width": "2.5", "vector-effect": "non-scaling-stroke" }));
  }
  const marker = svgEl("line", { y1: 0, y2: H, stroke: "#111", "stroke-width": 2, "vector-effect": "non-scaling-stroke", class: "rp-marker" });
  svg.append(marker);
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    const frac = Math.max(0, Math.min(1, (e.clientX - r.left) / r.width));
    go(Math.round(frac * (frames.length - 1)));
  });
  const legend = el("div", { class: "rp-legend" }, ...names.map((nm, s) => el("span", { class: `rp-c${s % COLORS.length}`, text: nm })));
  box.replaceChildren(svg, legend);
  return {
    mark(step) {
      marker.setAttribute("x1", String(x(step)));
      marker.setAttribute("x2", String(x(step)));
    },
  };
}

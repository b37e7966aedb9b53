// The win-chance graph of a game's analysis (docs/ANALYSIS.md): one line per player, the 1/N
// baseline, marks on the labelled decisions and the current step. Pure: it returns SVG markup and
// maps a click to a step, so it runs in Node's tests; the replay page mounts it
// (table/analysisview.js), drawn at the box's own pixel width so marks stay round.

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const MARK_FILL = { inaccuracy: "#facc15", mistake: "#f97316", blunder: "#dc2626" };

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The x of step `i` of `steps` across `width` (the first step at 0, the last at width).
export function xOf(i, steps, width) {
  return steps > 1 ? (i * width) / (steps - 1) : 0;
}

// The step nearest to `x` (a click or tap on the graph), clamped to the game's steps.
export function stepAt(x, steps, width) {
  if (steps <= 1 || width <= 0) return 0;
  const i = Math.round((x / width) * (steps - 1));
  return Math.max(0, Math.min(steps - 1, i));
}

// The y of a chance (0..1) in a graph `height` high, `pad` kept free above and below.
export function yOf(p, height, pad = 0) {
  return pad + (1 - p) * (height - 2 * pad);
}

// SVG markup for `chances` (one [seat's chance, ...] per step, 0..1), `names` and `colours` per
// seat, the `current` step, and `marks` ([{step, seat, label, title}]: labelled decisions, drawn
// on their seat's line). `pad` keeps the 0% and 100% lines clear of the edges. With a `gutter`
// the scale's words stand in a strip that wide at the left, the graph to the right of it (its x
// from 0 to width − gutter), so no line or mark covers them: a mark on a seat at 0% hid the "0%".
export function winChartSvg({ chances, names, current = 0, width = 600, height = 120, colours = COLOURS, marks = [], pad = 0, label = "", gutter = 0 }) {
  if (gutter > 0) {
    const y = (p) => yOf(p, height, pad);
    // The graph drawn without a gutter, its own scale's words taken out, moved right of the strip.
    const plot = winChartSvg({ chances, names, current, width: width - gutter, height, colours, marks, pad, label: "" });
    const body = plot.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "").replace(/<text class="win-scale"[^>]*>[^<]*<\/text>/g, "");
    const scale = [1, 0.5, 0].map((p) => {
      const ty = (y(p) + (p === 1 ? 8 : p === 0 ? 0 : 4)).toFixed(1);
      return `<text class="win-scale" x="${gutter - 4}" y="${ty}" font-size="10" text-anchor="end" fill="#6b665c">${100 * p}%</text>`;
    });
    const aria = label ? ` aria-label="${escape(label)}"` : "";
    return `<svg class="win-chart" viewBox="0 0 ${width} ${height}" width="100%" role="img"${aria}>${scale.join("")}<g class="win-plot" transform="translate(${gutter} 0)">${body}</g></svg>`;
  }
  const steps = chances.length;
  const players = steps ? chances[0].length : names.length;
  const y = (p) => yOf(p, height, pad).toFixed(1);
  const parts = [];
  for (const p of [0, 0.5, 1]) {
    parts.push(`<line class="win-grid" x1="0" x2="${width}" y1="${y(p)}" y2="${y(p)}" stroke="#eee7d6"/>`);
  }
  const base = y(players ? 1 / players : 0);
  parts.push(`<line class="win-baseline" x1="0" x2="${width}" y1="${base}" y2="${base}" stroke="#999" stroke-dasharray="4 4"/>`);
  for (let seat = 0; seat < players; seat += 1) {
    const points = chances.map((row, i) => `${xOf(i, steps, width).toFixed(1)},${y(row[seat])}`).join(" ");
    parts.push(
      `<polyline class="win-line" data-seat="${seat}" fill="none" stroke="${colours[seat % colours.length]}" ` +
        `stroke-width="2" points="${points}"><title>${escape(names[seat] ?? `Seat ${seat + 1}`)}</title></polyline>`,
    );
  }
  if (pad) {
    // The scale, at the left edge (over the lines, haloed): under the 100% line, over the others.
    for (const p of [1, 0.5, 0]) {
      const ty = (yOf(p, height, pad) + (p === 1 ? 11 : -3)).toFixed(1);
      parts.push(`<text class="win-scale" x="3" y="${ty}" font-size="10" fill="#6b665c" stroke="#fff" stroke-width="3" paint-order="stroke">${100 * p}%</text>`);
    }
  }
  for (const m of marks) {
    if (m.step < 0 || m.step >= steps) continue;
    const cx = xOf(m.step, steps, width).toFixed(1);
    const cy = y(chances[m.step][m.seat]);
    parts.push(
      `<circle class="win-mark win-${escape(m.label)}" data-step="${m.step}" data-seat="${m.seat}" cx="${cx}" cy="${cy}" r="5" ` +
        `fill="${MARK_FILL[m.label] || "#999"}" stroke="${colours[m.seat % colours.length]}" stroke-width="2">` +
        `<title>${escape(m.title ?? "")}</title></circle>`,
    );
  }
  const at = xOf(Math.max(0, Math.min(current, steps - 1)), steps, width).toFixed(1);
  parts.push(`<line class="win-current" x1="${at}" x2="${at}" y1="0" y2="${height}" stroke="#333"/>`);
  const aria = label ? ` aria-label="${escape(label)}"` : "";
  return `<svg class="win-chart" viewBox="0 0 ${width} ${height}" width="100%" role="img"${aria}>${parts.join("")}</svg>`;
}

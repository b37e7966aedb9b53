// The win-chance graph of a game's analysis (docs/ANALYSIS.md): one line per player, the 1/N
// baseline, the current step marked. Pure: it returns SVG markup and maps a click to a step, so
// it runs in node's tests; the replay page would mount it (not wired in yet).

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

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

// SVG markup for `chances` (one [seat's chance, ...] per step, 0..1), `names` per seat and the
// `current` step.
export function winChartSvg({ chances, names, current = 0, width = 600, height = 120 }) {
  const steps = chances.length;
  const players = steps ? chances[0].length : names.length;
  const y = (p) => (height - p * height).toFixed(1);
  const lines = [];
  for (let seat = 0; seat < players; seat += 1) {
    const points = chances.map((row, i) => `${xOf(i, steps, width).toFixed(1)},${y(row[seat])}`).join(" ");
    lines.push(
      `<polyline class="win-line" data-seat="${seat}" fill="none" stroke="${COLOURS[seat % COLOURS.length]}" ` +
        `stroke-width="2" points="${points}"><title>${escape(names[seat] ?? `Seat ${seat + 1}`)}</title></polyline>`,
    );
  }
  const base = y(players ? 1 / players : 0);
  const at = xOf(Math.max(0, Math.min(current, steps - 1)), steps, width).toFixed(1);
  return (
    `<svg class="win-chart" viewBox="0 0 ${width} ${height}" width="100%" role="img">` +
    `<line class="win-baseline" x1="0" x2="${width}" y1="${base}" y2="${base}" stroke="#999" stroke-dasharray="4 4"/>` +
    lines.join("") +
    `<line class="win-current" x1="${at}" x2="${at}" y1="0" y2="${height}" stroke="#333"/>` +
    `</svg>`
  );
}

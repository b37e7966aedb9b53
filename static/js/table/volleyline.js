// The arrow of a volley across the table: from the attacker's seat to its target's, edge to edge,
// under the seats. When the target is the viewer's own seat (drawn below the table on the game
// page) the arrow points to the table's bottom edge. Redrawn when the table changes size.

const NS = "http://www.w3.org/2000/svg";
const shown = new WeakMap(); // table root -> the volley drawn on it
const watched = new WeakSet();

function svg(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// Where the segment from the centre of rect `r` toward point `p` leaves the rect (plus `gap`).
export function edgePoint(r, p, gap = 4) {
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  const dx = p.x - cx;
  const dy = p.y - cy;
  if (!dx && !dy) return { x: cx, y: cy };
  const t = Math.min(dx ? r.width / 2 / Math.abs(dx) : Infinity, dy ? r.height / 2 / Math.abs(dy) : Infinity);
  const len = Math.hypot(dx, dy);
  const k = Math.min(1, t + gap / len);
  return { x: cx + dx * k, y: cy + dy * k };
}

function rel(node, box) {
  const r = node.getBoundingClientRect();
  return { x: r.left - box.left, y: r.top - box.top, width: r.width, height: r.height };
}

function place(root) {
  const v = shown.get(root);
  let line = root.querySelector(":scope > svg.volley-line");
  const from = v && root.querySelector(`.seat[data-seat="${v.attacker}"]`);
  if (!v || !from) {
    if (line) line.remove();
    return;
  }
  const box = root.getBoundingClientRect();
  if (!box.width) return;
  const to = root.querySelector(`.seat[data-seat="${v.target}"]`);
  const a = rel(from, box);
  const b = to ? rel(to, box) : { x: box.width / 2 - 1, y: box.height - 2, width: 2, height: 2 };
  const start = edgePoint(a, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
  const end = to ? edgePoint(b, { x: a.x + a.width / 2, y: a.y + a.height / 2 }, 6) : { x: b.x, y: b.y };
  if (!line) {
    line = svg("svg", { class: "volley-line", "aria-hidden": "true" });
    const marker = svg("marker", { id: "volley-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "volley-arrow" }));
    const defs = svg("defs", {});
    defs.append(marker);
    line.append(defs, svg("line", { class: "volley-path", "marker-end": "url(#volley-arrow)" }));
    root.prepend(line);
  }
  line.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
  const path = line.querySelector("line");
  for (const [k, val] of Object.entries({ x1: start.x, y1: start.y, x2: end.x, y2: end.y })) path.setAttribute(k, val.toFixed(1));
  line.dataset.attacker = String(v.attacker);
  line.dataset.target = String(v.target);
}

// Draw (or take away, volley null) the arrow of `volley` ({attacker, target}) on table `root`.
export function drawVolleyLine(root, volley) {
  if (volley) shown.set(root, volley);
  else shown.delete(root);
  place(root);
  if (volley && !watched.has(root) && typeof ResizeObserver === "function") {
    watched.add(root);
    new ResizeObserver(() => place(root)).observe(root);
  }
}

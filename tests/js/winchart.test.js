// The win-chance graph's markup and its click-to-step mapping (static/js/table/winchart.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { stepAt, winChartSvg, xOf } from "../../static/js/table/winchart.js";

const chances = [
  [0.25, 0.25, 0.25, 0.25],
  [0.5, 0.1, 0.2, 0.2],
  [1, 0, 0, 0],
];

test("one line per player, the 1/N baseline and the current step are drawn", () => {
  const svg = winChartSvg({ chances, names: ["Ann", "Bo <b>", "Cy", "Di"], current: 1, width: 200, height: 100 });
  assert.equal((svg.match(/class="win-line"/g) || []).length, 4);
  assert.match(svg, /class="win-baseline" x1="0" x2="200" y1="75.0" y2="75.0"/);
  assert.match(svg, /class="win-current" x1="100.0" x2="100.0"/);
  assert.match(svg, /data-seat="0"[^>]*points="0.0,75.0 100.0,50.0 200.0,0.0"/);
  assert.match(svg, /Bo &#60;b&#62;/); // names are escaped
});

test("a click maps to the nearest step, clamped to the game", () => {
  assert.equal(stepAt(0, 3, 200), 0);
  assert.equal(stepAt(60, 3, 200), 1);
  assert.equal(stepAt(160, 3, 200), 2);
  assert.equal(stepAt(999, 3, 200), 2);
  assert.equal(stepAt(-5, 3, 200), 0);
  assert.equal(stepAt(50, 1, 200), 0);
  assert.equal(xOf(2, 3, 200), 200);
});

test("with a gutter the scale stands left of the graph, clear of its lines and marks", () => {
  const marks = [{ step: 2, seat: 1, label: "blunder", title: "x" }]; // a mark at 0%, over the "0%" before
  const svg = winChartSvg({ chances, names: ["Ann", "Bo", "Cy", "Di"], width: 234, height: 100, pad: 7, marks, gutter: 34 });
  const scale = [...svg.matchAll(/<text class="win-scale" x="([\d.]+)"[^>]*>([^<]*)</g)].map((m) => [Number(m[1]), m[2]]);
  assert.deepEqual(scale.map((s) => s[1]), ["100%", "50%", "0%"]);
  assert.ok(scale.every(([x]) => x <= 34)); // right-aligned in the strip
  assert.match(svg, /<g class="win-plot" transform="translate\(34 0\)">/);
  // Inside the strip's right: the graph is 200 wide, its last step at x 200 of the group.
  assert.match(svg, /data-seat="0"[^>]*points="0.0,[\d.]+ 100.0,[\d.]+ 200.0,7.0"/);
  assert.match(svg, /class="win-mark win-blunder" data-step="2" data-seat="1" cx="200.0"/);
  assert.equal((svg.match(/class="win-scale"/g) || []).length, 3); // once, not again inside the graph
});

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

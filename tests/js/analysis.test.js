// The replay analysis's rules with no page (static/js/table/analysis.js): which decisions a
// player filter keeps, where "next mistake" lands, options and verdicts in words, the tables' rows
// and one step's figures; and the graph's marks (table/winchart.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  analysisErrorWords,
  betterText,
  chartMarks,
  cycleMistake,
  decisionsOf,
  figuresText,
  labelledOf,
  luckPerDecisionText,
  nextMistake,
  optionWords,
  plusMinusPoints,
  prevMistake,
  progressText,
  shownUnderFilter,
  signedPerDecision,
  signedPoints,
  stepFigures,
  summaryRows,
  verdictText,
} from "../../static/js/table/analysis.js";
import { keyAction } from "../../static/js/table/replaysteps.js";
import { winChartSvg } from "../../static/js/table/winchart.js";

const ctx = { names: ["ann", "bob", "cat"], cardName: (c) => ({ cumi: "Hare Cumi", taptap: "Hare Taptap", zada: "Hare Zada" })[c] || c };
const option = (command, win) => ({ command, win, se: 0.02 });
const decision = (step, seat, label, extra = {}) => ({
  step,
  seat,
  kind: "turn",
  options: [option({ seat, play: ["zada"] }, 0.2), option({ seat, play: ["cumi", "cumi"], target: (seat + 1) % 3 }, 0.38)],
  chosen: 0,
  best: label ? 1 : 0,
  drop: label ? 0.18 : 0,
  se: 0.03,
  label,
  accuracy: label ? 50 : 100,
  ...extra,
});
// Out of order on purpose: the helpers go by step.
const decisions = [
  decision(40, 1, "mistake"),
  decision(10, 0, null),
  decision(25, 0, "blunder"),
  decision(31, 2, null),
  decision(12, 1, "inaccuracy"),
];

test("the filter keeps one player's decisions, in the game's order", () => {
  assert.deepEqual(decisionsOf(decisions, 0).map((d) => d.step), [10, 25]);
  assert.deepEqual(decisionsOf(decisions).map((d) => d.step), [10, 12, 25, 31, 40]);
  assert.deepEqual(labelledOf(decisions, 1).map((d) => d.step), [12, 40]);
  assert.deepEqual(labelledOf(decisions, 2), []);
  // Log lines: all without a filter; with one, only that player's judged decisions.
  assert.equal(shownUnderFilter(decisions, 11, null), true);
  assert.equal(shownUnderFilter(decisions, 10, 0), true);
  assert.equal(shownUnderFilter(decisions, 12, 0), false);
  assert.equal(shownUnderFilter(decisions, 11, 0), false);
});

test("next mistake goes to the next labelled decision, round to the first, per player", () => {
  assert.equal(nextMistake(decisions, 0), 12);
  assert.equal(nextMistake(decisions, 12), 25);
  assert.equal(nextMistake(decisions, 40), null);
  assert.equal(nextMistake(decisions, 0, 1), 12);
  assert.equal(nextMistake(decisions, 12, 1), 40);
  assert.equal(nextMistake(decisions, 0, 2), null);
  assert.equal(prevMistake(decisions, 40), 25);
  assert.equal(prevMistake(decisions, 12), null);
  assert.equal(cycleMistake(decisions, 40), 12); // round again from the start
  assert.equal(cycleMistake(decisions, 41, 0), 25);
  assert.equal(cycleMistake(decisions, 12, null, true), 40); // backwards, round from the end
  assert.equal(cycleMistake(decisions, 0, 2), null); // nothing to find
  assert.equal(cycleMistake([], 5), null);
});

test("options and verdicts in words", () => {
  assert.equal(optionWords({ seat: 0, play: ["cumi", "cumi"], target: 1 }, "turn", ctx), "2 × Hare Cumi at bob");
  assert.equal(optionWords({ seat: 0, play: ["cumi"], target: 2 }, "turn", ctx), "Hare Cumi at cat");
  assert.equal(optionWords({ seat: 0, play: ["zada"] }, "turn", ctx), "Hare Zada");
  assert.equal(optionWords({ seat: 0, react: "taptap" }, "volley", ctx), "Hare Taptap");
  assert.equal(optionWords({ seat: 0, react: "none" }, "volley", ctx), "taking it");
  assert.equal(optionWords({ seat: 0, react: "none" }, "skip", ctx), "not forwarding the skip");
  assert.equal(optionWords({ seat: 0, discard: ["zada", "zada", "cumi"] }, "discard", ctx), "discarding 2 × Hare Zada, Hare Cumi");
  assert.equal(optionWords({ seat: 0, burn: "mini" }, "turn", ctx), "burning mini");
  const d = decision(25, 0, "blunder");
  assert.equal(betterText(d, ctx), "better: 2 × Hare Cumi at bob, +18%");
  assert.equal(verdictText(d, ctx), "?? Blunder: better: 2 × Hare Cumi at bob, +18%");
  assert.equal(verdictText(decision(10, 0, null), ctx), null);
  assert.equal(verdictText(null, ctx), null);
});

test("the graph marks labelled decisions on their player's line, with the verdict as caption", () => {
  const marks = chartMarks(decisions, ctx);
  assert.deepEqual(marks.map((m) => [m.step, m.seat, m.label]), [[12, 1, "inaccuracy"], [25, 0, "blunder"], [40, 1, "mistake"]]);
  assert.equal(marks[1].title, "ann: ?? Blunder: better: 2 × Hare Cumi at bob, +18%");
  assert.deepEqual(chartMarks(decisions, ctx, 0).map((m) => m.step), [25]);
  const chances = Array.from({ length: 41 }, () => [0.5, 0.25, 0.25]);
  const svg = winChartSvg({ chances, names: ctx.names, width: 400, height: 100, marks });
  assert.equal((svg.match(/class="win-mark/g) || []).length, 3);
  assert.match(svg, /class="win-mark win-blunder" data-step="25" data-seat="0" cx="250.0" cy="50.0"/);
  assert.match(svg, /<title>ann: \?\? Blunder: better: 2 × Hare Cumi at bob, \+18%<\/title>/);
  // A mark past the game's steps is left out, not drawn off the graph.
  assert.doesNotMatch(winChartSvg({ chances, names: ctx.names, marks: [{ step: 99, seat: 0, label: "blunder" }] }), /win-mark/);
});

test("each luck figure with its standard error, in points, per language", () => {
  const decimal = (lang) => new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format;
  const en = decimal("en"), cs = decimal("cs");
  // Shares of 1, as `luck_se` holds them: 0.0974 is 9.7 points; a no-break space after the sign.
  assert.equal(plusMinusPoints(0.0974, en), "±\u00a09.7");
  assert.equal(plusMinusPoints(0.0974, cs), "±\u00a09,7"); // Czech: decimal comma
  assert.equal(plusMinusPoints(0.2345, cs), "±\u00a023,5");
  assert.equal(plusMinusPoints(0.1, cs), "±\u00a010,0");
  assert.equal(plusMinusPoints(0.004, en), "±\u00a00.4"); // a small error is not rounded away
  assert.equal(plusMinusPoints(0.0974), "±\u00a09.7"); // the default: a point
  // Per decision of the player: a game's +56 points over 26 decisions is +2.2 a decision, on the
  // graph's scale (a game's sums reached "+155 ± 36", which read as impossible beside percent).
  assert.equal(luckPerDecisionText(0.5625, 0.2095, 26, cs), "+2,2 ±\u00a00,8");
  assert.equal(luckPerDecisionText(-0.036, 0.2311, 4, en), "−0.9 ±\u00a05.8");
  assert.equal(luckPerDecisionText(0.124, undefined, 10, en), "+1.2"); // no standard error: the figure alone
  assert.equal(luckPerDecisionText(0.124, 0.1, 0, en), "–"); // no decision to spread it over
  assert.equal(signedPerDecision(0.0004, 10, en), "0.0");
  assert.equal(signedPerDecision(-1.55, 40, en), "−3.9");
  // The rows carry each seat's errors beside its luck, when the analysis has both.
  const base = { players: 2, chances: [[0.5, 0.5]], decisions: [], accuracy: [null, null] };
  const luck = [{ decisions: 0.1, draws: -0.05, others: 0.45 }, { decisions: -0.1, draws: 0.05, others: -0.45 }];
  const se = [{ decisions: 0.097, draws: 0.23, others: 0.25 }, { decisions: 0.05, draws: 0.2, others: 0.21 }];
  const rows = summaryRows({ ...base, luck, luck_se: se }, ["ann", "bob"]);
  assert.deepEqual(rows.map((r) => r.luckSe), se);
  assert.deepEqual(summaryRows({ ...base, luck }, ["ann", "bob"]).map((r) => r.luckSe), [null, null]);
  assert.deepEqual(summaryRows({ ...base, luck_se: se }, ["ann", "bob"]).map((r) => r.luckSe), [null, null]);
});

test("the accuracy and luck tables' rows, and one step's figures", () => {
  const analysis = {
    players: 3,
    chances: [[0.3333, 0.3333, 0.3333], [0.5, 0.2, 0.25], [1, 0, 0]],
    decisions,
    accuracy: [74.2, 88, null],
  };
  const rows = summaryRows(analysis, ctx.names);
  assert.deepEqual(rows.map((r) => [r.name, r.accuracy, r.judged, r.counts.blunder, r.counts.mistake, r.counts.inaccuracy, r.luck]), [
    ["ann", 74.2, 2, 1, 0, 0, null],
    ["bob", 88, 2, 0, 1, 1, null],
    ["cat", null, 1, 0, 0, 0, null],
  ]);
  // Shares of 1, as the analysis stores them: 0.124 is 12 points of win chance.
  const luck = [{ decisions: 0.124, draws: -0.036, others: 0.002 }, { decisions: -0.08, draws: 0.02, others: 0.01 }, { decisions: 0, draws: 0, others: -0.04 }];
  assert.deepEqual(summaryRows({ ...analysis, luck }, ctx.names)[0].luck, luck[0]);
  assert.deepEqual([0.124, -0.036, 0.002].map(signedPoints), ["+12", "−4", "0"]);
  assert.deepEqual(stepFigures(analysis, 1), [
    { seat: 0, chance: 50, placing: null },
    { seat: 1, chance: 20, placing: null },
    { seat: 2, chance: 25, placing: null },
  ]);
  assert.equal(stepFigures(analysis, 99)[0].chance, 100); // clamped to the last step
  const placings = [[2, 2, 2], [1.6, 2.4, 2], [1, 2.5, 2.5]];
  const figures = stepFigures({ ...analysis, placings }, 1);
  assert.equal(figuresText(figures, ctx.names), "ann 50% (place 1.6), bob 20% (place 2.4), cat 25% (place 2.0)");
  assert.equal(figuresText(stepFigures(analysis, 2), ctx.names), "ann 100%, bob 0%, cat 0%");
  const czech = new Intl.NumberFormat("cs", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format;
  assert.match(figuresText(figures, ctx.names, czech), /^ann 50% \(place 1,6\)/);
});

test("progress and refusals in words", () => {
  assert.equal(progressText({ status: "running", progress: { done: 41, total: 100 } }), "Analysing: 41%");
  assert.equal(progressText({ status: "queued", progress: { done: 0, total: 0 } }), "Waiting for a worker to start the analysis…");
  assert.equal(analysisErrorWords("throttled", "1800"), "You have asked for many analyses lately: try again in 30 min.");
  assert.equal(analysisErrorWords("throttled", "20"), "You have asked for many analyses lately: try again in 20 s.");
  assert.match(analysisErrorWords("analysis_pending"), /another analysis/);
  assert.equal(analysisErrorWords("who_knows"), "That did not work. Try again later.");
});

test("N and Shift+N ask for the next and the previous mistake", () => {
  const key = (k, extra = {}) => keyAction({ key: k, target: { tagName: "BODY" }, ...extra });
  assert.equal(key("n"), "next-mistake");
  assert.equal(key("N", { shiftKey: true }), "prev-mistake");
  assert.equal(key("N"), "next-mistake"); // Caps Lock
  assert.equal(key("n", { ctrlKey: true }), null);
  assert.equal(keyAction({ key: "n", target: { tagName: "INPUT", type: "text" } }), null);
});

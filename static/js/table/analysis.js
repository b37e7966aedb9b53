// A game's analysis (docs/ANALYSIS.md) as the replay page shows it, with no page: which decisions
// a filter keeps, where "next mistake" lands, an option and a verdict in words, the accuracy and
// luck tables' rows, the figures of one step and the API's refusals. The page's part is
// table/analysisview.js; Node tests these (tests/js/analysis.test.js).

import { gettext, interpolate, ngettext } from "../core/dom.js";

export const LABELS = ["inaccuracy", "mistake", "blunder"];
// The chess marks, which players of any game read at a glance.
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

export function labelWord(label) {
  switch (label) {
    case "inaccuracy":
      return gettext("Inaccuracy");
    case "mistake":
      return gettext("Mistake");
    case "blunder":
      return gettext("Blunder");
    default:
      return "";
  }
}

// The decisions of one seat (every seat's for null), in the order of the game.
export function decisionsOf(decisions, seat = null) {
  const mine = seat === null || seat === undefined ? decisions : decisions.filter((d) => d.seat === seat);
  return [...mine].sort((a, b) => a.step - b.step);
}

// The labelled decisions (inaccuracies, mistakes, blunders) of one seat, or of every seat.
export function labelledOf(decisions, seat = null) {
  return decisionsOf(decisions, seat).filter((d) => d.label);
}

// The step of the first labelled decision after `step` (of `seat`, or anyone's), or null.
export function nextMistake(decisions, step, seat = null) {
  const next = labelledOf(decisions, seat).find((d) => d.step > step);
  return next ? next.step : null;
}

// The step of the last labelled decision before `step`, or null.
export function prevMistake(decisions, step, seat = null) {
  const before = labelledOf(decisions, seat).filter((d) => d.step < step);
  return before.length ? before[before.length - 1].step : null;
}

// "Next mistake" as the button and key use it: the next one, else round to the first (null when
// there is none at all).
export function cycleMistake(decisions, step, seat = null, backwards = false) {
  const found = backwards ? prevMistake(decisions, step, seat) : nextMistake(decisions, step, seat);
  if (found !== null) return found;
  const all = labelledOf(decisions, seat);
  if (!all.length) return null;
  return backwards ? all[all.length - 1].step : all[0].step;
}

// The decision recorded at `step`, if any (one at most: a step is one event).
export function decisionAt(decisions, step) {
  return decisions.find((d) => d.step === step) || null;
}

// Whether the log line of `step` is shown under the filter: every line with no seat chosen, the
// seat's own decisions with one.
export function shownUnderFilter(decisions, step, seat) {
  if (seat === null || seat === undefined) return true;
  const d = decisionAt(decisions, step);
  return Boolean(d && d.seat === seat);
}

// One option of a decision in words: "2 × Hare Cumi at bob", "Hare Taptap", "take it".
// `ctx`: {names: [seat's name], cardName(id)}; `kind`: the decision's (turn, volley, skip, discard).
export function optionWords(command, kind, ctx) {
  const card = (id) => ctx.cardName(id);
  const name = (seat) => ctx.names[seat] ?? `#${seat + 1}`;
  const list = (cards) => {
    const counts = new Map();
    for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
    return Array.from(counts, ([c, n]) => (n === 1 ? card(c) : `${n} × ${card(c)}`)).join(", ");
  };
  if (command.play) {
    if (command.target !== undefined && command.target !== null) {
      const n = command.play.length;
      return interpolate(
        ngettext("%(card)s at %(target)s", "%(n)s × %(card)s at %(target)s", n),
        { n, card: card(command.play[0]), target: name(command.target) },
        true,
      );
    }
    return list(command.play);
  }
  if (command.react !== undefined) {
    if (command.react && command.react !== "none") return card(command.react);
    return kind === "skip" ? gettext("not forwarding the skip") : gettext("taking it");
  }
  if (command.discard) return interpolate(gettext("discarding %(cards)s"), { cards: list(command.discard) }, true);
  if (command.burn) return interpolate(gettext("burning %(card)s"), { card: card(command.burn) }, true);
  return gettext("passing");
}

// The drop in whole points of win chance (0.18 -> 18).
export function dropPoints(d) {
  return Math.round(100 * d.drop);
}

// "better: Hare Taptap, +18%": the best option and what it would have added to the win chance.
export function betterText(d, ctx) {
  const best = d.options[d.best];
  return interpolate(
    gettext("better: %(option)s, +%(points)s%"),
    { option: optionWords(best.command, d.kind, ctx), points: dropPoints(d) },
    true,
  );
}

// "?? Blunder: better: Hare Taptap, +18%" (a labelled decision), null otherwise.
export function verdictText(d, ctx) {
  if (!d || !d.label) return null;
  return interpolate(
    gettext("%(mark)s %(label)s: %(better)s"),
    { mark: MARKS[d.label], label: labelWord(d.label), better: betterText(d, ctx) },
    true,
  );
}

// The graph's mark of a labelled decision: where, and its caption ("ann: Mistake ?: better: ...").
export function chartMarks(decisions, ctx, seat = null) {
  return labelledOf(decisions, seat).map((d) => ({
    step: d.step,
    seat: d.seat,
    label: d.label,
    title: interpolate(gettext("%(name)s: %(verdict)s"), { name: ctx.names[d.seat] ?? "", verdict: verdictText(d, ctx) }, true),
  }));
}

// A share of win chance (as `luck` holds it: 0.12) in signed whole points: "+12", "−5" (a true
// minus sign), "0".
export function signedPoints(share) {
  const n = Math.round(100 * share);
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}

// A standard error (a share of win chance, as `luck_se` holds it: 0.0974) in points to a tenth,
// written in the page's language by `decimal` ("9.7"; Czech "9,7"): "± 9.7", the sign and the
// figure joined by a no-break space.
export function plusMinusPoints(se, decimal = (x) => x.toFixed(1)) {
  return `±\u00a0${decimal(Math.round(1000 * se) / 10)}`;
}

// A luck part on the graph's scale: the game's figure (a share of win chance, as `luck` holds it)
// spread over the player's `n` judged decisions, in points to a tenth, signed, written in the
// page's language by `decimal`: 0.5625 over 26 decisions is "+2.2" (Czech "+2,2"); "–" without a
// decision. A game's sums reach ±150 points (gains and losses through different causes cancel
// out), which read as impossible beside a graph in percent; per decision they are the size of a
// verdict's "+11%".
export function signedPerDecision(share, n, decimal = (x) => x.toFixed(1)) {
  if (!(n > 0)) return "–";
  const tenths = Math.round((1000 * share) / n);
  if (tenths === 0) return decimal(0);
  return `${tenths > 0 ? "+" : "−"}${decimal(Math.abs(tenths) / 10)}`;
}

// One luck figure per decision with its noise: "+2.2 ± 0.8" (the standard error spread the same
// way); the figure alone without a standard error.
export function luckPerDecisionText(share, se, n, decimal) {
  const figure = signedPerDecision(share, n, decimal);
  return typeof se === "number" && n > 0 ? `${figure} ${plusMinusPoints(se / n, decimal)}` : figure;
}

// The accuracy table's rows: per seat its accuracy (null: no judged decision), how many of each
// label, and, when the analysis has `luck`, the win chance its own decisions, its draws and the
// others' decisions gained or lost it (shares of 1, as `chances`), with their standard errors
// (`luckSe`, from `luck_se`) when it has them.
export function summaryRows(analysis, names) {
  const players = analysis.players ?? names.length;
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const mine = decisionsOf(analysis.decisions, seat);
    const counts = Object.fromEntries(LABELS.map((l) => [l, mine.filter((d) => d.label === l).length]));
    const luck = analysis.luck && analysis.luck[seat] ? analysis.luck[seat] : null;
    const luckSe = luck && analysis.luck_se && analysis.luck_se[seat] ? analysis.luck_se[seat] : null;
    rows.push({
      seat,
      name: names[seat] ?? `#${seat + 1}`,
      accuracy: analysis.accuracy ? analysis.accuracy[seat] : null,
      judged: mine.length,
      counts,
      luck,
      luckSe,
    });
  }
  return rows;
}

// Each seat's figures at `step`: win chance in whole percent and, when the analysis has
// `placings`, the expected placing (1 = first).
export function stepFigures(analysis, step) {
  const chances = analysis.chances[Math.max(0, Math.min(step, analysis.chances.length - 1))] || [];
  const placings = analysis.placings ? analysis.placings[step] : null;
  return chances.map((c, seat) => ({
    seat,
    chance: Math.round(100 * c),
    placing: placings && typeof placings[seat] === "number" ? placings[seat] : null,
  }));
}

// The figures in words for a screen reader and the line under the graph: "ann 42%, bob 31%";
// `decimal` writes a placing in the page's language (3,0 in Czech).
export function figuresText(figures, names, decimal = (x) => x.toFixed(1)) {
  return figures
    .map((f) => {
      const who = names[f.seat] ?? `#${f.seat + 1}`;
      if (f.placing === null) return interpolate(gettext("%(name)s %(chance)s%"), { name: who, chance: f.chance }, true);
      return interpolate(
        gettext("%(name)s %(chance)s% (place %(place)s)"),
        { name: who, chance: f.chance, place: decimal(f.placing) },
        true,
      );
    })
    .join(", ");
}

// The progress of an analysis being made, in words: "Analysing: 40%" ("Waiting for a worker" while
// it is queued or has not counted the game's steps yet).
export function progressText(status) {
  const p = status.progress;
  if (status.status === "running" && p && p.total > 0) {
    return interpolate(gettext("Analysing: %(percent)s%"), { percent: Math.floor((100 * p.done) / p.total) }, true);
  }
  return gettext("Waiting for a worker to start the analysis…");
}

// Refusals and failures of the analysis API in words, by their stable code.
const ERRORS = {
  not_authenticated: () => gettext("Sign in to ask for an analysis."),
  analysis_pending: () => gettext("You have another analysis queued or running: ask again once it is done."),
  game_not_finished: () => gettext("Only a game that ended with a win or a draw can be analysed."),
  error: () => gettext("The analysis failed. Try again later."),
  analysis_lost: () => gettext("The last analysis of this game was lost on the way: ask again."),
  sanctioned: () => gettext("Your account is suspended: it cannot ask for analyses."),
};

// What went wrong, in words; a throttle's wait (Retry-After) in minutes or seconds.
export function analysisErrorWords(code, retryAfter) {
  if (code === "throttled") {
    const wait = Number(retryAfter) || 60;
    const words = wait >= 60
      ? interpolate(gettext("%(n)s min"), { n: Math.ceil(wait / 60) }, true)
      : interpolate(gettext("%(n)s s"), { n: wait }, true);
    return interpolate(gettext("You have asked for many analyses lately: try again in %(wait)s."), { wait: words }, true);
  }
  const f = ERRORS[code];
  return f ? f() : gettext("That did not work. Try again later.");
}

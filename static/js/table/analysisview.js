// The replay page's analysis (docs/ANALYSIS.md): the win-chance graph under the replay, the
// verdicts in the log and under the step's words, "next mistake", the filter for one player's
// decisions, the accuracy (and luck) table; or, while none exists, the "Analyse" button and its
// progress. The figures and words are table/analysis.js's; the graph's markup table/winchart.js's.
// The viewer (table/replayviewer.js) tells this view each step and each rebuilt log.

import { $, csrfToken, el, gettext, interpolate, ngettext } from "../core/dom.js";
import { Socket, backoffDelay } from "../core/socket.js";
import {
  LABELS,
  MARKS,
  analysisErrorWords,
  chartMarks,
  cycleMistake,
  decisionAt,
  figuresText,
  labelWord,
  labelledOf,
  plusMinusPoints,
  progressText,
  shownUnderFilter,
  signedPerDecision,
  stepFigures,
  summaryRows,
  verdictText,
  betterText,
} from "./analysis.js";
import { COLORS } from "./replaydraw.js";
import { stepAt, winChartSvg, xOf } from "./winchart.js";

const CHART_HEIGHT = 150;
const CHART_PAD = 7;
// The strip at the graph's left for its scale ("100%", "50%", "0%"), clear of the lines and marks.
const CHART_GUTTER = 34;
// While an analysis is queued or running the page follows it over the replay analysis socket
// (/ws/replays/<ref>/analysis/, docs/PROTOCOL.md): its first message on every (re)connection is
// the status as it stands, then the worker's progress is pushed, then a last message says the
// analysis is stored (the page fetches it once) or failed. The page never polls.
const PENDING = new Set(["queued", "running"]);

// One request to the analysis API: {ok, status, body, retryAfter}; status 0 when the network failed.
async function call(url, method) {
  const headers = method === "POST" ? { "X-CSRFToken": csrfToken() } : {};
  try {
    const r = await fetch(url, { method, credentials: "same-origin", headers });
    const body = await r.json().catch(() => ({}));
    return { ok: r.ok, status: r.status, body, retryAfter: r.headers.get("Retry-After") };
  } catch {
    return { ok: false, status: 0, body: {}, retryAfter: null };
  }
}

export class AnalysisView {
  // viewer: the ReplayViewer; url: /api/replays/<ref>/analysis/; socketPath:
  // /ws/replays/<ref>/analysis/; cardNames: {id: name}.
  constructor(viewer, { url, socketPath, cardNames }) {
    this.viewer = viewer;
    this.url = url;
    this.socketPath = socketPath;
    this.section = $("replay-analysis");
    this.analysis = null;
    this.seat = null; // the filter: one seat's decisions, or everyone's (null)
    this.socket = null; // open while an analysis is queued or running
    this.fetching = false;
    this.ctx = { names: viewer.names, cardName: (c) => cardNames[c] || c };
    const lang = document.documentElement.lang || undefined;
    this.decimal = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format;
    viewer.actions["next-mistake"] = () => this.jump(false);
    viewer.actions["prev-mistake"] = () => this.jump(true);
    const ask = $("analysis-request");
    if (ask) ask.addEventListener("click", () => this.request());
    $("analysis-filter").addEventListener("change", (e) => {
      this.seat = e.target.value === "" ? null : Number(e.target.value);
      this.draw();
    });
    this.bindChart();
    this.resize = new ResizeObserver(() => this.analysis && this.drawChart());
    this.resize.observe($("analysis-chart"));
    this.load();
  }

  async load() {
    const r = await call(this.url, "GET");
    if (r.ok) this.show(r.body);
  }

  async request() {
    const button = $("analysis-request");
    button.disabled = true;
    $("analysis-error").textContent = "";
    const r = await call(this.url, "POST");
    if (!r.ok) {
      button.disabled = false;
      $("analysis-error").textContent = analysisErrorWords(r.body.code, r.retryAfter);
      return;
    }
    this.show(r.body);
  }

  // Follow the analysis under way over its socket (one socket, reconnecting with jittered
  // backoff: core/socket.js), until it says the analysis is stored or failed.
  follow() {
    if (this.socket || !this.socketPath) return;
    this.socket = new Socket(() => this.socketPath, {
      onMessage: (m) => m.type === "analysis" && this.pushed(m),
      onStatus: (what) => {
        if (what === "refused" || what === "limited" || what === "sanctioned") this.unfollow();
      },
    }).start();
  }

  unfollow() {
    if (this.socket) this.socket.stop();
    this.socket = null;
    delete this.section.dataset.socket;
  }

  // A message of the socket: the status as it stands (the API's answer without the analysis).
  // `data-socket="following"`: the socket has said where the analysis stands (it had joined the
  // analysis's messages before), so nothing the worker writes from now on is missed.
  pushed(status) {
    this.section.dataset.socket = "following";
    if (PENDING.has(status.status)) {
      this.show(status);
      return;
    }
    this.unfollow();
    if (status.status === "done") this.fetchDone();
    else this.show(status); // failed, or given up (none, analysis_lost)
  }

  // The analysis is stored: fetch it, once (again only when the network or the server failed).
  async fetchDone(attempt = 0) {
    if (this.fetching && attempt === 0) return;
    this.fetching = true;
    const r = await call(this.url, "GET");
    if (r.ok) {
      this.fetching = false;
      this.show(r.body);
    } else if (r.status === 0 || r.status >= 500) {
      setTimeout(() => this.fetchDone(attempt + 1), backoffDelay(attempt));
    } else {
      this.fetching = false;
      $("analysis-error").textContent = analysisErrorWords(r.body.code);
    }
  }

  // One answer of the API (or message of the socket): the analysis, its progress, or the offer to ask.
  show(status) {
    this.section.dataset.status = status.status;
    if (status.status === "done") {
      this.unfollow();
      if (!status.analysis) {
        this.fetchDone();
        return;
      }
      this.analysis = status.analysis;
      $("analysis-ask").hidden = true;
      $("analysis-body").hidden = false;
      $("analysis-playouts").textContent = String(status.playouts);
      this.fillFilter();
      this.draw();
      return;
    }
    $("analysis-ask").hidden = false;
    const busy = status.status === "queued" || status.status === "running";
    const button = $("analysis-request");
    if (button) {
      button.hidden = busy;
      button.disabled = busy;
    }
    $("analysis-progress").hidden = !busy;
    if (busy) {
      const p = status.progress || { done: 0, total: 0 };
      const bar = $("analysis-bar");
      if (p.total > 0) {
        bar.max = p.total;
        bar.value = p.done;
      } else {
        bar.removeAttribute("value"); // indeterminate while it waits for a worker
      }
      $("analysis-progress-text").textContent = progressText(status);
      this.follow();
    } else {
      this.unfollow();
      if (status.code) $("analysis-error").textContent = analysisErrorWords(status.code);
    }
  }

  fillFilter() {
    const select = $("analysis-filter");
    select.replaceChildren(
      el("option", { value: "", text: gettext("every player") }),
      ...this.viewer.names.map((name, seat) => el("option", { value: String(seat), text: name })),
    );
    select.value = this.seat === null ? "" : String(this.seat);
  }

  // --- drawing ----------------------------------------------------------------------------------

  draw() {
    if (!this.analysis) return;
    const any = labelledOf(this.analysis.decisions, this.seat).length > 0;
    for (const b of this.viewer.root.querySelectorAll('[data-action="next-mistake"], [data-action="prev-mistake"]')) {
      b.hidden = false;
      b.disabled = !any;
    }
    this.drawChart();
    this.decorateLog();
    this.drawTables();
    this.step(this.viewer.step);
    // The current line grew by its verdict after the viewer scrolled it into view.
    this.viewer.showLogLine(this.viewer.step);
  }

  drawChart() {
    const box = $("analysis-chart");
    const a = this.analysis;
    const width = Math.max(200, Math.round(box.clientWidth || 600));
    box.innerHTML = winChartSvg({
      chances: a.chances,
      names: this.viewer.names,
      current: this.viewer.step,
      width,
      height: CHART_HEIGHT,
      pad: CHART_PAD,
      colours: COLORS,
      marks: chartMarks(a.decisions, this.ctx, this.seat),
      gutter: CHART_GUTTER,
    });
    box.querySelector("svg").setAttribute("aria-hidden", "true");
    box.setAttribute("aria-valuemax", String(a.chances.length - 1));
    this.width = width - CHART_GUTTER; // the graph's own width, right of the scale
    const legend = $("analysis-legend");
    legend.replaceChildren(
      ...this.viewer.names.map((name, s) => el("span", { class: `rp-c${s % COLORS.length}`, text: name })),
      el("span", { class: "analysis-base", text: interpolate(gettext("1/%(n)s: an even chance"), { n: a.chances[0].length }, true) }),
    );
    // What the dots on the lines are: the labelled decisions, by their colour and mark.
    const marks = $("analysis-marks");
    marks.replaceChildren(
      el("span", { class: "analysis-marks-title", text: gettext("Dots on a line: that player's decision was") }),
      ...LABELS.map((l) => el("span", { class: `analysis-mark-key win-${l}`, "data-label": l }, `${MARKS[l]} ${labelWord(l).toLowerCase()}`)),
    );
  }

  bindChart() {
    const box = $("analysis-chart");
    box.addEventListener("click", (e) => {
      if (!this.analysis) return;
      const mark = e.target.closest && e.target.closest(".win-mark");
      if (mark) return this.viewer.go(Number(mark.dataset.step));
      const r = box.getBoundingClientRect();
      const x = ((e.clientX - r.left) / Math.max(1, r.width)) * (this.width + CHART_GUTTER) - CHART_GUTTER;
      this.viewer.go(stepAt(x, this.analysis.chances.length, this.width));
    });
  }

  // The log's lines: a verdict on each labelled decision; with a player chosen, only their
  // decisions. Drawn again whenever the viewer rebuilds its log (another perspective).
  decorateLog() {
    if (!this.analysis) return;
    const decisions = this.analysis.decisions;
    const log = this.viewer.log;
    for (const old of log.querySelectorAll(".rp-verdict")) old.remove();
    for (const li of log.children) {
      li.classList.toggle("rp-filtered", !shownUnderFilter(decisions, Number(li.dataset.step), this.seat));
    }
    for (const d of labelledOf(decisions, this.seat)) {
      const li = log.children[d.step];
      if (!li) continue;
      li.append(
        el("span", { class: `rp-verdict rp-${d.label}` },
          el("b", { text: MARKS[d.label], title: labelWord(d.label), "aria-label": labelWord(d.label) }),
          " ",
          betterText(d, this.ctx)),
      );
    }
  }

  drawTables() {
    const rows = summaryRows(this.analysis, this.viewer.names);
    const name = (r) => el("th", { scope: "row", title: r.name }, el("span", { class: `rp-swatch rp-c${r.seat % COLORS.length}` }), r.name);
    $("analysis-accuracy-rows").replaceChildren(
      ...rows.map((r) =>
        el("tr", { "data-seat": r.seat },
          name(r),
          el("td", { text: r.accuracy === null || r.accuracy === undefined ? "–" : r.accuracy.toFixed(0) }),
          el("td", { text: String(r.counts.inaccuracy) }),
          el("td", { text: String(r.counts.mistake) }),
          el("td", { text: String(r.counts.blunder) }),
        ),
      ),
    );
    const luck = rows.every((r) => r.luck);
    const noise = luck && rows.every((r) => r.luckSe);
    $("analysis-luck").hidden = !luck;
    $("analysis-luck-note").hidden = !noise;
    $("analysis-luck-meaning").hidden = !luck;
    // Each figure per decision of the player, then its standard error: each part kept whole, the
    // line free to break between them.
    const cell = (r, part) => {
      const se = noise && r.judged > 0 ? r.luckSe[part] / r.judged : null;
      return el("td", { "data-part": part },
        el("span", { class: "luck-figure", text: signedPerDecision(r.luck[part], r.judged, this.decimal) }),
        ...(se === null ? [] : [" ", el("span", { class: "luck-se", text: plusMinusPoints(se, this.decimal) })]),
      );
    };
    if (luck) {
      $("analysis-luck-rows").replaceChildren(
        ...rows.map((r) =>
          el("tr", { "data-seat": r.seat },
            // The name, and under it the decisions the figures are spread over.
            el("th", { scope: "row", title: r.name },
              el("span", { class: `rp-swatch rp-c${r.seat % COLORS.length}` }), r.name,
              el("span", { class: "luck-judged", "data-part": "judged", text: interpolate(ngettext("%(n)s decision", "%(n)s decisions", r.judged), { n: r.judged }, true) }),
            ),
            cell(r, "decisions"), cell(r, "draws"), cell(r, "others")),
        ),
      );
    }
  }

  // The viewer moved to `step`: the graph's marker, the figures, the verdict under the step's words.
  step(step) {
    if (!this.analysis) return;
    const a = this.analysis;
    const box = $("analysis-chart");
    const line = box.querySelector(".win-current");
    if (line) {
      const x = xOf(Math.min(step, a.chances.length - 1), a.chances.length, this.width).toFixed(1);
      line.setAttribute("x1", x);
      line.setAttribute("x2", x);
    }
    const figures = figuresText(stepFigures(a, step), this.viewer.names, this.decimal);
    $("analysis-figures").textContent = interpolate(gettext("Chance to win at this step: %(figures)s"), { figures }, true);
    box.setAttribute("aria-valuenow", String(step));
    box.setAttribute("aria-valuetext", interpolate(gettext("Step %(step)s: %(figures)s"), { step, figures }, true));
    const verdict = $("replay-verdict");
    const d = decisionAt(a.decisions, step);
    const words = d && (this.seat === null || d.seat === this.seat) ? verdictText(d, this.ctx) : null;
    verdict.hidden = !words;
    verdict.className = `replay-verdict${d && d.label ? ` rp-${d.label}` : ""}`;
    verdict.textContent = words || "";
  }

  jump(backwards) {
    if (!this.analysis) return;
    const to = cycleMistake(this.analysis.decisions, this.viewer.step, this.seat, backwards);
    if (to !== null) this.viewer.go(to);
  }
}

// The replay viewer: steps through precomputed frames (no request per step). A plain ES module.
// The replay and import pages boot it (pages/replay.js) from the JSON in #replay-boot; the watch
// page (pages/watch.js) drives it for a live game. This module is the playback: which step is
// shown, the buttons, keys, slider and timer that move it, the perspective and the page's
// address. Drawing a frame is table/replaydraw.js; the playback's rules are table/replaysteps.js.

import { el, gettext } from "../core/dom.js";
import { Motion } from "./motion.js";
import { drawChart, drawTable, frameWords, logItem, perspectiveLabel, positionText } from "./replaydraw.js";
import { clampStep, isTurnStart, keyAction, nextTurnStep, prevTurnStep, stepDelay, stepUrl } from "./replaysteps.js";

export function readBoot() {
  const boot = JSON.parse(document.getElementById("replay-boot").textContent);
  const cards = JSON.parse(document.getElementById("replay-card-names").textContent);
  return { boot, cards };
}

export class ReplayViewer {
  // opts: {meta, frames, perspective, step, cardNames, loadFrames(perspective) -> Promise<frames>,
  //        onStep(step, viewer), onRebuild(viewer) (the log was drawn again), updateUrl (bool),
  //        sharePath}
  constructor(root, opts) {
    this.root = root;
    this.meta = opts.meta;
    this.names = opts.meta.players.map((p) => p.name);
    this.cardNames = opts.cardNames || {};
    // Stepping forward one event at a time (playing, or the → key) moves the cards as the game
    // page does; jumps do not. Off with prefers-reduced-motion.
    const fx = root.querySelector(".fx");
    this.motion = fx ? new Motion(fx, root) : null;
    this.ctx = {
      mySeat: null,
      standalone: true,
      seats: opts.meta.players.map((p, i) => ({ seat: i, name: p.name })),
      handLimit: opts.meta.hand_limit,
      cards: Object.entries(this.cardNames).map(([id, name]) => ({ id, name })),
    };
    this.loadFrames = opts.loadFrames;
    this.onStep = opts.onStep || (() => {});
    this.onRebuild = opts.onRebuild || (() => {});
    this.updateUrl = opts.updateUrl !== false;
    this.sharePath = opts.sharePath || location.pathname;
    this.cache = new Map();
    this.perspective = opts.perspective;
    this.frames = opts.frames;
    this.cache.set(this.perspective, this.frames);
    this.step = clampStep(opts.step || 0, this.frames.length);
    this.timer = null;
    this.speed = 1;
    this.mark = null; // moves the chart's marker (replaydraw.js drawChart)
    this.$ = (sel) => root.querySelector(sel);
    this.slider = this.$("#replay-slider");
    this.log = this.$("#replay-log");
    this.bindControls();
    this.fillPerspectives();
    this.rebuild();
    this.go(this.step, { force: true });
  }

  // --- stepping ------------------------------------------------------------------------------

  go(step, { force = false, animate = false } = {}) {
    step = clampStep(step, this.frames.length);
    if (step === this.step && !force) return;
    const forward = animate && step === this.step + 1;
    const prev = this.log.children[this.step];
    if (prev) {
      prev.classList.remove("rp-current");
      prev.removeAttribute("aria-current");
    }
    this.step = step;
    this.render();
    if (forward) this.animate([this.frames[step]]);
    this.onStep(step, this);
  }

  animate(frames) {
    if (!this.motion) return;
    for (const f of frames) this.motion.queue(f.event, null);
    this.motion.flush();
  }

  next() { this.go(this.step + 1, { animate: true }); }
  prev() { this.go(this.step - 1); }
  first() { this.go(0); }
  last() { this.go(this.frames.length - 1); }
  nextTurn() { this.go(nextTurnStep(this.frames, this.step)); }
  prevTurn() { this.go(prevTurnStep(this.frames, this.step)); }

  // --- the timer -----------------------------------------------------------------------------

  play() {
    if (this.timer) return;
    if (this.step >= this.frames.length - 1) this.go(0);
    const tick = () => {
      if (this.step >= this.frames.length - 1) return this.pause();
      this.next();
      this.timer = setTimeout(tick, stepDelay(this.speed));
    };
    this.timer = setTimeout(tick, stepDelay(this.speed));
    this.syncPlayButton();
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    this.syncPlayButton();
  }

  toggle() { this.timer ? this.pause() : this.play(); }

  syncPlayButton() {
    const b = this.$("#replay-play");
    b.setAttribute("aria-pressed", this.timer ? "true" : "false");
    b.setAttribute("aria-label", this.timer ? gettext("Pause") : gettext("Play"));
    b.textContent = this.timer ? "❚❚ " + gettext("Pause") : "▶ " + gettext("Play");
  }

  // --- frames: another perspective, a live game's new ones -----------------------------------

  async setPerspective(p) {
    if (p === this.perspective) return;
    let frames = this.cache.get(p);
    if (!frames) {
      this.root.setAttribute("aria-busy", "true");
      frames = await this.loadFrames(p);
      this.cache.set(p, frames);
      this.root.removeAttribute("aria-busy");
    }
    this.perspective = p;
    this.frames = frames;
    this.$("#replay-perspective").value = p;
    this.rebuild();
    this.go(this.step, { force: true });
  }

  appendFrames(more) {
    // Live games grow: add frames after the last one known (the cache holds this perspective only).
    const known = this.frames.length;
    const fresh = more.filter((f) => f.step >= known);
    if (!fresh.length) return;
    this.frames.push(...fresh);
    this.slider.max = String(this.frames.length - 1);
    for (const f of fresh) this.log.append(this.logItem(f, f.step));
    this.drawChart();
    this.render();
  }

  // --- controls and keys ---------------------------------------------------------------------

  bindControls() {
    // One name per action: the buttons' data-action and what keyAction (replaysteps.js) returns.
    this.actions = {
      first: () => this.first(),
      prev: () => this.prev(),
      next: () => this.next(),
      last: () => this.last(),
      "prev-turn": () => this.prevTurn(),
      "next-turn": () => this.nextTurn(),
      play: () => this.toggle(),
    };
    this.root.querySelectorAll("[data-action]").forEach((b) =>
      b.addEventListener("click", () => this.actions[b.dataset.action]?.()),
    );
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.$("#replay-speed").addEventListener("change", (e) => {
      this.speed = Number(e.target.value) || 1;
      if (this.timer) { this.pause(); this.play(); }
    });
    this.$("#replay-perspective").addEventListener("change", (e) => this.setPerspective(e.target.value));
    this.log.addEventListener("click", (e) => {
      const li = e.target.closest("li[data-step]");
      if (li) this.go(Number(li.dataset.step));
    });
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keyHandler);
  }

  destroy() {
    this.pause();
    document.removeEventListener("keydown", this.keyHandler);
  }

  onKey(e) {
    const action = keyAction(e);
    // Actions another part adds (the analysis's "next mistake") exist only once it is there.
    if (!action || !this.actions[action] || this.root.closest("[hidden]")) return;
    e.preventDefault();
    this.actions[action]();
  }

  fillPerspectives() {
    const select = this.$("#replay-perspective");
    select.replaceChildren(
      ...this.meta.perspectives.map((p) => el("option", { value: p, text: perspectiveLabel(p, this.names) })),
    );
    select.value = this.perspective;
    select.disabled = this.meta.perspectives.length < 2;
  }

  // --- showing the step (drawn by replaydraw.js) ---------------------------------------------

  rebuild() {
    this.slider.max = String(this.frames.length - 1);
    this.log.replaceChildren(...this.frames.map((f, i) => this.logItem(f, i)));
    this.drawChart();
    this.onRebuild(this);
  }

  logItem(f, i) {
    return logItem(this.ctx, f, i, isTurnStart(this.frames, i));
  }

  drawChart() {
    this.mark = drawChart(this.$("#replay-chart"), this.frames, this.names, (step) => this.go(step));
  }

  render() {
    const f = this.frames[this.step];
    this.root.dataset.step = String(this.step);
    this.root.dataset.perspective = this.perspective;
    this.slider.value = String(this.step);
    this.$("#replay-position").textContent = positionText(this.step, this.frames.length - 1, f.turn_number);
    this.$("#replay-event").textContent = frameWords(this.ctx, f);
    const li = this.log.children[this.step];
    if (li) {
      li.classList.add("rp-current");
      li.setAttribute("aria-current", "step");
      this.showLogLine(this.step);
    }
    drawTable(this.$("#replay-table"), f.state, {
      names: this.names,
      perspective: this.perspective,
      cardName: (c) => this.cardNames[c] || c,
      bots: this.meta.players.map((p) => Boolean(p && p.is_bot)),
    });
    if (this.mark) this.mark(this.step);
    this.syncLink();
  }

  // Scroll the log, and the log alone, to the line of `step`. The page stays where it is: on a
  // phone the log is below the table, and scrolling the page to it (scrollIntoView) took the step
  // buttons off the screen when a moment's link opened the replay.
  showLogLine(step) {
    const li = this.log.children[step];
    if (!li) return;
    const box = this.log.getBoundingClientRect();
    const line = li.getBoundingClientRect();
    if (line.top < box.top) this.log.scrollTop -= box.top - line.top;
    else if (line.bottom > box.bottom) this.log.scrollTop += Math.min(line.bottom - box.bottom, line.top - box.top);
  }

  // --- the address ---------------------------------------------------------------------------

  link() {
    return stepUrl(this.sharePath, location.origin, this.step, this.perspective).toString();
  }

  syncLink() {
    const input = document.getElementById("replay-link");
    if (input) input.value = this.link();
    if (this.updateUrl) {
      const here = stepUrl(location.href, location.origin, this.step, this.perspective);
      history.replaceState(null, "", here.pathname + here.search);
    }
  }
}

export async function getJson(url, init) {
  const r = await fetch(url, { credentials: "same-origin", ...init });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(body.detail || r.statusText), { body, status: r.status });
  return body;
}

export async function fetchFrames(url, perspective, from = 0) {
  const q = new URLSearchParams({ perspective, from: String(from) });
  return (await getJson(`${url}?${q}`)).frames;
}

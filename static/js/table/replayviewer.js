// The replay viewer: steps through precomputed frames (no request per step). A plain ES module.
// The replay and import pages boot it (pages/replay.js) from the JSON in #replay-boot; the watch
// page (pages/watch.js) drives it for a live game.

import { el, gettext, interpolate } from "../core/dom.js";
import { drawCapacityChart } from "./replaychart.js";
import { drawTable as drawSeats, setRing } from "./tableview.js";
import { describe } from "./words.js";
import { Motion } from "./motion.js";

const BASE_DELAY_MS = 900;

export function readBoot() {
  const boot = JSON.parse(document.getElementById("replay-boot").textContent);
  const cards = JSON.parse(document.getElementById("replay-card-names").textContent);
  return { boot, cards };
}

export class ReplayViewer {
  // opts: {meta, frames, perspective, step, cardNames, loadFrames(perspective) -> Promise<frames>,
  //        onStep(step), updateUrl (bool), sharePath}
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
    this.updateUrl = opts.updateUrl !== false;
    this.sharePath = opts.sharePath || location.pathname;
    this.cache = new Map();
    this.perspective = opts.perspective;
    this.frames = opts.frames;
    this.cache.set(this.perspective, this.frames);
    this.step = Math.max(0, Math.min(opts.step || 0, this.frames.length - 1));
    this.timer = null;
    this.speed = 1;
    this.$ = (sel) => root.querySelector(sel);
    this.slider = this.$("#replay-slider");
    this.log = this.$("#replay-log");
    this.bindControls();
    this.fillPerspectives();
    this.rebuild();
    this.go(this.step, { force: true });
  }

  // --- navigation --------------------------------------------------------------------------

  isTurnStart(i) {
    const t = this.frames[i].event.type;
    return t === "TurnStarted" || i === 0;
  }

  go(step, { force = false, animate = false } = {}) {
    const last = this.frames.length - 1;
    step = Math.max(0, Math.min(last, Number(step) || 0));
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
    this.onStep(step);
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

  nextTurn() {
    for (let i = this.step + 1; i < this.frames.length; i++) if (this.isTurnStart(i)) return this.go(i);
    this.last();
  }

  prevTurn() {
    for (let i = this.step - 1; i >= 0; i--) if (this.isTurnStart(i)) return this.go(i);
    this.first();
  }

  play() {
    if (this.timer) return;
    if (this.step >= this.frames.length - 1) this.go(0);
    const tick = () => {
      if (this.step >= this.frames.length - 1) return this.pause();
      this.next();
      this.timer = setTimeout(tick, BASE_DELAY_MS / this.speed);
    };
    this.timer = setTimeout(tick, BASE_DELAY_MS / this.speed);
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

  // --- controls ------------------------------------------------------------------------------

  bindControls() {
    const actions = {
      first: () => this.first(),
      prev: () => this.prev(),
      next: () => this.next(),
      last: () => this.last(),
      "prev-turn": () => this.prevTurn(),
      "next-turn": () => this.nextTurn(),
      play: () => this.toggle(),
    };
    this.root.querySelectorAll("[data-action]").forEach((b) =>
      b.addEventListener("click", () => actions[b.dataset.action]()),
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
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    const typing = t && (t.tagName === "TEXTAREA" || t.tagName === "SELECT" ||
      (t.tagName === "INPUT" && t.type !== "range") || t.isContentEditable);
    if (typing || this.root.closest("[hidden]")) return;
    const keys = {
      ArrowRight: () => (e.shiftKey ? this.nextTurn() : this.next()),
      ArrowLeft: () => (e.shiftKey ? this.prevTurn() : this.prev()),
      PageDown: () => this.nextTurn(),
      PageUp: () => this.prevTurn(),
      Home: () => this.first(),
      End: () => this.last(),
      " ": () => this.toggle(),
    };
    const act = keys[e.key];
    if (!act) return;
    if (e.key === " " && t && t.tagName === "BUTTON") return; // the button's own click toggles
    e.preventDefault();
    act();
  }

  perspectiveLabel(p) {
    if (p === "all") return gettext("Every hand");
    if (p === "spectator") return gettext("Spectator (no hands)");
    const seat = Number(p.split(":")[1]);
    return interpolate(gettext("As %(name)s saw it"), { name: this.names[seat] ?? `#${seat + 1}` }, true);
  }

  fillPerspectives() {
    const select = this.$("#replay-perspective");
    select.replaceChildren(
      ...this.meta.perspectives.map((p) => el("option", { value: p, text: this.perspectiveLabel(p) })),
    );
    select.value = this.perspective;
    select.disabled = this.meta.perspectives.length < 2;
  }

  // --- drawing -------------------------------------------------------------------------------

  rebuild() {
    this.slider.max = String(this.frames.length - 1);
    this.log.replaceChildren(...this.frames.map((f, i) => this.logItem(f, i)));
    this.drawChart();
  }

  // The same words as the game page's log (words.js); the frame's own text when it has none.
  words(f) {
    try {
      return describe(this.ctx, f.event).text || f.text;
    } catch {
      return f.text;
    }
  }

  logItem(f, i) {
    return el("li", { "data-step": i, class: this.isTurnStart(i) ? "rp-turn-start" : null, text: this.words(f) });
  }

  cardName(c) { return this.cardNames[c] || c; }

  render() {
    const f = this.frames[this.step];
    const s = f.state;
    this.root.dataset.step = String(this.step);
    this.root.dataset.perspective = this.perspective;
    this.slider.value = String(this.step);
    this.$("#replay-position").textContent = interpolate(
      gettext("Step %(step)s of %(last)s · turn %(turn)s"),
      { step: this.step, last: this.frames.length - 1, turn: f.turn_number },
      true,
    );
    this.$("#replay-event").textContent = this.words(f);
    const li = this.log.children[this.step];
    if (li) {
      li.classList.add("rp-current");
      li.setAttribute("aria-current", "step");
      li.scrollIntoView({ block: "nearest" });
    }
    this.drawTable(s);
    this.markChart();
    this.syncLink();
  }

  // The same table as the game page: seats around the felt, card art, pips and shields; every
  // hand face up where the chosen perspective shows it.
  drawTable(s) {
    const name = (seat) => (seat === null || seat === undefined ? "–" : this.names[seat] ?? `#${seat + 1}`);
    const box = this.$("#replay-table");
    let area = box.querySelector(".table-area");
    if (!area) {
      area = el("div", { class: "table-area" }, el("div", { class: "seats" }), el("div", { class: "felt" }));
      const line = el("p", { class: "rp-status", "data-field": "awaiting" });
      box.replaceChildren(area, line);
    }
    const viewer = this.perspective.startsWith("seat:") ? Number(this.perspective.split(":")[1]) : null;
    const players = s.players.map((p) => ({
      ...p,
      name: name(p.seat),
      you: false,
      presence: this.meta.players[p.seat] && this.meta.players[p.seat].is_bot ? { cls: "bot", text: gettext("bot") } : null,
      hand: s.hands ? s.hands[p.seat] : s.seat === p.seat && s.hand ? s.hand : null,
    }));
    drawSeats(area, {
      ...s,
      players,
      bottom: viewer === null ? 0 : viewer,
      withBottom: true,
      faces: true,
      cardName: (c) => this.cardName(c),
    });
    for (const tile of area.querySelectorAll(".seat")) tile.classList.add("rp-seat");
    setRing(area, s.awaiting && !s.over ? 1 : null);
    const kinds = { turn: gettext("taking a turn"), volley: gettext("answering Hare Cumi"), skip: gettext("answering a skip"), discard: gettext("discarding") };
    const line = box.querySelector(".rp-status");
    line.textContent = s.over
      ? (s.result === "win" ? interpolate(gettext("%(name)s won"), { name: name(s.winner) }, true) : gettext("Game over"))
      : s.awaiting
        ? interpolate(gettext("Turn %(n)s · %(name)s is %(what)s"), { n: s.turn_number, name: name(s.awaiting.seat), what: kinds[s.awaiting.kind] || s.awaiting.kind }, true)
        : interpolate(gettext("Turn %(n)s"), { n: s.turn_number }, true);
  }

  drawChart() {
    this.chart = drawCapacityChart(this.$("#replay-chart"), this.frames, this.names, (step) => this.go(step));
  }

  markChart() {
    if (this.chart) this.chart.mark(this.step);
  }

  link() {
    const url = new URL(this.sharePath, location.origin);
    url.searchParams.set("step", String(this.step));
    url.searchParams.set("perspective", this.perspective);
    return url.toString();
  }

  syncLink() {
    const input = document.getElementById("replay-link");
    if (input) input.value = this.link();
    if (this.updateUrl) {
      const here = new URL(location.href);
      here.searchParams.set("step", String(this.step));
      here.searchParams.set("perspective", this.perspective);
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

// The game page: renders the live game from `state` + events, and sends the player's decisions.
/* global gettext, ngettext, interpolate */
import { LiveGame } from "./live.js";
import { cardName, describe, errorWords, seatName } from "./words.js";

const cfg = JSON.parse(document.getElementById("game-config").textContent);
const STATIC = "/static/cards/";
const $ = (id) => document.getElementById(id);

const S = {
  view: null,
  legal: [],
  seq: 0,
  seats: cfg.seats,
  status: "running",
  presence: {},
  deadline: null,
  deadlineTotal: 30000,
  mode: null, // null | "cumi" | "discard"
  picked: [], // indexes into the hand
  pending: false,
  sent: 0, // commands sent, so a late safety timer never frees a newer command
  ended: false,
  lastPlayLine: null,
  announced: 0,
};

const ctx = () => ({ mySeat: cfg.seat, seats: S.seats, cards: cfg.cards });
const fmt = (t, v) => interpolate(t, v, true);
const card = (id) => cfg.cards.find((c) => c.id === id) || { id, name: id, effect: "" };

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function cardImg(id, size = "") {
  const c = card(id);
  return el("img", { src: `${STATIC}${id}.svg`, alt: "", class: `card-img ${size}`, width: 72, height: 100 });
}

// --- the socket ----------------------------------------------------------------------------

const live = new LiveGame(cfg.game, {
  onStatus(status, delay) {
    const c = $("connection");
    if (status === "open") {
      c.textContent = "";
      c.className = "connection";
    } else if (status === "reconnecting") {
      c.textContent = fmt(gettext("Connection lost. Reconnecting in %(s)s s…"), { s: Math.ceil(delay / 1000) });
      c.className = "connection warn";
    } else {
      c.textContent = gettext("You cannot watch this game.");
      c.className = "connection error";
    }
  },
  onState(m) {
    S.view = m.view;
    S.legal = m.legal;
    S.seq = m.seq;
    S.seats = m.seats;
    syncPresence(m.seats);
    S.status = m.status;
    setDeadline(m.deadline, m.view.awaiting && m.view.awaiting.kind, m.view.awaiting && m.view.awaiting.seat);
    S.ended = m.view.over;
    if (S.loadedOver === undefined) S.loadedOver = m.view.over;
    S.mode = null;
    S.picked = [];
    loadHistory(m.seq);
    render();
  },
  onEvent(seq, e) {
    logEvent(e, true);
    if (e.type === "SeatTakenByBot" || e.type === "SeatReclaimed") {
      S.presence[e.seat] = { ...(S.presence[e.seat] || {}), bot_playing: e.type === "SeatTakenByBot" };
    }
    if (e.type === "GameEnded" || e.type === "GameAborted") S.ended = true;
  },
  // Each push ends with this viewer's view and legal commands: the page renders from it alone.
  onView(m) {
    if (m.seq < S.seq) return;
    const turnChanged = JSON.stringify(m.awaiting) !== JSON.stringify(S.view && S.view.awaiting);
    S.view = m.view;
    S.legal = m.legal;
    S.seq = m.seq;
    S.status = m.status;
    if (m.deadline && m.awaiting) setDeadline(m.deadline, m.awaiting.kind, m.awaiting.seat);
    else S.deadline = null;
    if (turnChanged) {
      S.mode = null;
      S.picked = [];
    }
    render();
  },
  onDeadline(m) {
    setDeadline(m.deadline, m.kind, m.seat);
    renderTurn();
  },
  onPresence(seats) {
    for (const s of seats) S.presence[s.seat] = s;
    render();
  },
  onNextGame(m) {
    if (cfg.seat !== null && m.game !== cfg.game) goToGame(m.game);
  },
  onAck() {
    S.pending = false;
  },
  onError(m) {
    S.pending = false;
    showError(errorWords(m.code, m.detail));
    live.send({ type: "sync" }); // the game may have moved on: the socket sends the view as it is
  },
});

function setDeadline(iso, kind, seat) {
  S.deadline = iso ? Date.parse(iso) : null;
  S.deadlineFor = `${kind}:${seat}`;
  S.deadlineTotal = ((cfg.timers && cfg.timers[kind]) || 30) * 1000;
}

async function loadHistory(upto) {
  const log = $("log");
  log.textContent = "";
  S.lastPlayLine = null;
  try {
    const r = await fetch(`/api/games/${cfg.game}/events/?after=0`, { cache: "no-store" });
    if (!r.ok) return;
    const d = await r.json();
    const frag = [];
    for (const item of d.events) if (item.seq <= upto) frag.push(item.event);
    // Lines added by live events meanwhile stay on top: the history goes below them.
    const live = Array.from(log.children);
    log.textContent = "";
    S.lastPlayLine = null;
    for (const e of frag) logEvent(e, false);
    for (const li of live.reverse()) log.prepend(li);
  } catch {
    // the log is a convenience; the game state is already shown
  }
}

// --- the log and the live region -----------------------------------------------------------

function logEvent(e, announce) {
  const d = describe(ctx(), e);
  if (!d.text) return;
  const log = $("log");
  let line;
  if (d.join && S.lastPlayLine) {
    S.lastPlayLine.textContent += `; ${d.text}`;
    line = S.lastPlayLine;
  } else {
    line = el("li", { class: d.minor ? "minor" : "", text: d.text });
    log.prepend(line);
    while (log.children.length > 200) log.lastChild.remove();
    if (d.starts) S.lastPlayLine = line;
    else if (!d.minor) S.lastPlayLine = null;
  }
  if (announce) say(d.text);
}

function say(text) {
  const a = $("announcer");
  const p = el("p", { text });
  a.append(p);
  while (a.children.length > 5) a.firstChild.remove();
}

function showError(text) {
  const box = $("error");
  box.hidden = false;
  box.textContent = "";
  box.append(el("strong", { text: gettext("Not possible:") }), " ", text, " ");
  box.append(
    el("button", { type: "button", class: "button small", text: gettext("Dismiss"), onclick: () => (box.hidden = true) }),
  );
}

// --- what I may do -------------------------------------------------------------------------

const myTurn = () => S.view && S.view.awaiting && S.view.awaiting.seat === cfg.seat && cfg.seat !== null;
const mine = (kind) => myTurn() && S.view.awaiting.kind === kind && !S.view.over;
const away = () => cfg.seat !== null && Boolean(S.presence[cfg.seat] && S.presence[cfg.seat].bot_playing);

function syncPresence(seats) {
  for (const s of seats) S.presence[s.seat] = { ...(S.presence[s.seat] || {}), bot_playing: s.bot_playing };
}
const legalPlays = (c) => S.legal.filter((x) => x.play && x.play[0] === c);
const burnable = () => S.legal.filter((x) => "burn" in x);
const canReact = (r) => S.legal.some((x) => x.react === r);

function send(cmd) {
  if (S.pending) return;
  $("error").hidden = true;
  if (!live.command(cmd)) {
    showError(gettext("Not connected. Wait a moment and try again."));
    return;
  }
  S.pending = true;
  S.mode = null;
  S.picked = [];
  render();
  const sent = ++S.sent;
  setTimeout(() => {
    // No answer in 5 s (the socket is reconnecting): give the controls back to try again.
    if (S.pending && S.sent === sent) {
      S.pending = false;
      render();
    }
  }, 5000);
}

function onCard(i) {
  if (S.pending || away()) return;
  const id = S.view.hand[i];
  if (S.mode === "discard") {
    togglePick(i, S.view.discard_count);
    return;
  }
  if (!mine("turn")) return;
  if (burnable().length) {
    if (burnable().some((x) => x.burn === id)) send({ burn: id });
    return;
  }
  if (id === "cumi" && legalPlays("cumi").length) {
    if (S.mode !== "cumi") {
      S.mode = "cumi";
      S.picked = [i];
    } else {
      togglePick(i, 99);
      if (!S.picked.length) S.mode = null;
    }
    render();
    focusPrompt();
    return;
  }
  if (S.mode === "cumi") return;
  if (S.legal.some((x) => x.play && x.play.length === 1 && x.play[0] === id && x.target === undefined)) {
    send({ play: [id] });
  }
}

function togglePick(i, max) {
  const at = S.picked.indexOf(i);
  if (at >= 0) S.picked.splice(at, 1);
  else if (S.picked.length < max) S.picked.push(i);
  render();
}

function focusPrompt() {
  const first = $("prompt-buttons").querySelector("button:not([disabled])");
  if (first && document.activeElement && !document.activeElement.closest("#hand")) first.focus();
}

function cardEnabled(i) {
  if (S.pending || away() || !S.view || S.view.over) return false;
  const id = S.view.hand[i];
  if (mine("discard")) return true;
  if (!mine("turn")) return false;
  if (burnable().length) return burnable().some((x) => x.burn === id);
  if (S.mode === "cumi") return id === "cumi";
  return legalPlays(id).length > 0;
}

// --- rendering -----------------------------------------------------------------------------

function render() {
  const v = S.view;
  if (!v) return;
  if (mine("discard")) S.mode = "discard";
  else if (S.mode === "discard") {
    S.mode = null;
    S.picked = [];
  }
  $("game").dataset.loading = "";
  $("game").dataset.seq = S.seq;
  $("game").dataset.awaiting = v.awaiting ? `${v.awaiting.kind}:${v.awaiting.seat}` : "";
  renderPlayers();
  renderCenter();
  renderTurn();
  renderPrompt();
  renderHand();
  renderAway();
  renderEnd();
}

function presenceText(seat) {
  const p = S.presence[seat];
  const label = S.seats.find((s) => s.seat === seat);
  if (label && label.is_bot) return { cls: "bot", text: gettext("bot") };
  if (p && p.bot_playing) return { cls: "away", text: gettext("away · a bot plays") };
  if (label && label.bot_playing) return { cls: "away", text: gettext("away · a bot plays") };
  if (!p) return { cls: "", text: "" };
  if (p.status === "connected") return { cls: "connected", text: gettext("online") };
  return { cls: "offline", text: gettext("offline") };
}

function renderPlayers() {
  const box = $("players");
  box.textContent = "";
  const v = S.view;
  for (const p of v.players) {
    const name = seatName(ctx(), p.seat);
    const capacity = Math.max(0, 5 - p.damage);
    const deciding = v.awaiting && v.awaiting.seat === p.seat;
    const pres = presenceText(p.seat);
    const classes = ["player"];
    if (p.eliminated) classes.push("eliminated");
    if (deciding) classes.push("deciding");
    if (p.seat === cfg.seat) classes.push("me");
    const backs = el("span", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < p.hand_size; i++) backs.append(el("span", { class: "back" }));
    const label = S.seats.find((s) => s.seat === p.seat);
    box.append(
      el(
        "article",
        { class: classes.join(" "), "data-seat": p.seat, "aria-label": fmt(gettext("Seat %(n)s: %(name)s"), { n: p.seat + 1, name: label ? label.name : name }) },
        el(
          "h3",
          {},
          deciding ? el("span", { class: "deciding-mark", text: "▶ " }) : null,
          label ? (p.seat === cfg.seat ? fmt(gettext("%(name)s (you)"), { name: label.name }) : label.name) : name,
          v.shuffler === p.seat ? el("span", { class: "badge", text: ` ${gettext("shuffler")}` }) : null,
        ),
        pres.text ? el("p", { class: `presence ${pres.cls}`, text: pres.text }) : null,
        p.eliminated
          ? el("p", { class: "out", text: gettext("Out of the game") })
          : el(
              "div",
              { class: "stats" },
              el("p", {}, backs, el("span", { text: fmt(ngettext("%(n)s card", "%(n)s cards", p.hand_size), { n: p.hand_size }) })),
              el(
                "p",
                { class: "capacity" },
                el("span", { text: fmt(gettext("Hand limit %(c)s of 5"), { c: capacity }) }),
                el("meter", { min: 0, max: 5, low: 2, high: 4, optimum: 5, value: capacity, "aria-label": gettext("Hand limit") }),
              ),
              el("p", { class: "damage", text: fmt(gettext("Damage %(d)s"), { d: p.damage }) }),
              p.protected ? el("p", { class: "shield", text: `◈ ${gettext("Protected")}` }) : null,
            ),
        deciding ? el("p", { class: "deciding-text", text: decidingWords(v.awaiting.kind) }) : null,
      ),
    );
  }
}

function decidingWords(kind) {
  return {
    turn: gettext("taking a turn"),
    volley: gettext("answering Hare Cumi"),
    skip: gettext("answering a skip"),
    discard: gettext("discarding"),
  }[kind] || "";
}

function renderCenter() {
  const v = S.view;
  const draw = $("draw-pile");
  draw.textContent = "";
  draw.append(
    el("img", { src: `${STATIC}back.svg`, alt: "", class: "card-img small", width: 72, height: 100 }),
    el("span", { text: fmt(ngettext("Draw pile: %(n)s card", "Draw pile: %(n)s cards", v.draw_pile_size), { n: v.draw_pile_size }) }),
  );
  const discard = $("discard-pile");
  discard.textContent = "";
  if (v.discard_top) {
    const c = card(v.discard_top);
    discard.append(
      el("img", { src: `${STATIC}${c.id}.svg`, alt: c.name, title: `${c.name}: ${c.effect}`, class: "card-img small", width: 72, height: 100 }),
      el("span", { text: fmt(gettext("Discard pile: %(card)s on top"), { card: c.name }) }),
    );
  } else {
    discard.append(el("span", { text: gettext("Discard pile: empty") }));
  }
  const dir = $("direction");
  dir.textContent = v.direction === "cw" ? `↻ ${gettext("Clockwise")}` : `↺ ${gettext("Counterclockwise")}`;
  dir.dataset.direction = v.direction;
}

function renderTurn() {
  const v = S.view;
  if (!v) return;
  const text = $("turn-text");
  let words = "";
  if (v.over) words = gettext("The game is over.");
  else if (v.awaiting) {
    const name = seatName(ctx(), v.awaiting.seat);
    if (v.awaiting.seat === cfg.seat) {
      words = {
        turn: gettext("Your turn"),
        volley: gettext("Answer the Hare Cumi"),
        skip: gettext("Answer the skip"),
        discard: gettext("Discard down to your limit"),
      }[v.awaiting.kind];
    } else {
      words = fmt(gettext("%(name)s is %(doing)s"), { name, doing: decidingWords(v.awaiting.kind) });
    }
  }
  const current = v.awaiting && S.deadlineFor === `${v.awaiting.kind}:${v.awaiting.seat}`;
  const left = S.deadline && current && !v.over && S.deadline > Date.now() - 1000 ? Math.max(0, Math.ceil((S.deadline - Date.now()) / 1000)) : null;
  text.textContent = left !== null ? `${words} · ${fmt(ngettext("%(s)s second left", "%(s)s seconds left", left), { s: left })}` : words;
  const ring = $("ring-fg");
  const frac = left !== null ? Math.max(0, Math.min(1, (S.deadline - Date.now()) / S.deadlineTotal)) : 0;
  const length = 2 * Math.PI * 19;
  ring.style.strokeDasharray = `${length}`;
  ring.style.strokeDashoffset = `${length * (1 - frac)}`;
  $("turn-info").classList.toggle("urgent", left !== null && left <= 5);
  $("turn-info").classList.toggle("mine", myTurn());
}
setInterval(renderTurn, 250);

function button(label, onclick, opts = {}) {
  return el("button", { type: "button", class: `button ${opts.cls || ""}`, disabled: opts.disabled || S.pending, "data-action": opts.action, onclick }, label);
}

function renderPrompt() {
  const v = S.view;
  const box = $("prompt");
  const title = $("prompt-title");
  const text = $("prompt-text");
  const buttons = $("prompt-buttons");
  buttons.textContent = "";
  box.hidden = true;
  box.dataset.kind = "";
  if (!v || v.over || cfg.seat === null || away() || !myTurn()) return;
  box.hidden = false;
  const kind = v.awaiting.kind;
  box.dataset.kind = kind;
  if (kind === "volley") {
    const vol = v.volley || { attacker: null, count: 1 };
    title.textContent = gettext("Play Hare Taptap?");
    text.textContent = fmt(
      ngettext("%(name)s plays Hare Cumi at you.", "%(name)s plays %(n)s × Hare Cumi at you.", vol.count),
      { name: seatName(ctx(), vol.attacker), n: vol.count },
    );
    const ok = canReact("taptap");
    buttons.append(
      button(gettext("Play Hare Taptap"), () => send({ react: "taptap" }), { cls: "primary", disabled: !ok, action: "taptap" }),
      button(fmt(ngettext("Take %(n)s damage", "Take %(n)s damage", vol.count), { n: vol.count }), () => send({ react: "none" }), { action: "decline" }),
    );
    if (!ok) text.textContent += ` ${gettext("You hold no Hare Taptap.")}`;
  } else if (kind === "skip") {
    title.textContent = gettext("Forward the skip with Strom?");
    text.textContent = gettext("You are skipped. Play a Strom to pass the skip on to the next player.");
    const ok = canReact("strom");
    buttons.append(
      button(gettext("Forward with Strom"), () => send({ react: "strom" }), { cls: "primary", disabled: !ok, action: "strom" }),
      button(gettext("Lose my turn"), () => send({ react: "none" }), { action: "decline" }),
    );
    if (!ok) text.textContent += ` ${gettext("You hold no Strom.")}`;
  } else if (kind === "discard") {
    const n = v.discard_count;
    title.textContent = fmt(ngettext("Discard %(n)s card", "Discard %(n)s cards", n), { n });
    text.textContent = fmt(gettext("Your hand is over its limit. Choose %(n)s, then confirm. Chosen: %(k)s."), { n, k: S.picked.length });
    const chosen = S.picked.map((i) => v.hand[i]).sort();
    const ok = S.picked.length === n && S.legal.some((x) => x.discard && x.discard.join() === chosen.join());
    buttons.append(button(gettext("Discard the chosen cards"), () => send({ discard: chosen }), { cls: "primary", disabled: !ok, action: "discard" }));
  } else if (burnable().length) {
    title.textContent = gettext("Nothing can be played");
    if (burnable().some((x) => x.burn === null)) {
      text.textContent = gettext("You have no cards: pass.");
      buttons.append(button(gettext("Pass"), () => send({ burn: null }), { cls: "primary", action: "burn" }));
    } else {
      text.textContent = gettext("Choose a card from your hand to burn; it goes to the discard pile.");
    }
  } else if (S.mode === "cumi") {
    const k = S.picked.length;
    title.textContent = fmt(ngettext("Aim %(n)s Hare Cumi", "Aim %(n)s × Hare Cumi", k), { n: k });
    text.textContent = gettext("Choose more Hare Cumi from your hand, or a player to aim at.");
    const targets = S.legal.filter((x) => x.play && x.play[0] === "cumi" && x.play.length === k).map((x) => x.target);
    for (const t of targets) {
      buttons.append(
        button(fmt(gettext("At %(name)s"), { name: seatName(ctx(), t) }), () => send({ play: Array(k).fill("cumi"), target: t }), {
          cls: "primary",
          action: `target-${t}`,
        }),
      );
    }
    buttons.append(
      button(gettext("Cancel"), () => {
        S.mode = null;
        S.picked = [];
        render();
      }, { action: "cancel" }),
    );
  } else {
    title.textContent = gettext("Your turn");
    text.textContent = gettext("Play a card from your hand. For Hare Cumi, choose one or more, then the player to aim at.");
  }
}

function renderHand() {
  const v = S.view;
  const hand = $("hand");
  const section = $("hand-section");
  if (cfg.seat === null || !v.hand) {
    section.hidden = true;
    return;
  }
  section.hidden = false;
  const focusedIndex = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.index : undefined;
  hand.textContent = "";
  if (!v.hand.length) hand.append(el("p", { text: gettext("No cards in your hand.") }));
  v.hand.forEach((id, i) => {
    const c = card(id);
    const enabled = cardEnabled(i);
    const picked = S.picked.includes(i);
    const b = el(
      "button",
      {
        type: "button",
        class: `card${picked ? " picked" : ""}${enabled ? "" : " off"}`,
        "data-card": id,
        "data-index": i,
        "aria-disabled": enabled ? null : "true",
        "aria-pressed": S.mode ? String(picked) : null,
        "aria-label": `${c.name}. ${c.effect}`,
        title: `${c.name}: ${c.effect}`,
        onclick: () => {
          if (enabled) onCard(i);
        },
      },
      cardImg(id),
      el("span", { class: "card-name", text: c.name }),
      picked ? el("span", { class: "picked-mark", text: `✓ ${gettext("chosen")}` }) : null,
    );
    longPress(b, c);
    hand.append(b);
  });
  if (focusedIndex !== undefined) {
    const again = hand.querySelector(`[data-index="${focusedIndex}"]`);
    if (again) again.focus();
  }
}

// Long-press (touch) shows the card's name and effect, as hover does with the title.
function longPress(target, c) {
  let timer = null;
  target.addEventListener("touchstart", () => {
    timer = setTimeout(() => showTip(target, c), 500);
  }, { passive: true });
  for (const ev of ["touchend", "touchmove", "touchcancel"]) target.addEventListener(ev, () => clearTimeout(timer));
  target.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    showTip(target, c);
  });
}

function showTip(target, c) {
  const tip = $("card-tip");
  tip.textContent = "";
  tip.append(el("strong", { text: c.name }), el("span", { text: ` ${c.effect}` }));
  tip.hidden = false;
  const r = target.getBoundingClientRect();
  tip.style.top = `${window.scrollY + r.top - 8}px`;
  tip.style.left = `${Math.max(8, Math.min(window.innerWidth - 248, r.left))}px`;
  setTimeout(() => (tip.hidden = true), 3000);
}

function renderAway() {
  $("away-banner").hidden = !away() || !S.view || S.view.over;
}

let nextWatch = null;
function renderEnd() {
  const v = S.view;
  const box = $("end");
  if (!v.over) {
    box.hidden = true;
    return;
  }
  const first = box.hidden;
  box.hidden = false;
  if (v.result === "win" && v.winner !== null) {
    $("end-title").textContent =
      v.winner === cfg.seat ? gettext("You won!") : fmt(gettext("%(name)s won!"), { name: seatName(ctx(), v.winner) });
  } else if (v.result === "draw") {
    $("end-title").textContent = gettext("A draw");
  } else {
    $("end-title").textContent = gettext("The game was called off");
  }
  $("end-text").textContent = gettext("Play another round at this table, or watch this game again.");
  $("next-game").hidden = cfg.seat === null;
  if (first) {
    $("end-title").setAttribute("tabindex", "-1");
    if (!document.activeElement || document.activeElement === document.body || document.activeElement.closest("#hand, #prompt")) {
      $("end-title").focus();
    }
    watchNextGame();
  }
}

// The next game is announced by the socket and answered to the player who starts it: go once,
// a second navigation would abort the first.
let goingTo = null;
function goToGame(game) {
  if (goingTo !== null) return;
  goingTo = game;
  location.assign(`/games/${game}/`);
}

// When someone starts the next game, seated players are taken to it: the socket says so
// (onNextGame). One look at the table covers a next game that started before this page loaded.
function watchNextGame() {
  if (nextWatch || cfg.seat === null || !S.loadedOver) return;
  nextWatch = (async () => {
    try {
      const r = await fetch(`/api/tables/${cfg.table}/`, { cache: "no-store" });
      if (!r.ok) return;
      const t = await r.json();
      if (t.current_game && t.current_game !== cfg.game && t.status === "playing") goToGame(t.current_game);
    } catch {
      // the socket still tells when the next game starts
    }
  })();
}

function csrf() {
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

$("next-game").addEventListener("click", async () => {
  const b = $("next-game");
  b.disabled = true;
  try {
    const r = await fetch(`/api/tables/${cfg.table}/next-game/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: "{}",
      credentials: "same-origin",
    });
    const d = await r.json();
    if (r.ok && d.current_game) {
      goToGame(d.current_game);
      return;
    }
    if (d.code === "game_running" && d.current_game) goToGame(d.current_game);
    showError(d.detail || gettext("That did not work."));
  } catch {
    showError(gettext("Not connected. Wait a moment and try again."));
  }
  b.disabled = false;
});

$("reclaim").addEventListener("click", () => {
  if (!live.send({ type: "reclaim" })) showError(gettext("Not connected. Wait a moment and try again."));
});

// A hook for tests and power users: send any command as the UI would.
window.harehraGame = { send: (cmd) => live.command(cmd), state: S };

live.connect();

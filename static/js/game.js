// The game page: renders the live game from `state` + events, and sends the player's decisions.
/* global gettext, ngettext, interpolate */
import { LiveGame } from "./live.js";
import { describe, errorWords, seatName } from "./words.js";
import { cardImg, decidingWords, drawTable, el, seatTile, setRing } from "./tableview.js";
import { Cues } from "./cues.js";
import { Motion } from "./motion.js";

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
  autoAnswer: Boolean(cfg.auto_answer),
  outOrder: [], // seats in the order they were eliminated
  outSeen: false,
};
const motion = new Motion($("fx"));
const cues = new Cues({ baseTitle: document.title });

const ctx = () => ({
  mySeat: cfg.seat,
  seats: S.seats,
  cards: cfg.cards,
  handLimit: S.view && S.view.ruleset ? S.view.ruleset.hand_size : undefined,
});
const fmt = (t, v) => interpolate(t, v, true);
const card = (id) => cfg.cards.find((c) => c.id === id) || { id, name: id, effect: "" };

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
    noteOut(e);
    motion.queue(e, cfg.seat);
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
    motion.flush();
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
  let total = (cfg.timers && cfg.timers[kind]) || 30;
  // With "answer for me when I can't", my reaction windows are the short one.
  if (S.autoAnswer && seat === cfg.seat && (kind === "volley" || kind === "skip")) total = Math.min(total, cfg.auto_answer_seconds);
  S.deadlineTotal = total * 1000;
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
    S.outOrder = [];
    for (const e of frag) {
      logEvent(e, false);
      noteOut(e);
    }
    for (const li of live.reverse()) log.prepend(li);
    if (S.view && S.view.over) renderEnd();
  } catch {
    // the log is a convenience; the game state is already shown
  }
}

function noteOut(e) {
  if (e.type === "PlayerEliminated" && !S.outOrder.includes(e.seat)) S.outOrder.push(e.seat);
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
  if (mine("volley")) {
    if (id === "taptap" && canReact("taptap")) send({ react: "taptap" });
    return;
  }
  if (mine("skip")) {
    if (id === "strom" && canReact("strom")) send({ react: "strom" });
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
  return whyNot(i) === null;
}

// Why a card cannot be used now, in words (null: it can).
function whyNot(i) {
  const v = S.view;
  if (!v || v.over) return gettext("The game is over.");
  if (away()) return gettext("A bot is playing your seat: take it back first.");
  if (S.pending) return gettext("Your move is on its way.");
  const id = v.hand[i];
  if (!myTurn()) return gettext("Wait for your turn.");
  const kind = v.awaiting.kind;
  if (kind === "discard") return null;
  if (kind === "volley") {
    return id === "taptap" && canReact("taptap") ? null : gettext("Only Hare Taptap answers a Hare Cumi; or take it.");
  }
  if (kind === "skip") {
    return id === "strom" && canReact("strom") ? null : gettext("Only a Strom forwards the skip; or lose your turn.");
  }
  if (burnable().length) {
    return burnable().some((x) => x.burn === id) ? null : gettext("That card cannot be played now.");
  }
  if (S.mode === "cumi" && id !== "cumi") return gettext("Choose more Hare Cumi, or a player to aim at.");
  if (legalPlays(id).length) return null;
  if (id === "taptap") return gettext("Hare Taptap only answers a Hare Cumi aimed at you.");
  if (id === "mini") return gettext("Hare Mini is disabled.");
  if (id === "cumi") return gettext("Every other player is protected.");
  return gettext("That card cannot be played now.");
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
  $("game").classList.toggle("over", Boolean(v.over));
  $("game").dataset.mine = myTurn() && !v.over && !away() ? v.awaiting.kind : "";
  renderPlayers();
  renderTurn();
  renderPrompt();
  renderHand();
  renderAway();
  renderOut();
  renderEnd();
  cues.update({
    mine: myTurn() && !v.over && !away(),
    key: v.awaiting ? `${S.seq}:${v.awaiting.kind}:${v.turn_number}` : "",
    kindKey: v.awaiting ? `${v.awaiting.kind}:${v.awaiting.seat}:${v.turn_number}` : "",
    words: turnWords(),
  });
}

function presenceText(seat) {
  const p = S.presence[seat];
  const label = S.seats.find((s) => s.seat === seat);
  if (label && label.is_bot) return { cls: "bot", text: gettext("bot") };
  if ((p && p.bot_playing) || (label && label.bot_playing)) return { cls: "away", text: gettext("away · a bot plays") };
  if (!p || !p.status) return { cls: "", text: "" };
  if (p.status === "connected") return { cls: "connected", text: gettext("online") };
  return { cls: "offline", text: gettext("offline") };
}

function playerModel(p) {
  const label = S.seats.find((s) => s.seat === p.seat);
  return {
    ...p,
    name: label ? label.name : seatName(ctx(), p.seat),
    presence: presenceText(p.seat),
    you: p.seat === cfg.seat,
    hand: null,
  };
}

function renderPlayers() {
  const v = S.view;
  const seated = cfg.seat !== null;
  const common = {
    shuffler: v.shuffler,
    awaiting: v.awaiting,
    over: v.over,
    winner: v.winner,
  };
  drawTable($("table-area"), {
    ...v,
    ...common,
    players: v.players.map(playerModel),
    bottom: seated ? cfg.seat : 0,
    withBottom: !seated,
    seatsBox: $("players"),
    feltBox: { drawBox: $("draw-pile"), discardBox: $("discard-pile"), dirBox: $("direction") },
    cardName: (id) => card(id).name,
  });
  const me = $("me");
  if (seated) {
    const p = v.players.find((x) => x.seat === cfg.seat);
    me.replaceChildren(seatTile(playerModel(p), { ...common, pos: "bottom" }));
  } else {
    me.replaceChildren();
  }
}

function turnWords() {
  const v = S.view;
  if (!v) return "";
  if (v.over) return gettext("The game is over.");
  if (!v.awaiting) return "";
  if (v.awaiting.seat === cfg.seat) {
    return {
      turn: gettext("Your turn"),
      volley: gettext("Answer the Hare Cumi"),
      skip: gettext("Answer the skip"),
      discard: gettext("Discard down to your limit"),
    }[v.awaiting.kind];
  }
  const label = S.seats.find((s) => s.seat === v.awaiting.seat);
  return fmt(gettext("%(name)s is %(doing)s"), {
    name: label ? label.name : seatName(ctx(), v.awaiting.seat),
    doing: decidingWords(v.awaiting.kind),
  });
}

function renderTurn() {
  const v = S.view;
  if (!v) return;
  const text = $("turn-text");
  const words = turnWords();
  const current = v.awaiting && S.deadlineFor === `${v.awaiting.kind}:${v.awaiting.seat}`;
  const left = S.deadline && current && !v.over && S.deadline > Date.now() - 1000 ? Math.max(0, Math.ceil((S.deadline - Date.now()) / 1000)) : null;
  const line = left !== null ? `${words} · ${fmt(ngettext("%(s)s second left", "%(s)s seconds left", left), { s: left })}` : words;
  if (text.textContent !== line) text.textContent = line;
  const ring = $("ring-fg");
  const frac = left !== null ? Math.max(0, Math.min(1, (S.deadline - Date.now()) / S.deadlineTotal)) : null;
  const length = 2 * Math.PI * 19;
  ring.setAttribute("stroke-dasharray", `${length}`);
  ring.setAttribute("stroke-dashoffset", `${length * (1 - (frac || 0))}`);
  $("turn-info").classList.toggle("urgent", left !== null && left <= 5);
  $("turn-info").classList.toggle("mine", myTurn() && !v.over);
  setRing($("game"), frac);
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
    title.textContent = fmt(
      ngettext("%(name)s aims Hare Cumi at you", "%(name)s aims %(n)s × Hare Cumi at you", vol.count),
      { name: nameOf(vol.attacker), n: vol.count },
    );
    const ok = canReact("taptap");
    text.textContent = ok
      ? gettext("Play your Hare Taptap to evade them all, or take it.")
      : S.autoAnswer
        ? gettext("You hold no Hare Taptap: you take it when the time is up.")
        : gettext("You hold no Hare Taptap: take it.");
    buttons.append(
      button(fmt(ngettext("Take it (%(n)s damage)", "Take it (%(n)s damage)", vol.count), { n: vol.count }), () => send({ react: "none" }), { action: "decline" }),
    );
  } else if (kind === "skip") {
    title.textContent = gettext("You are skipped");
    text.textContent = canReact("strom")
      ? gettext("Play your Strom to pass the skip on to the next player, or lose your turn.")
      : S.autoAnswer
        ? gettext("You hold no Strom: you lose your turn when the time is up.")
        : gettext("You hold no Strom: you lose your turn.");
    buttons.append(button(gettext("Lose my turn"), () => send({ react: "none" }), { action: "decline" }));
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
        button(fmt(gettext("At %(name)s"), { name: nameOf(t) }), () => send({ play: Array(k).fill("cumi"), target: t }), {
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

function nameOf(seat) {
  const label = S.seats.find((s) => s.seat === seat);
  return label ? label.name : seatName(ctx(), seat);
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
  hand.dataset.count = String(v.hand.length);
  const waiting = !myTurn() || v.over;
  hand.classList.toggle("waiting", waiting);
  if (!v.hand.length) hand.append(el("p", { class: "hand-empty", text: gettext("No cards in your hand.") }));
  v.hand.forEach((id, i) => {
    const c = card(id);
    const reason = whyNot(i);
    const enabled = reason === null;
    const picked = S.picked.includes(i);
    const tipId = `card-why-${i}`;
    const b = el(
      "button",
      {
        type: "button",
        class: `card${picked ? " picked" : ""}${enabled ? " playable" : " off"}`,
        "data-card": id,
        "data-index": i,
        "data-reason": reason,
        "aria-disabled": enabled ? null : "true",
        "aria-pressed": S.mode ? String(picked) : null,
        "aria-label": c.name,
        "aria-describedby": tipId,
        title: reason ? `${c.name}: ${reason}` : `${c.name}: ${c.effect}`,
        onclick: () => {
          if (enabled) onCard(i);
          else if (!waiting) showTip(b, c, reason);
        },
        onfocus: () => {
          if (!enabled && !waiting) showTip(b, c, reason);
        },
        onblur: () => hideTip(),
      },
      cardImg(id),
      el("span", { class: "card-name", text: c.name }),
      el("span", { class: "visually-hidden", id: tipId, text: reason ? reason : c.effect }),
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
    timer = setTimeout(() => showTip(target, c, target.dataset.reason || null), 500);
  }, { passive: true });
  for (const ev of ["touchend", "touchmove", "touchcancel"]) target.addEventListener(ev, () => clearTimeout(timer));
  target.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    showTip(target, c, target.dataset.reason || null);
  });
}

let tipTimer = null;
function showTip(target, c, reason) {
  const tip = $("card-tip");
  tip.textContent = "";
  tip.append(el("strong", { text: c.name }), el("span", { text: ` ${reason || c.effect}` }));
  tip.classList.toggle("why", Boolean(reason));
  tip.hidden = false;
  const r = target.getBoundingClientRect();
  tip.style.top = `${window.scrollY + r.top - 8}px`;
  tip.style.left = `${Math.max(8, Math.min(window.innerWidth - 248, r.left))}px`;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(hideTip, 3500);
}

function hideTip() {
  $("card-tip").hidden = true;
}

function renderAway() {
  $("away-banner").hidden = !away() || !S.view || S.view.over;
}

// Being eliminated gets its own moment: a panel that says so, until the player dismisses it.
function renderOut() {
  const v = S.view;
  const me = cfg.seat !== null && v.players.find((p) => p.seat === cfg.seat);
  const show = Boolean(me && me.eliminated && !v.over && !S.outSeen);
  const box = $("out-moment");
  const first = box.hidden && show;
  box.hidden = !show;
  $("game").classList.toggle("i-am-out", Boolean(me && me.eliminated));
  if (first) {
    $("out-title").setAttribute("tabindex", "-1");
    $("out-title").focus();
  }
}

$("out-watch").addEventListener("click", () => {
  S.outSeen = true;
  render();
});

// Placings: the winner first, then those eliminated, the last one out placed highest.
function placings(v) {
  const out = S.outOrder.filter((s) => v.players.some((p) => p.seat === s && p.eliminated));
  for (const p of v.players) if (p.eliminated && !out.includes(p.seat)) out.unshift(p.seat);
  const standing = v.players.filter((p) => !p.eliminated).map((p) => p.seat);
  const rows = [];
  if (v.result === "win" && v.winner !== null) rows.push({ place: 1, seats: [v.winner] });
  else if (standing.length) rows.push({ place: 1, seats: standing });
  let place = rows.length ? rows[0].seats.length + 1 : 1;
  for (const s of [...out].reverse()) {
    if (rows.some((r) => r.seats.includes(s))) continue;
    rows.push({ place, seats: [s] });
    place += 1;
  }
  return rows;
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
      v.winner === cfg.seat ? gettext("You won!") : fmt(gettext("%(name)s won!"), { name: nameOf(v.winner) });
  } else if (v.result === "draw") {
    $("end-title").textContent = gettext("A draw");
  } else {
    $("end-title").textContent = gettext("The game was called off");
  }
  box.dataset.result = v.result || "";
  box.classList.toggle("won", v.winner === cfg.seat && cfg.seat !== null);
  $("end-text").textContent = gettext("Play another round at this table, watch this game again, or leave.");
  const list = $("placings");
  if (v.result === "aborted") list.replaceChildren();
  else {
    list.replaceChildren(
      ...placings(v).map((r) =>
        el("li", { class: `placing place-${r.place}`, "data-place": r.place },
          el("span", { class: "place-no", text: fmt(gettext("%(n)s."), { n: r.place }) }),
          el("span", { class: "place-names", text: r.seats.map((s) => (s === cfg.seat ? fmt(gettext("%(name)s (you)"), { name: nameOf(s) }) : nameOf(s))).join(", ") }),
        ),
      ),
    );
  }
  $("next-game").hidden = cfg.seat === null;
  if (first) {
    $("end-title").setAttribute("tabindex", "-1");
    if (!document.activeElement || document.activeElement === document.body || document.activeElement.closest("#hand, #prompt, #out-moment")) {
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

// "Answer for me when I can't": a setting of this seat, kept by the server (it times my reaction
// windows) and remembered in this browser for the next games.
const autoBox = $("opt-autoanswer");
async function setAutoAnswer(on) {
  try {
    const r = await fetch(`/api/games/${cfg.game}/auto-answer/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify({ on }),
      credentials: "same-origin",
    });
    if (!r.ok) throw new Error(String(r.status));
    S.autoAnswer = (await r.json()).on;
  } catch {
    showError(gettext("That did not work."));
  }
  if (autoBox) autoBox.checked = S.autoAnswer;
  render();
}
if (autoBox) {
  let remembered = null;
  try {
    remembered = localStorage.getItem("harehra.autoAnswer");
  } catch {
    /* no storage */
  }
  autoBox.checked = S.autoAnswer;
  if (remembered !== null && (remembered === "1") !== S.autoAnswer && !S.loadedOver) setAutoAnswer(remembered === "1");
  autoBox.addEventListener("change", () => {
    try {
      localStorage.setItem("harehra.autoAnswer", autoBox.checked ? "1" : "0");
    } catch {
      /* no storage */
    }
    setAutoAnswer(autoBox.checked);
  });
}

$("reclaim").addEventListener("click", () => {
  if (!live.send({ type: "reclaim" })) showError(gettext("Not connected. Wait a moment and try again."));
});

// A hook for tests and power users: send any command as the UI would.
window.harehraGame = { send: (cmd) => live.command(cmd), state: S };

live.connect();

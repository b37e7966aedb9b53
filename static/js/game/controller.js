// The game page's controller: keeps the state (game/state.js) from the live socket's messages,
// renders the page from it, and sends this player's decisions.

import { $, csrfToken, fmt, gettext } from "../core/dom.js";
import { LiveGame } from "../core/gamesocket.js";
import { aimCommand, aimWords, seatAims } from "../table/aim.js";
import { Cues } from "../table/cues.js";
import { END_EVENTS, EventType, SEAT_EVENTS } from "../table/events.js";
import { Motion } from "../table/motion.js";
import { errorWords } from "../table/words.js";
import { bindEnd, goToGame, renderEnd, renderOut } from "./end.js";
import { hideTip, renderHand, tipAt } from "./hand.js";
import { bindKeys, focusDecision, syncAimFocus } from "./keyboard.js";
import { loadHistory, logEvent, showError } from "./log.js";
import { renderPlayers, syncPresence } from "./players.js";
import { focusPrompt, renderPrompt, renderTurn, turnWords } from "./prompt.js";
import {
  away,
  burnable,
  canReact,
  deadlineTotal,
  legalPlays,
  mine,
  myTurn,
  nameOf,
  newState,
  newsDue,
} from "./state.js";

export function startGame(cfg) {
  const S = newState(cfg);
  const g = { cfg, S, render, send, showError, cancelAim, aimAt };
  const motion = new Motion($("fx"));
  const cues = new Cues({ baseTitle: document.title });

  const live = new LiveGame(cfg.game, {
    onStatus(status, delay) {
      const c = $("connection");
      if (status === "open") {
        c.textContent = "";
        c.className = "connection";
      } else if (status === "reconnecting") {
        c.textContent = fmt(gettext("Connection lost. Reconnecting in %(s)s s…"), { s: Math.ceil(delay / 1000) });
        c.className = "connection warn";
      } else if (status === "sanctioned") {
        // The notice at the top of the page says why (core/sanction.js); the seat is no longer
        // theirs to take back.
        c.textContent = "";
        c.className = "connection";
        S.sanctioned = true;
        render();
      } else if (status === "limited") {
        c.textContent = gettext("Too many connections or messages: close other tabs of this game and reload the page.");
        c.className = "connection error";
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
      S.places = m.places;
      S.awayWarning = Boolean(m.away_warning);
      syncPresence(g, m.seats);
      S.status = m.status;
      setDeadline(m.deadline, m.view.awaiting && m.view.awaiting.kind, m.view.awaiting && m.view.awaiting.seat);
      S.ended = m.view.over;
      if (S.loadedOver === undefined) S.loadedOver = m.view.over;
      S.mode = null;
      S.picked = [];
      S.askedAt = m.seq;
      hideTip();
      loadHistory(g, m.seq, () => {
        if (S.view && S.view.over) renderEnd(g);
      });
      render();
      watchNews();
    },
    onEvent(seq, e) {
      logEvent(g, e, true);
      motion.queue(e, cfg.seat);
      if (SEAT_EVENTS.includes(e.type)) {
        S.presence[e.seat] = { ...(S.presence[e.seat] || {}), bot_playing: e.type === EventType.SEAT_TAKEN_BY_BOT };
      }
      if (END_EVENTS.includes(e.type)) S.ended = true;
    },
    // Each push ends with this viewer's view and legal commands: the page renders from it alone.
    onView(m) {
      if (m.seq < S.seq) return;
      const turnChanged = JSON.stringify(m.awaiting) !== JSON.stringify(S.view && S.view.awaiting);
      S.view = m.view;
      S.legal = m.legal;
      S.seq = m.seq;
      S.status = m.status;
      S.places = m.places;
      S.awayWarning = Boolean(m.away_warning);
      if (m.deadline && m.awaiting) setDeadline(m.deadline, m.awaiting.kind, m.awaiting.seat);
      else S.deadline = null;
      if (turnChanged) {
        S.mode = null;
        S.picked = [];
        S.askedAt = m.seq; // a new decision: it takes the focus if it is this player's
        hideTip(); // a card's tip belongs to the decision it was shown in
      }
      render();
      motion.flush();
      watchNews();
    },
    onDeadline(m) {
      setDeadline(m.deadline, m.kind, m.seat);
      renderTurn(g);
      watchNews();
    },
    onPresence(seats) {
      for (const s of seats) S.presence[s.seat] = s;
      render();
      watchNews();
    },
    onRatings(m) {
      S.ratings = { state: m.state, changes: m.changes || [] };
      render();
    },
    onStanding(m) {
      S.standing = { volley: m.volley, skip: m.skip };
      syncStanding();
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
      syncStanding(); // a refused standing answer: the selects show the seat's as they were
      showError(errorWords(m.code));
      live.send({ type: "sync" }); // the game may have moved on: the socket sends the view as it is
    },
  });

  function setDeadline(iso, kind, seat) {
    S.deadline = iso ? Date.parse(iso) : null;
    S.deadlineFor = `${kind}:${seat}`;
    S.deadlineTotal = deadlineTotal(g, kind, seat);
  }

  function send(cmd) {
    if (S.pending) return;
    $("error").hidden = true;
    if (!live.command(cmd)) {
      showError(gettext("Not connected. Wait a moment and try again."));
      return;
    }
    // The controls stay held until the command's answer: the socket sends it again (same cmd_id)
    // until one comes, over a reconnection too. Giving them back sooner let a second decision
    // follow the first, to be applied after it to a game that had moved on (bench_deploy: a
    // server killed under load, the page's "wrong action" error).
    S.pending = true;
    S.mode = null;
    S.picked = [];
    render();
  }

  function cancelAim() {
    S.mode = null;
    S.picked = [];
    render();
  }

  // Aim the chosen Hare Cumi at `seat` (a seat on the table or a target button): sent only when
  // the legal commands hold that volley; otherwise the seat says why not.
  function aimAt(seat) {
    if (S.mode !== "cumi" || S.pending || !mine(g, "turn")) return;
    const cmd = aimCommand(S.legal, S.picked.length, seat);
    if (cmd) {
      send(cmd);
      return;
    }
    const tile = document.querySelector(`#players .seat[data-seat="${seat}"]`);
    const why = seatAims(S.view.players, cfg.seat, S.legal, S.picked.length).find((a) => a.seat === seat);
    if (tile && why) tipAt(tile, "", aimWords(why.why, nameOf(g, seat)), true);
  }

  // While Hare Cumi are chosen: each other seat as a target, or why not.
  function aimsNow() {
    if (S.mode !== "cumi" || S.pending || !mine(g, "turn")) return null;
    const aims = new Map();
    for (const a of seatAims(S.view.players, cfg.seat, S.legal, S.picked.length)) {
      aims.set(a.seat, { ...a, words: aimWords(a.why, nameOf(g, a.seat)), onAim: aimAt });
    }
    return aims;
  }

  function togglePick(i, max) {
    const at = S.picked.indexOf(i);
    if (at >= 0) S.picked.splice(at, 1);
    else if (S.picked.length < max) S.picked.push(i);
    render();
  }

  function onCard(i) {
    if (S.pending || away(g)) return;
    const id = S.view.hand[i];
    if (S.mode === "discard") {
      togglePick(i, S.view.discard_count);
      return;
    }
    if (mine(g, "volley")) {
      if (id === "taptap" && canReact(g, "taptap")) send({ react: "taptap" });
      return;
    }
    if (mine(g, "skip")) {
      if (id === "strom" && canReact(g, "strom")) send({ react: "strom" });
      return;
    }
    if (!mine(g, "turn")) return;
    if (burnable(g).length) {
      if (burnable(g).some((x) => x.burn === id)) send({ burn: id });
      return;
    }
    if (id === "cumi" && legalPlays(g, "cumi").length) {
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

  // What this page waits for from the server, and until when (state.js newsDue).
  function watchNews() {
    live.expectNews(newsDue(g, Date.now()));
  }

  function render() {
    const v = S.view;
    if (!v) return;
    if (mine(g, "discard")) S.mode = "discard";
    else if (S.mode === "discard") {
      S.mode = null;
      S.picked = [];
    }
    const game = $("game");
    game.dataset.loading = "";
    game.dataset.seq = S.seq;
    game.dataset.status = S.status;
    game.dataset.awaiting = v.awaiting ? `${v.awaiting.kind}:${v.awaiting.seat}` : "";
    game.classList.toggle("over", Boolean(v.over));
    game.dataset.mine = myTurn(g) && !v.over && !away(g) ? v.awaiting.kind : "";
    renderPlayers(g, aimsNow());
    renderTurn(g);
    renderPrompt(g);
    renderHand(g, onCard);
    syncAimFocus();
    const decision = myTurn(g) && !v.over && !away(g) && !S.pending ? `${S.askedAt}:${v.awaiting.kind}` : null;
    if (decision && decision !== S.focusedDecision) {
      S.focusedDecision = decision;
      focusDecision(g);
    }
    $("away-banner").hidden = !away(g) || !S.view || S.view.over || S.sanctioned;
    // One more missed turn and a bot plays this seat (the server says so in each view).
    $("away-warning").hidden = !S.awayWarning || away(g) || Boolean(v.over);
    renderOut(g);
    renderEnd(g);
    cues.update({
      mine: myTurn(g) && !v.over && !away(g),
      key: v.awaiting ? `${S.seq}:${v.awaiting.kind}:${v.turn_number}` : "",
      kindKey: v.awaiting ? `${v.awaiting.kind}:${v.awaiting.seat}:${v.turn_number}` : "",
      words: turnWords(g),
    });
  }
  setInterval(() => renderTurn(g), 250);
  bindEnd(g);
  bindAutoAnswer(g);
  bindKeys(g);

  // Standing answers: sent over the game's socket, which answers this page alone with the seat's
  // answers as the server now holds them (a refusal comes as an error, and the selects go back).
  function syncStanding() {
    for (const kind of ["volley", "skip"]) {
      const box = $(`opt-standing-${kind}`);
      if (box) box.value = S.standing[kind];
    }
  }
  for (const kind of ["volley", "skip"]) {
    const box = $(`opt-standing-${kind}`);
    if (!box) continue;
    box.addEventListener("change", () => {
      if (!live.send({ type: "standing", [kind]: box.value })) {
        showError(gettext("Not connected. Wait a moment and try again."));
        syncStanding();
      }
    });
  }
  syncStanding();

  $("reclaim").addEventListener("click", () => {
    if (!live.send({ type: "reclaim" })) showError(gettext("Not connected. Wait a moment and try again."));
  });

  // A hook for tests and power users: a "harehra:command" event on the document sends its
  // detail (any command) as the page's own decisions are sent, answer and error included.
  document.addEventListener("harehra:command", (e) => live.command(e.detail));

  live.connect();
}

// "Answer for me when I can't": a setting of this seat, kept by the server (it times my reaction
// windows) and remembered in this browser for the next games.
function bindAutoAnswer(g) {
  const { cfg, S } = g;
  const autoBox = $("opt-autoanswer");
  if (!autoBox) return;
  async function setAutoAnswer(on) {
    try {
      const r = await fetch(`/api/games/${cfg.game}/auto-answer/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ on }),
        credentials: "same-origin",
      });
      if (!r.ok) throw new Error(String(r.status));
      S.autoAnswer = (await r.json()).on;
    } catch {
      showError(gettext("That did not work."));
    }
    autoBox.checked = S.autoAnswer;
    g.render();
  }
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

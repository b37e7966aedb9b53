// The end of the game for this player: the moment they are out, the end screen with the
// placings, and going on to the table's next game.

import { $, csrfToken, el, fmt, gettext } from "../core/dom.js";
import { errorWords } from "../table/words.js";
import { nameOf } from "./state.js";

// The placings as the server sends them (`places`: each seat's place once the game has finished,
// by the rule the ratings follow: shared places, abandoned seats last), as rows of the seats that
// share a place, first place first. The page never ranks anyone itself.
export function placings(places) {
  const rows = new Map();
  (places || []).forEach((place, seat) => rows.set(place, [...(rows.get(place) || []), seat]));
  return Array.from(rows, ([place, seats]) => ({ place, seats })).sort((a, b) => a.place - b.place);
}

// A rating change as the end screen words it: "1012 → 1040 (+28)".
export function ratingWords({ before, after }) {
  const diff = after - before;
  const signed = diff > 0 ? `+${diff}` : diff < 0 ? `−${-diff}` : "±0";
  return fmt(gettext("%(before)s → %(after)s (%(diff)s)"), { before, after, diff: signed });
}

// Each person's overall rating before and after a rated game, as the server sends them (with the
// page, then pushed when the game ends); a placeholder until they come.
function renderRatings(g) {
  const { cfg, S } = g;
  const box = $("end-ratings");
  const { state, changes } = S.ratings;
  box.hidden = S.view.result === "aborted" || state === "unrated";
  if (box.hidden) return;
  const list = $("rating-changes");
  if (state !== "rated") {
    list.replaceChildren(el("li", { class: "rating-pending", text: gettext("Working out the new ratings…") }));
    return;
  }
  const named = (s) => (s === cfg.seat ? fmt(gettext("%(name)s (you)"), { name: nameOf(g, s) }) : nameOf(g, s));
  list.replaceChildren(
    ...changes.map((c) =>
      el("li", { class: `rating-change ${c.after >= c.before ? "up" : "down"}`, "data-seat": c.seat, "data-before": c.before, "data-after": c.after },
        el("span", { class: "rating-name", text: named(c.seat) }),
        el("span", { class: "rating-figures", text: ratingWords(c) }),
      ),
    ),
  );
}

// Being eliminated gets its own moment: a panel that says so, until the player dismisses it.
export function renderOut({ cfg, S }) {
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

export function renderEnd(g) {
  const { cfg, S } = g;
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
      v.winner === cfg.seat ? gettext("You won!") : fmt(gettext("%(name)s won!"), { name: nameOf(g, v.winner) });
  } else if (v.result === "draw") {
    $("end-title").textContent = gettext("A draw");
  } else {
    $("end-title").textContent = gettext("The game was called off");
  }
  box.dataset.result = v.result || "";
  box.classList.toggle("won", v.winner === cfg.seat && cfg.seat !== null);
  $("end-text").textContent = cfg.event
    ? eventText(cfg, S)
    : gettext("Play another round at this table, watch this game again, or leave.");
  const list = $("placings");
  if (v.result === "aborted") list.replaceChildren();
  else {
    const named = (s) => (s === cfg.seat ? fmt(gettext("%(name)s (you)"), { name: nameOf(g, s) }) : nameOf(g, s));
    list.replaceChildren(
      ...placings(S.places).map((r) =>
        el("li", { class: `placing place-${r.place}`, "data-place": r.place },
          el("span", { class: "place-no", text: fmt(gettext("%(n)s."), { n: r.place }) }),
          el("span", { class: "place-names", text: r.seats.map(named).join(", ") }),
        ),
      ),
    );
  }
  renderRatings(g);
  // A tournament's game: the event seats the next one, so the way on is back to the event.
  $("next-game").hidden = cfg.seat === null || Boolean(cfg.event);
  // Rematch (a plain form, challenges/): offers the same people the next game, each to accept.
  const rematch = document.getElementById("rematch");
  if (rematch) rematch.hidden = cfg.seat === null || Boolean(cfg.event);
  $("table-link").hidden = Boolean(cfg.event);
  if (first) {
    $("end-title").setAttribute("tabindex", "-1");
    if (!document.activeElement || document.activeElement === document.body || document.activeElement.closest("#hand, #prompt, #out-moment")) {
      $("end-title").focus();
    }
    if (cfg.event) backToEvent(g);
    else watchNextGame(g);
  }
}

// In a running arena a player is seated again as soon as they are free: the page takes them back
// to the event page (which takes them on to their next table) unless they choose to stay. Only
// when the game ended while the page was open: a finished game opened later is being looked at.
export const BACK_TO_EVENT_MS = 5000;

export function goesBackToEvent(cfg, S) {
  return Boolean(cfg.event && cfg.event.format === "arena" && cfg.event.status === "running" && cfg.seat !== null && S.loadedOver === false);
}

function eventText(cfg, S) {
  const name = cfg.event.name;
  if (goesBackToEvent(cfg, S) && !S.stayHere) {
    return fmt(gettext("A game of %(name)s. Back to the tournament in a few seconds: its page takes you to your next table once you are seated."), { name });
  }
  return fmt(gettext("A game of %(name)s. The tournament's page has the standings, and takes you to your next table once you are seated."), { name });
}

let backTimer = null;
function backToEvent({ cfg, S }) {
  if (!goesBackToEvent(cfg, S)) return;
  const stay = $("event-stay");
  stay.hidden = false;
  stay.addEventListener("click", () => {
    clearTimeout(backTimer);
    S.stayHere = true;
    stay.hidden = true;
    $("end-text").textContent = eventText(cfg, S);
  });
  backTimer = setTimeout(() => location.assign($("event-link").href), BACK_TO_EVENT_MS);
}

// The next game is announced by the socket and answered to the player who starts it: go once,
// a second navigation would abort the first.
let goingTo = null;
export function goToGame(game) {
  if (goingTo !== null) return;
  goingTo = game;
  location.assign(`/games/${game}/`);
}

// When someone starts the next game, seated players are taken to it: the socket says so
// (onNextGame). One look at the table covers a next game that started before this page loaded.
let nextWatch = null;
function watchNextGame({ cfg, S }) {
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

// The end screen's buttons: "watch the rest" after going out, and "next game".
export function bindEnd(g) {
  const { cfg, S } = g;
  $("out-watch").addEventListener("click", () => {
    S.outSeen = true;
    g.render();
  });
  $("next-game").addEventListener("click", async () => {
    const b = $("next-game");
    b.disabled = true;
    try {
      const r = await fetch(`/api/tables/${cfg.table}/next-game/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: "{}",
        credentials: "same-origin",
      });
      const d = await r.json();
      if (r.ok && d.current_game) {
        goToGame(d.current_game);
        return;
      }
      if (d.code === "game_running" && d.current_game) goToGame(d.current_game);
      g.showError(errorWords(d.code)); // the page's words, not the API's English detail
    } catch {
      g.showError(gettext("Not connected. Wait a moment and try again."));
    }
    b.disabled = false;
  });
}

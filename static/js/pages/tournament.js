// The event page, kept current by the event's socket (/ws/tournaments/<id>/, docs/PROTOCOL.md):
// `standings` (the state line, the standings table, the podium and the players' lists of games;
// the same for every viewer) and, for a signed-in viewer, `me` (their own entry: the entry
// panel's sentence and buttons). A player seated at a new table is taken to its game by the page
// itself. The standings table's data-synced counts the standings applied, each list of games'
// data-count the results it holds (tests wait on them, not on time).
import { $, el, fmt, gettext, ngettext } from "../core/dom.js";
import { Socket } from "../core/socket.js";
import { entryControls, entryOpen, entryState, gameToOpen } from "../tournament/follow.js";
import { gameWords, gamesBehind } from "../tournament/games.js";

const cfg = JSON.parse($("tournament-config").textContent);
const left = Number(new URLSearchParams(location.search).get("from")) || null;
// Back from a game (?from=): any other game already seated is opened; else only a new one.
const shown = left ? null : (cfg.me && cfg.me.game) || null;
let status = cfg.status;
let endsAt = cfg.ends_at;
let me = cfg.me;
let going = false;
let socket = null;
let standings = null; // the last standings' rows
let asking = false; // a `games` request is on its way

function go(game) {
  if (going || game === null) return;
  going = true; // once: a second navigation would abort the first
  location.assign(`/games/${game}/`);
}

const STATUS = {
  scheduled: () => gettext("Upcoming"),
  running: () => gettext("Running"),
  finished: () => gettext("Finished"),
  cancelled: () => gettext("Cancelled"),
};

function number(x, digits) {
  return Number(x).toLocaleString(document.documentElement.lang || undefined, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function renderState(m) {
  const line = $("tournament-state");
  line.dataset.status = m.status;
  const word = $("t-status");
  word.className = `status status-${m.status}`;
  word.textContent = (STATUS[m.status] || STATUS.cancelled)();
  $("t-round").textContent =
    m.format === "swiss" && m.status === "running"
      ? ` · ${fmt(gettext("round %(a)s of %(b)s"), { a: m.current_round, b: m.rounds })}`
      : "";
  $("t-entrants").textContent = fmt(ngettext("%(n)s player", "%(n)s players", m.entrants), { n: m.entrants });
}

function badges(r, format) {
  const out = [];
  const badge = (text, extra = {}) => out.push(" ", el("span", { class: "badge", text, ...extra }));
  if (r.paused) badge(gettext("paused"));
  if (r.removed) badge(gettext("removed"), { class: "badge removed" });
  else if (r.withdrawn) badge(gettext("withdrew"));
  if (format === "arena" && r.streak >= 2) badge("×2", { class: "badge streak", title: gettext("Results count double") });
  return out;
}

function row(r, format) {
  const mine = cfg.viewer !== null && r.player === cfg.viewer;
  return el(
    "tr",
    { "data-rank": r.rank, "data-player": r.player, class: mine ? "mine" : null },
    el("td", { text: String(r.rank) }),
    el("td", {}, el("a", { href: `#games-${r.entry}`, text: r.player }), ...badges(r, format)),
    el("td", { class: "rating", text: String(r.points) }),
    el("td", { text: String(r.games) }),
    el("td", { text: String(r.wins) }),
    format === "swiss" ? el("td", { text: number(r.opposition, 1) }) : null,
  );
}

function renderStandings(m) {
  const table = $("standings");
  $("standings-body").replaceChildren(...m.standings.map((r) => row(r, m.format)));
  table.closest(".scroll-x").hidden = m.standings.length === 0;
  $("standings-empty").hidden = m.standings.length > 0;
  table.dataset.synced = String(Number(table.dataset.synced || 0) + 1);
}

const PLACE = { 1: () => gettext("1st"), 2: () => gettext("2nd"), 3: () => gettext("3rd") };

function renderPodium(m) {
  $("podium").hidden = m.podium.length === 0;
  $("podium-steps").replaceChildren(
    ...m.podium.map((r) =>
      el("li", { class: `step step-${r.rank}`, "data-rank": r.rank },
        el("span", { class: "step-place", text: PLACE[r.rank]() }),
        " ",
        el("a", { href: `/players/${encodeURIComponent(r.player)}/`, class: "step-name", text: r.player }),
        " ",
        el("span", { class: "step-points", text: fmt(ngettext("%(n)s point", "%(n)s points", r.points), { n: r.points }) }),
      ),
    ),
  );
}

// The entry panel: the entry form, the sentence of the entry's state (all are on the page, one
// shown), the link to the game being played, and the buttons (pause or come back, leave or
// withdraw) only while they can be used.
function renderEntry() {
  const open = entryOpen(status, cfg.format, endsAt);
  const entered = Boolean(me && me.entered);
  if ($("entry-invite")) $("entry-invite").hidden = !open;
  for (const p of document.querySelectorAll("[data-ended]")) p.hidden = entered || p.dataset.ended !== status;
  const box = $("entry-state");
  if (!box) return; // signed out
  const c = entryControls(status, cfg.format, me, open);
  if ($("entry-form")) $("entry-form").hidden = !c.enter;
  box.hidden = !entered;
  const state = entryState(status, me);
  box.dataset.state = state;
  for (const p of box.querySelectorAll("[data-entry]")) p.hidden = p.dataset.entry !== state;
  if (me && me.game) $("my-game").href = `/games/${me.game}/`;
  const mine = standings && standings.find((r) => r.player === cfg.viewer);
  if (mine) {
    $("my-place").textContent = ` ${fmt(
      ngettext("Your place: %(rank)s of %(n)s, with %(points)s point.", "Your place: %(rank)s of %(n)s, with %(points)s points.", mine.points),
      { rank: mine.rank, n: standings.length, points: mine.points },
    )}`;
  }
  const actions = $("entry-actions");
  if (!actions) return; // the event had ended when the page loaded
  actions.hidden = !c.actions;
  if ($("pause-form")) $("pause-form").hidden = !c.pause;
  if ($("come-back-form")) $("come-back-form").hidden = !c.comeBack;
  for (const w of actions.querySelectorAll("[data-word]")) w.hidden = w.dataset.word !== c.withdrawWord;
}

// The players' lists of games, in the standings' order: each list is whole when it comes (in a
// standings push, for the players its change gave a result, or as the answer to the page's own
// request for those that fell behind).
function gamesBox(row) {
  let box = $(`games-${row.entry}`);
  if (!box) {
    box = el(
      "details",
      { id: `games-${row.entry}`, "data-player": row.player, "data-entry": row.entry, "data-count": 0 },
      el("summary", {}, el("span", { class: "games-player" }), " · ", el("span", { class: "games-count" })),
      el("p", { class: "help", text: gettext("No finished games yet.") }),
    );
  }
  box.querySelector(".games-player").textContent = row.player;
  box.querySelector(".games-count").textContent = fmt(ngettext("%(n)s game", "%(n)s games", row.games), { n: row.games });
  return box;
}

function fillGames(entry, games) {
  const box = $(`games-${entry}`);
  if (!box) return; // not in the standings this page holds yet: its list comes with them
  const list = games.length
    ? el("ul", { class: "game-list" }, ...games.map((g) => {
        const w = gameWords(g);
        return el("li", {}, w.what, " · ", el("strong", { text: w.points }),
          ...(w.replay ? [" · ", el("a", { href: w.replay, text: gettext("Watch the replay") })] : []));
      }))
    : el("p", { class: "help", text: gettext("No finished games yet.") });
  for (const old of [...box.children]) if (old.tagName !== "SUMMARY") old.remove(); // the summary stays (and its focus)
  box.append(list);
  box.dataset.count = String(games.length);
}

function held() {
  const counts = new Map();
  for (const box of $("games-lists").querySelectorAll("details[data-entry]")) {
    counts.set(Number(box.dataset.entry), Number(box.dataset.count));
  }
  return counts;
}

function askBehind() {
  if (asking || !standings || !socket) return;
  const behind = gamesBehind(standings, held(), cfg.games_asked_at_most);
  if (behind.length && socket.send({ type: "games", entries: behind })) asking = true;
}

function renderGames(m) {
  standings = m.standings;
  // The same boxes, moved only when the order changed (an open one stays open, a focused one
  // keeps the focus).
  const lists = $("games-lists");
  const boxes = m.standings.map(gamesBox);
  if (boxes.length !== lists.children.length || boxes.some((b, i) => lists.children[i] !== b)) {
    const focused = document.activeElement;
    lists.replaceChildren(...boxes);
    if (focused && lists.contains(focused)) focused.focus();
  }
  applyGames(m.games || {});
  $("games-section").hidden = !m.standings.some((r) => r.games + r.byes > 0);
}

function applyGames(games) {
  for (const [entry, list] of Object.entries(games)) fillGames(Number(entry), list);
  askBehind();
}

function onMessage(m) {
  if (m.tournament !== cfg.id) return;
  if (m.type === "standings") {
    status = m.status;
    endsAt = m.ends_at;
    renderState(m);
    renderStandings(m);
    renderPodium(m);
    renderGames(m);
    renderEntry();
  } else if (m.type === "games") {
    asking = false;
    applyGames(m.games);
  } else if (m.type === "me") {
    me = m.me;
    renderEntry();
    go(gameToOpen(me, { shown, left }));
  }
}

go(gameToOpen(me, { shown, left }));
socket = new Socket(() => cfg.socket, {
  onMessage,
  onOpen: () => {
    asking = false; // an answer the last connection never brought is asked for again
  },
}).start();

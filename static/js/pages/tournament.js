// The event page, kept current by the event's socket (/ws/tournaments/<id>/, docs/PROTOCOL.md):
// `standings` (the state line, the standings table, the podium; the same for every viewer) and,
// for a signed-in viewer, `me` (their own entry). A player seated at a new table is taken to its
// game by the page itself. The standings table's data-synced counts the standings applied (tests
// wait on it, not on time).
import { $, el, fmt, gettext, ngettext } from "../core/dom.js";
import { Socket } from "../core/socket.js";
import { entryState, gameToOpen } from "../tournament/follow.js";

const cfg = JSON.parse($("tournament-config").textContent);
const left = Number(new URLSearchParams(location.search).get("from")) || null;
// Back from a game (?from=): any other game already seated is opened; else only a new one.
const shown = left ? null : (cfg.me && cfg.me.game) || null;
let status = cfg.status;
let me = cfg.me;
let going = false;

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

// The entry panel: the sentence of the entry's state (all are on the page, one shown), the link to
// the game being played, and the buttons only while they can still be used.
function renderEntry() {
  const box = $("entry-state");
  const open = status === "scheduled" || status === "running";
  for (const id of ["entry-form", "entry-invite"]) if ($(id)) $(id).hidden = !open;
  for (const p of document.querySelectorAll("[data-ended]")) p.hidden = p.dataset.ended !== status;
  if (!box) return;
  const state = entryState(status, me);
  box.dataset.state = state;
  for (const p of box.querySelectorAll("[data-entry]")) p.hidden = p.dataset.entry !== state;
  if (me && me.game) $("my-game").href = `/games/${me.game}/`;
  const actions = $("entry-actions");
  if (actions) actions.hidden = !open || !me || me.withdrawn;
}

function onMessage(m) {
  if (m.tournament !== cfg.id) return;
  if (m.type === "standings") {
    status = m.status;
    renderState(m);
    renderStandings(m);
    renderPodium(m);
    renderEntry();
  } else if (m.type === "me") {
    me = m.me;
    renderEntry();
    go(gameToOpen(me, { shown, left }));
  }
}

go(gameToOpen(me, { shown, left }));
new Socket(() => cfg.socket, { onMessage }).start();

// The lobby's table list, kept current by the lobby socket: the whole list on every (re)connect,
// then one row per change (its new markup, or null once the lobby no longer lists the table).
// The list's data-synced counts the whole lists applied (tests wait on it, not on time).
import { focusKey, restoreFocus } from "../core/dom.js";
import { Socket } from "../core/socket.js";

const root = document.getElementById("lobby-tables");

// A running game you play in is offered as yours to go back to, not to watch (rows are the same
// for every viewer; this page knows who is looking).
function markMine(row) {
  const me = root.dataset.me;
  const link = row && row.querySelector(".watch-link");
  if (!me || !link) return row;
  if (Array.from(row.querySelectorAll(".chip[data-user]")).some((c) => c.dataset.user === me)) {
    link.href = `/games/${link.dataset.game}/`;
    link.textContent = link.dataset.back;
    link.classList.add("mine");
  }
  return row;
}

function showEmpty() {
  const list = root.querySelector(".table-list");
  const empty = list.children.length === 0;
  list.hidden = empty;
  root.querySelector(".lobby-empty").hidden = !empty;
}

function rowFrom(html) {
  const t = document.createElement("template");
  t.innerHTML = html.trim();
  return markMine(t.content.firstElementChild);
}

function placeRow(id, html) {
  const list = root.querySelector(".table-list");
  const old = list.querySelector(`:scope > li[data-table="${id}"]`);
  if (html === null) {
    old?.remove();
  } else if (old) {
    const row = rowFrom(html);
    if (row.outerHTML === old.outerHTML) return;
    const key = focusKey(old);
    old.replaceWith(row);
    restoreFocus(row, key);
  } else {
    // Newest first: table ids grow with their creation.
    const next = Array.from(list.children).find((li) => Number(li.dataset.table) < id);
    list.insertBefore(rowFrom(html), next ?? null);
    const limit = Number(list.dataset.limit || 0);
    while (limit && list.children.length > limit) list.lastElementChild.remove();
  }
  showEmpty();
}

// The whole list, on every (re)connect: only the rows that differ are touched, so a resync that
// finds nothing new moves no focus and makes a screen reader announce nothing.
function syncAll(html) {
  const t = document.createElement("template");
  t.innerHTML = html;
  const fresh = Array.from(t.content.querySelector(".table-list").children);
  const listed = new Set(fresh.map((li) => li.dataset.table));
  for (const li of Array.from(root.querySelector(".table-list").children)) {
    if (!listed.has(li.dataset.table)) li.remove();
  }
  for (const li of fresh) placeRow(Number(li.dataset.table), li.outerHTML);
  showEmpty();
  root.dataset.synced = String(Number(root.dataset.synced || 0) + 1);
}

new Socket(() => root.dataset.socket, {
  onMessage(m) {
    if (m.type === "lobby") syncAll(m.html);
    else if (m.type === "table") placeRow(m.table, m.html);
  },
}).start();
root.querySelectorAll(".table-list > .table-item").forEach(markMine);

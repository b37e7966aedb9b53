// The lobby's table list, kept current by the lobby socket: the whole list on every (re)connect,
// then one row per change (its new markup, or null once the lobby no longer lists the table).
import { focusKey, liveSocket, restoreFocus } from "./socket.js";

const root = document.getElementById("lobby-tables");

function showEmpty() {
  const list = root.querySelector(".table-list");
  const empty = list.children.length === 0;
  list.hidden = empty;
  root.querySelector(".lobby-empty").hidden = !empty;
}

function rowFrom(html) {
  const t = document.createElement("template");
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
}

function placeRow(id, html) {
  const list = root.querySelector(".table-list");
  const old = list.querySelector(`:scope > li[data-table="${id}"]`);
  const key = old ? focusKey(old) : null;
  if (html === null) {
    old?.remove();
  } else if (old) {
    const row = rowFrom(html);
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

liveSocket(root.dataset.socket, (m) => {
  if (m.type === "lobby") {
    const key = focusKey(root);
    root.innerHTML = m.html;
    restoreFocus(root, key);
  } else if (m.type === "table") {
    placeRow(m.table, m.html);
  }
});

// The header's bell (templates/base.html): the unread count of the person's notifications, kept
// up to date by whichever of the page's sockets hears a "notification" message (core/socket.js;
// core/me.js opens the person's own socket on a page that has none). The badge is on the bell and,
// on a phone, on the menu button that hides it. Its words come with the page, in its language
// (the bell's data-unread-words): most pages load no script catalogue.

import { el } from "./dom.js";

function setCount(host, cls, unread, words) {
  if (!host) return;
  let badge = host.querySelector(`.${cls}`);
  if (!unread) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = el("span", { class: `badge ${cls}` });
    host.append(" ", badge);
  }
  badge.replaceChildren(String(unread), el("span", { class: "visually-hidden" }, ` ${words}`));
}

export function showUnread(unread, doc = document) {
  if (!Number.isInteger(unread) || unread < 0) return;
  const bell = doc.querySelector(".nav-bell");
  if (!bell) return;
  bell.dataset.unread = String(unread);
  const words = bell.dataset.unreadWords || "";
  setCount(bell, "nav-bell-count", unread, words);
  setCount(doc.getElementById("nav-toggle"), "nav-toggle-count", unread, words);
}

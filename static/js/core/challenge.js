// Challenges and friends, said live on every page of a signed-in person (templates/base.html):
// whichever of the page's sockets hears a challenge or friend message (core/socket.js hands them
// here) shows it. A challenge offered shows a banner with Accept and Decline (words from the
// page: #challenge-offers' data attributes, as most pages load no script catalogue); a challenge
// started takes the page to its game; a friend coming online or leaving updates every friends
// panel on the page (the lobby's, the phone menu's), which the server renders (/friends/panel/).

import { csrfToken, el, fmt } from "./dom.js";

const KINDS = new Set(["challenge", "challenge_changed", "challenge_started", "friend_online", "friend_gone"]);

// The banner's sentence for an offer, from the page's words.
export function offerText(words, offer) {
  const name = String(offer.from || "");
  if (offer.rematch) return fmt(words.rematch || "", { name });
  return fmt(words.offer || "", { name, seats: offer.seats });
}

function offersBox() {
  return typeof document === "undefined" ? null : document.getElementById("challenge-offers");
}

async function answer(id, action, item, box) {
  item.querySelectorAll("button").forEach((b) => (b.disabled = true));
  let r;
  try {
    r = await fetch(`/api/challenges/${id}/${action}/`, {
      method: "POST",
      headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
      credentials: "same-origin",
    });
  } catch {
    r = null;
  }
  if (!r || !r.ok) {
    const body = r ? await r.json().catch(() => ({})) : {};
    const words = body.code === "too_many_slow_games" ? box.dataset.tooMany : box.dataset.failed;
    item.querySelector(".challenge-offer-text").textContent = words || "";
    item.dataset.failed = "1";
    setTimeout(() => item.remove(), 4000);
    return;
  }
  const body = await r.json();
  if (body.game) location.assign(`/games/${body.game}/`);
  else item.remove();
}

function showOffer(m) {
  const box = offersBox();
  if (!box || !Number.isInteger(m.challenge)) return;
  if (box.querySelector(`[data-challenge="${m.challenge}"]`)) return;
  const words = box.dataset;
  const item = el("div", { class: "challenge-offer", "data-challenge": m.challenge },
    el("span", { class: "challenge-offer-text", text: offerText(words, m) }),
    el("span", { class: "challenge-offer-actions" },
      el("button", { type: "button", class: "button small primary challenge-accept", text: words.accept }),
      el("button", { type: "button", class: "button small challenge-decline", text: words.decline }),
      el("a", { href: `/challenges/${m.challenge}/`, class: "challenge-details", text: words.details }),
    ),
  );
  item.querySelector(".challenge-accept").addEventListener("click", () => answer(m.challenge, "accept", item, box));
  item.querySelector(".challenge-decline").addEventListener("click", () => answer(m.challenge, "decline", item, box));
  box.append(item);
}

function challengeChanged(m) {
  const box = offersBox();
  const item = box && box.querySelector(`[data-challenge="${m.challenge}"]`);
  if (item && m.status !== "pending") item.remove();
  // A challenge's own page reads itself again, with the answers as they are now.
  const page = document.getElementById("challenge");
  if (page && page.dataset.challenge === String(m.challenge)) location.reload();
}

// Every friends panel on the page, read again from the server (in the page's language).
let refreshing = null;
export function refreshFriends() {
  if (typeof document === "undefined") return;
  const panels = document.querySelectorAll(".friends-panel[data-src]");
  if (!panels.length || refreshing) return;
  refreshing = fetch("/friends/panel/", { credentials: "same-origin" })
    .then((r) => (r.ok ? r.text() : null))
    .then((html) => {
      if (html === null) return;
      for (const panel of panels) {
        const body = panel.querySelector(".friends-body");
        if (body) body.innerHTML = html;
      }
    })
    .catch(() => {})
    .finally(() => (refreshing = null));
}

function friendGone(name) {
  for (const li of document.querySelectorAll(".friends-panel .friend")) {
    if (li.dataset.name === name) li.remove();
  }
}

// A message of a page's socket; true when it was one of these.
export function challengeIncoming(m) {
  if (!m || !KINDS.has(m.type)) return false;
  if (typeof document === "undefined") return true;
  if (m.type === "challenge") showOffer(m);
  else if (m.type === "challenge_changed") challengeChanged(m);
  else if (m.type === "challenge_started" && typeof m.url === "string" && m.url.startsWith("/")) {
    if (location.pathname !== m.url) location.assign(m.url);
  } else if (m.type === "friend_online") refreshFriends();
  else if (m.type === "friend_gone") friendGone(String(m.name));
  return true;
}

// The phone's menu shows the friends panel too: read when the menu first opens. The lobby's is
// rendered with the page.
if (typeof document !== "undefined") {
  const toggle = document.getElementById("nav-toggle");
  const panel = document.querySelector(".nav-friends");
  if (toggle && panel) {
    toggle.addEventListener("click", () => {
      if (toggle.getAttribute("aria-expanded") === "true") refreshFriends();
    });
  }
}

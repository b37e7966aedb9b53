// The table chat panel (templates/chat/_panel.html). It talks over the page's own socket through
// chatbridge.js: asks for its channel's history when the socket opens, shows messages as plain
// text (never as markup), sends, and lets a person report a message and the host turn chat off.
import { csrfToken, fmt, gettext } from "../core/dom.js";
import { localTime } from "../core/times.js";
import { chatSender } from "../core/chatbridge.js";
import { chatLimit } from "../core/chatlimit.js";
import { chatErrorWords, reportErrorWords } from "../core/chatwords.js";

const panel = document.getElementById("chat");
const log = document.getElementById("chat-log");
const form = document.getElementById("chat-form");
const input = document.getElementById("chat-input");
const status = document.getElementById("chat-status");
const toggle = document.getElementById("chat-toggle");
const title = document.getElementById("chat-channel");
const count = document.getElementById("chat-count");
const me = panel.dataset.user || "";
let send = null;
let state = { enabled: true, host: false, can_send: false };
let ids = 0;
const shown = new Set();

function say(text, isError = false) {
  status.textContent = text;
  status.classList.toggle("error", isError);
}


// A message's "Report" button opens a small form under it: the reason to pick (abuse first),
// words of one's own (needed for "Something else"), send or cancel.
function openReport(message, button, li) {
  const open = li.querySelector(".chat-report-form");
  if (open) {
    open.querySelector("select").focus();
    return;
  }
  const form = document.getElementById("chat-report-template").content.firstElementChild.cloneNode(true);
  const reason = form.querySelector("select");
  const text = form.querySelector("input");
  const close = () => {
    form.remove();
    button.focus();
  };
  form.querySelector("[data-action=cancel]").addEventListener("click", close);
  form.addEventListener("keydown", (e) => {
    if (e.key === "Escape") close();
  });
  form.addEventListener("input", () => {
    if (status.classList.contains("error")) say(""); // an old complaint goes once the form changes
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (reason.value === "other" && !text.value.trim()) {
      say(reportErrorWords("bad_text"), true);
      text.focus();
      return;
    }
    const sendButton = form.querySelector("button[type=submit]");
    sendButton.disabled = true;
    const r = await fetch(`/api/chat/messages/${message.id}/report/`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ reason: reason.value, text: text.value.trim() }),
    }).catch(() => null);
    if (r && r.ok) {
      form.remove();
      button.textContent = gettext("Reported");
      button.disabled = true;
      say(gettext("Thank you: moderators will look at it."));
      return;
    }
    const body = r ? await r.json().catch(() => ({})) : {};
    sendButton.disabled = false;
    say(reportErrorWords(body.code), true);
  });
  li.append(form);
  reason.focus();
}

// A line the site wrote for its person (chat/notices.py), in the reader's language and time zone.
function noticeWords(message) {
  if (message.notice === "holiday_started") {
    const when = localTime(message.notice_at, { lang: document.documentElement.lang });
    return fmt(gettext("is on holiday until %(when)s: decisions awaited from them at this table wait until then."), { when });
  }
  if (message.notice === "holiday_ended") return gettext("is back from holiday: their clock runs again.");
  return "";
}

function add(message) {
  if (shown.has(message.id)) return;
  shown.add(message.id);
  const li = document.createElement("li");
  li.dataset.id = String(message.id);
  // <bdi>: a name or a message in a right-to-left script is laid out on its own and cannot
  // reorder what stands beside it. textContent: a name or a message is never markup.
  const who = document.createElement("bdi");
  who.className = "chat-author";
  who.textContent = message.user;
  const text = document.createElement("bdi");
  text.className = "chat-text";
  text.textContent = noticeWords(message) || message.text;
  li.append(who, text);
  if (message.notice) li.classList.add("chat-notice");
  if (panel.dataset.signedIn && message.user !== me && !message.notice) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-button chat-report";
    button.textContent = gettext("Report");
    button.setAttribute("aria-label", gettext("Report this message"));
    button.addEventListener("click", () => openReport(message, button, li));
    li.append(button);
  }
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  log.append(li);
  if (atEnd) log.scrollTop = log.scrollHeight;
}

function render() {
  panel.hidden = false;
  title.textContent = state.channel === "players" ? gettext("Players' chat") : gettext("Spectators' chat");
  form.hidden = !state.enabled || !state.can_send;
  toggle.hidden = !state.host;
  toggle.textContent = state.enabled ? gettext("Turn the table's chat off") : gettext("Turn the table's chat on");
  if (!state.enabled) say(gettext("The host has turned this table's chat off."));
  else if (state.why_not === "muted") say(gettext("A moderator has muted you: you can play but not chat."));
  else if (state.why_not === "not_authenticated") say(gettext("Sign in to chat."));
  else if (status.textContent && !status.classList.contains("error")) say("");
}

function join() {
  if (send) send({ type: "chat_join" });
}

document.addEventListener("harehra:chat-socket", (e) => {
  send = e.detail.send;
  join();
});

document.addEventListener("harehra:chat-message", (e) => {
  const m = e.detail;
  switch (m.type) {
    case "chat_history":
      state = m;
      log.replaceChildren();
      shown.clear();
      for (const message of m.messages) add(message);
      log.scrollTop = log.scrollHeight;
      render();
      break;
    case "chat_message":
      if (m.message.channel === state.channel) add(m.message);
      break;
    case "chat_hidden":
      shown.delete(m.id);
      log.querySelector(`li[data-id="${Number(m.id)}"]`)?.remove();
      break;
    case "chat_state":
      join(); // on or off: read the channel again
      break;
    case "chat_ack":
      say("");
      break;
    case "chat_error":
      say(chatErrorWords(m.code), true);
      break;
    default:
      break;
  }
});

// The counter under the input: empty until something is typed; over the limit it says by how much,
// and the message stays as typed (not cut) until it is shortened.
function showCount() {
  const limit = chatLimit(input.value);
  count.textContent = limit.count ? limit.words : "";
  count.classList.toggle("error", limit.over);
  input.setAttribute("aria-invalid", limit.over ? "true" : "false");
  return limit;
}

input.addEventListener("input", showCount);

form.addEventListener("submit", (e) => {
  e.preventDefault();
  const text = input.value.trim();
  if (!text || !send) return;
  if (showCount().over) {
    input.focus();
    return;
  }
  ids += 1;
  send({ type: "chat_send", client_id: `m${ids}`, text });
  input.value = "";
  showCount();
});

toggle.addEventListener("click", () => {
  if (send) send({ type: "chat_set_enabled", enabled: !state.enabled });
});

send = chatSender();
join();

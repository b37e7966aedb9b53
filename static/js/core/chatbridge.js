// The table chat rides on the socket a page already has. A page's socket code calls chatOpened
// with its send function when it opens, and hands every message to chatIncoming, which takes the
// chat's own ("chat_*") and tells the chat panel (chat.js) through document events.

let sender = null;

export function chatOpened(send) {
  sender = send;
  document.dispatchEvent(new CustomEvent("harehra:chat-socket", { detail: { send } }));
}

// The send function of the page's socket if it is open already (the panel may load after it).
export function chatSender() {
  return sender;
}

export function chatIncoming(m) {
  if (!m || typeof m.type !== "string" || !m.type.startsWith("chat_")) return false;
  document.dispatchEvent(new CustomEvent("harehra:chat-message", { detail: m }));
  return true;
}

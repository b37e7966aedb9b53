// A page's live socket: reconnects with backoff when lost, stops for good once refused (4403).
// The server sends what the page needs to resync as the first message of every connection, so a
// page never has to ask for what it missed while it was away.

import { chatIncoming, chatOpened } from "./chatbridge.js";

export function liveSocket(path, onMessage, onRefused = () => {}) {
  let retry = 0;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  function connect() {
    const ws = new WebSocket(`${proto}://${location.host}${path}`);
    ws.onopen = () => {
      retry = 0;
      chatOpened((obj) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(obj)));
    };
    ws.onmessage = (msg) => {
      let m;
      try {
        m = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (!chatIncoming(m)) onMessage(m);
    };
    ws.onclose = (ev) => {
      if (ev.code === 4403) {
        onRefused();
        return;
      }
      const delay = Math.min(15000, 500 * 2 ** retry) + Math.random() * 300;
      retry += 1;
      setTimeout(connect, delay);
    };
  }
  connect();
}

// Replacing markup drops the focus: put it back on the same control in the new markup (a form's
// button by the form's action and seat, a link by its address).
function controlKey(el) {
  if (el.tagName === "FORM") {
    return "form|" + el.getAttribute("action") + "|" + (el.querySelector("[name=seat]")?.value ?? "");
  }
  return "href|" + el.getAttribute("href");
}

export function focusKey(root) {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  const control = a.closest("form") ?? a.closest("a[href]");
  return control ? controlKey(control) : null;
}

export function restoreFocus(root, key) {
  if (!key) return;
  for (const el of root.querySelectorAll("form, a[href]")) {
    if (controlKey(el) === key) {
      (el.tagName === "FORM" ? el.querySelector("button") : el)?.focus();
      return;
    }
  }
}

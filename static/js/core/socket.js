// The one live socket every page uses (game, watch, lobby, table): it reconnects when lost, with
// a quick first try and then spread-out, growing waits, so that a server restart does not bring
// every page back in the same instant; it stops for good when the server refuses it, and when
// the person was suspended or banned it says so on the page (sanction.js). The table chat rides
// on it (chatbridge.js). What to ask for on a new connection (a game socket's
// ?after=<last seq>) is the caller's url(), asked anew on every connection.

import { chatIncoming, chatOpened } from "./chatbridge.js";
import { CLOSE_SANCTIONED, showSanction } from "./sanction.js";
import { showUnread } from "./bell.js";
import { challengeIncoming } from "./challenge.js";

export const FIRST_RETRY_MS = 250;
export const BASE_MS = 3500;
export const GROWTH = 1.6;
export const CAP_MS = 20000;
// After 1012 (a server restarting): one wait drawn evenly from 250 ms to 1.25 s. A restarting
// server closes its sockets a few at a time (harehra_site/management/commands/serve.py), and the
// wait smooths what is left of its pace; a page must be back soon (at most 5 s with its
// reconnection and resume), and a longer spread (it was 3.25 s, when a server closed every socket
// at once) only kept each page away longer.
export const RESTART_MIN_MS = 250;
export const RESTART_SPREAD_MS = 1000;
// A socket closed for sending too much, or for one socket too many, may try again a few times
// (a tab closed meanwhile frees a place), slowly; then it gives up.
export const SLOW_TRIES = 3;

// The wait before reconnect number `attempt` (0 = the first after a loss): 250–500 ms, then about
// 3.5 s growing by 1.6 each time up to 20 s, each wait ±25% at random (`random` in [0, 1)).
export function backoffDelay(attempt, random = Math.random) {
  if (attempt <= 0) return Math.round(FIRST_RETRY_MS * (1 + random()));
  const base = Math.min(CAP_MS, BASE_MS * GROWTH ** (attempt - 1));
  return Math.round(base * (0.75 + 0.5 * random()));
}

// The first wait after a server said it restarts (1012): 250 ms to 1.25 s, evenly.
export function restartDelay(random = Math.random) {
  return Math.round(RESTART_MIN_MS + RESTART_SPREAD_MS * random());
}

// What a close code means for reconnecting (docs/PROTOCOL.md):
//   "stop"  — 4403 (refused: not allowed to see it, signed out, unknown) and 4401 (signed out by
//             a suspension or ban, said by the "sanctioned" message before it): asking again
//             changes nothing;
//   "slow"  — 4429 (too many sockets of this user at this game) and 4008 (closed for sending past
//             the rate limit): a few slow tries, then stop;
//   "restart" — 1012 (service restart): every page of that server comes back, spread evenly over
//             the first 1.25 s (restartDelay), then as after any loss;
//   "later" — 1013 (try again later): no quick first try, the spread waits only;
//   "retry" — anything else (a lost network, a crashed server: 1006, 1001, 1011, ...).
export function closeAction(code) {
  switch (code) {
    case 4403:
    case 4401:
      return "stop";
    case 4429:
    case 4008:
      return "slow";
    case 1012:
      return "restart";
    case 1013:
      return "later";
    default:
      return "retry";
  }
}

// After a close with `code`, having tried `attempt` times since the last connection that served
// something and `slowTries` slow tries: {retry: false, reason} or {retry: true, delay, slow}.
export function afterClose(code, attempt, slowTries, random = Math.random) {
  const action = closeAction(code);
  if (action === "stop") return { retry: false, reason: code === CLOSE_SANCTIONED ? "sanctioned" : "refused" };
  if (action === "slow") {
    if (slowTries >= SLOW_TRIES) return { retry: false, reason: "limited" };
    return { retry: true, delay: backoffDelay(Math.max(attempt, 4), random), slow: true };
  }
  if (action === "restart" && attempt <= 0) return { retry: true, delay: restartDelay(random), slow: false };
  const at = action === "later" || action === "restart" ? Math.max(attempt, 1) : attempt;
  return { retry: true, delay: backoffDelay(at, random), slow: false };
}

export function socketUrl(path, loc = location) {
  const proto = loc.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${loc.host}${path}`;
}

export class Socket {
  // url(): the socket's path (asked on every connection). Handlers: onMessage(message) for each
  // message but the chat's (a batch frame, a JSON array, is handed over one message at a time);
  // onOpen() after each connection opens; onStatus("open" | "reconnecting" | "refused" | "limited" |
  // "sanctioned", delay or close code). A "sanctioned" message is the socket's own: the page shows
  // it (sanction.js) and the socket stops at the close that follows. Options: pingEvery (ms, 0: never), keepGoing() (false: don't reconnect).
  constructor(url, { onMessage, onOpen = () => {}, onStatus = () => {}, pingEvery = 0, keepGoing = () => true }) {
    this.url = url;
    this.h = { onMessage, onOpen, onStatus };
    this.pingEvery = pingEvery;
    this.keepGoing = keepGoing;
    this.ws = null;
    this.attempt = 0;
    this.slowTries = 0;
    this.timer = null;
    this.pingTimer = null;
    this.stopped = false;
  }

  start() {
    Socket.started += 1;
    this.stopped = false;
    this.connect();
    return this;
  }

  connect() {
    const ws = new WebSocket(socketUrl(this.url()));
    this.ws = ws;
    let served = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.h.onStatus("open");
      clearInterval(this.pingTimer);
      if (this.pingEvery) this.pingTimer = setInterval(() => this.send({ type: "ping" }), this.pingEvery);
      chatOpened((obj) => this.ws === ws && this.send(obj));
      this.h.onOpen();
    };
    ws.onmessage = (msg) => {
      if (this.ws !== ws) return;
      let m;
      try {
        m = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (!served) {
        // Counted from a connection that served something, not one merely opened: a socket the
        // server accepts and closes at once must not restart the waits from the quick one.
        served = true;
        this.attempt = 0;
        this.slowTries = 0;
      }
      for (const one of Array.isArray(m) ? m : [m]) {
        if (one.type === "sanctioned") showSanction(one);
        else if (one.type === "notification") showUnread(one.unread);
        else if (challengeIncoming(one)) continue;
        else if (!chatIncoming(one)) this.h.onMessage(one);
      }
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.stopped || !this.keepGoing()) return;
      const next = afterClose(ev.code, this.attempt, this.slowTries);
      if (!next.retry) {
        this.h.onStatus(next.reason, ev.code);
        return;
      }
      this.attempt += 1;
      if (next.slow) this.slowTries += 1;
      this.h.onStatus("reconnecting", next.delay);
      this.timer = setTimeout(() => this.connect(), next.delay);
    };
  }

  // How many sockets the page started (core/me.js opens the person's own only where none did).
  static started = 0;

  get open() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

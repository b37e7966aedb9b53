// The live game socket: keeps the last seq, reconnects with backoff (?after=lastSeq),
// and asks to resume when it sees a gap. Handlers get only in-order, de-duplicated events, and
// after each push the viewer's own view and legal commands (a "view" message).

import { chatIncoming, chatOpened } from "./chatbridge.js";

export class LiveGame {
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.h = handlers;
    this.lastSeq = null; // null until the first state: connect without ?after to get one
    this.retry = 0;
    this.resuming = false;
    this.resumeTimer = null;
    this.pingTimer = null;
    this.closedByUs = false;
    this.ids = 0;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    // batch=1: the messages of one push arrive as one frame (an array).
    const after = this.lastSeq === null ? "" : `&after=${this.lastSeq}`;
    return `${proto}://${location.host}/ws/games/${this.gameId}/?batch=1${after}`;
  }

  connect() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.h.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
      chatOpened((obj) => this.ws === ws && this.send(obj));
    };
    ws.onmessage = (msg) => {
      let m;
      try {
        m = JSON.parse(msg.data);
      } catch {
        return;
      }
      for (const one of Array.isArray(m) ? m : [m]) if (!chatIncoming(one)) this.handle(one);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws || this.closedByUs) return;
      if (ev.code === 4403) {
        this.h.onStatus("refused");
        return;
      }
      const delay = Math.min(10000, 500 * 2 ** this.retry) + Math.random() * 300;
      this.retry += 1;
      this.h.onStatus("reconnecting", delay);
      setTimeout(() => this.connect(), delay);
    };
  }

  handle(m) {
    switch (m.type) {
      case "state":
        this.lastSeq = m.seq;
        this.endResume();
        this.h.onState(m);
        break;
      case "event":
        if (this.lastSeq === null || m.seq <= this.lastSeq) return; // a duplicate
        if (m.seq > this.lastSeq + 1) {
          this.askResume(); // a gap: get exactly what is missing, drop what overtook it
          return;
        }
        this.lastSeq = m.seq;
        this.endResume();
        this.h.onEvent(m.seq, m.event);
        break;
      case "view":
        if (this.lastSeq === null) return;
        if (m.seq > this.lastSeq) {
          this.askResume(); // some of its events never came: the resume brings them and the view
          return;
        }
        this.h.onView(m);
        break;
      case "deadline":
        this.h.onDeadline(m);
        break;
      case "next_game":
        this.h.onNextGame(m);
        break;
      case "presence":
        this.h.onPresence(m.seats || []);
        break;
      case "ack":
        this.h.onAck(m);
        break;
      case "error":
        this.h.onError(m);
        break;
      default:
        break;
    }
  }

  askResume() {
    if (this.resuming) return;
    this.resuming = true;
    this.send({ type: "resume", after: this.lastSeq });
    this.resumeTimer = setTimeout(() => {
      this.resuming = false; // the answer got lost too: ask again on the next gap
    }, 3000);
  }

  endResume() {
    this.resuming = false;
    clearTimeout(this.resumeTimer);
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  command(cmd) {
    this.ids += 1;
    const cmdId = `c${Date.now().toString(36)}-${this.ids}`;
    return this.send({ type: "command", cmd_id: cmdId, ...cmd }) ? cmdId : null;
  }
}

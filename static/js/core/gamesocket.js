// The live game socket: keeps the last seq, reconnects through the one Socket (core/socket.js)
// naming it (?after=lastSeq), and asks to resume when it sees a gap. Handlers get only in-order,
// de-duplicated events, and after each push the viewer's own view and legal commands (a "view"
// message). A command is sent again, with the same cmd_id, until its answer comes: on every new
// connection, and every RESEND_MS on an open one (a message lost on the way, a connection that
// died without closing). The server answers a cmd_id it already has with the first outcome, so a
// move is never made twice; and the resent command names the seq its sender had seen
// (expected_seq), so one the server never got is refused as stale, not applied to a game that
// moved on meanwhile.

import { Socket } from "./socket.js";

export const RESEND_MS = 5000;
export const PING_MS = 20000; // a ping on an open socket this often
export const RESUME_RETRY_MS = 3000; // a resume with no answer by then: ask again on the next gap

export class LiveGame {
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.h = handlers;
    this.lastSeq = null; // null until the first state: connect without ?after to get one
    this.resuming = false;
    this.resumeTimer = null;
    this.ids = 0;
    this.unacked = new Map(); // cmd_id -> {message, sentAt}, until its ack or error
    this.resendTimer = null;
    this.newsTimer = null;
    this.socket = new Socket(() => this.path(), {
      onMessage: (m) => this.handle(m),
      onOpen: () => this.resend(),
      onStatus: (status, info) => this.h.onStatus(status, info),
      pingEvery: PING_MS,
    });
  }

  path() {
    // batch=1: the messages of one push arrive as one frame (an array).
    const after = this.lastSeq === null ? "" : `&after=${this.lastSeq}`;
    return `/ws/games/${this.gameId}/?batch=1${after}`;
  }

  connect() {
    this.socket.start();
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
        this.expectNews(null); // news came; the view that ends the push says what is due next
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
      case "ratings":
        if (this.h.onRatings) this.h.onRatings(m);
        break;
      case "standing":
        if (this.h.onStanding) this.h.onStanding(m);
        break;
      case "ack":
        this.unacked.delete(m.cmd_id);
        this.h.onAck(m);
        break;
      case "error":
        if (m.cmd_id !== undefined) this.unacked.delete(m.cmd_id);
        this.h.onError(m);
        break;
      default:
        break;
    }
  }

  // Something should have come by `at` (ms since the epoch; null: nothing is due): a bot's move,
  // or whatever a deadline that ran out brings. If no event has come by then, ask for what the
  // game did since the last seq: a push lost on its way (a server or worker that died between
  // storing a move and pushing it) would otherwise leave this page behind until the next push,
  // and a person waiting on it would miss their own turn. The answer (events, or only the view
  // when nothing is new) re-arms this through the page's onView.
  expectNews(at) {
    clearTimeout(this.newsTimer);
    this.newsTimer = null;
    if (at === null || at === undefined) return;
    this.newsTimer = setTimeout(() => {
      this.newsTimer = null;
      if (this.lastSeq !== null) this.askResume();
    }, Math.max(0, at - Date.now()));
  }

  askResume() {
    if (this.resuming) return;
    this.resuming = true;
    this.send({ type: "resume", after: this.lastSeq });
    this.resumeTimer = setTimeout(() => {
      this.resuming = false; // the answer got lost too: ask again on the next gap
    }, RESUME_RETRY_MS);
  }

  endResume() {
    this.resuming = false;
    clearTimeout(this.resumeTimer);
  }

  send(obj) {
    return this.socket.send(obj);
  }

  // Sends a command now; null when the socket is not open (nothing is kept to send later).
  command(cmd) {
    this.ids += 1;
    const cmdId = `c${Date.now().toString(36)}-${this.ids}`;
    const message = { type: "command", cmd_id: cmdId, ...cmd };
    if (!this.send(message)) return null;
    if (message.expected_seq === undefined && this.lastSeq !== null) message.expected_seq = this.lastSeq;
    this.unacked.set(cmdId, { message, sentAt: Date.now() });
    if (this.resendTimer === null) this.resendTimer = setInterval(() => this.resendUnanswered(), 1000);
    return cmdId;
  }

  // A new connection: the commands whose answer the lost one never brought, in the order sent.
  resend() {
    for (const item of this.unacked.values()) {
      this.send(item.message);
      item.sentAt = Date.now();
    }
  }

  // Once a second while a command has no answer: send again those sent RESEND_MS ago or more
  // (nothing left to answer: stop).
  resendUnanswered() {
    if (!this.unacked.size) {
      clearInterval(this.resendTimer);
      this.resendTimer = null;
      return;
    }
    const now = Date.now();
    for (const item of this.unacked.values()) {
      if (now - item.sentAt >= RESEND_MS && this.send(item.message)) item.sentAt = now;
    }
  }
}

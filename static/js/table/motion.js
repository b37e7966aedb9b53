// Motion that explains what happened: a played card travels from its seat to the discard pile,
// draws travel from the pile to the seat (face down to everyone but the drawer), damage hits the
// target's pips, a skip and a direction change show on the table. The moving cards live in a
// layer that takes no input, so motion never blocks a move, and prefers-reduced-motion turns it
// off. Events are queued as they arrive and played after the page has drawn the push's view.

import { EventType } from "./events.js";

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
const CARDS = "/static/cards/";
// The events that move something on the table (play() below says what).
const MOVING = new Set([
  EventType.CARDS_PLAYED,
  EventType.CARDS_DRAWN,
  EventType.DAMAGE_TAKEN,
  EventType.PLAYER_SKIPPED,
  EventType.DIRECTION_CHANGED,
  EventType.CARD_BURNED,
  EventType.CARDS_DISCARDED,
  EventType.PLAYER_ELIMINATED,
  EventType.REACTION_PLAYED,
  EventType.PROTECTION_GAINED,
]);

export function motionOff() {
  return reduced.matches || document.documentElement.dataset.motion === "off";
}

export class Motion {
  constructor(layer, root = document) {
    this.layer = layer;
    this.root = root;
    this.pending = [];
    this.running = 0;
  }

  queue(e, mySeat) {
    if (motionOff()) return;
    if (MOVING.has(e.type)) this.pending.push({ e, mySeat });
    if (this.pending.length > 40) this.pending.splice(0, this.pending.length - 40);
  }

  flush() {
    const items = this.pending;
    this.pending = [];
    if (motionOff() || document.hidden) return;
    let delay = 0;
    for (const { e, mySeat } of items) {
      delay += this.play(e, mySeat, delay);
    }
  }

  seatBox(seat, mySeat) {
    if (seat === mySeat) return this.root.querySelector("#hand") || this.root.querySelector(`.seat[data-seat="${seat}"]`);
    return this.root.querySelector(`.seats .seat[data-seat="${seat}"]`);
  }

  pile(kind) {
    return this.root.querySelector(kind === "draw" ? ".pile.draw .pile-card, #draw-pile .pile-card" : ".pile.discard .pile-card, #discard-pile .pile-card");
  }

  // Returns how long (ms) the next motion should wait after this one starts.
  play(e, mySeat, delay) {
    switch (e.type) {
      case EventType.CARDS_PLAYED:
      case EventType.CARDS_DISCARDED:
        e.cards.slice(0, 5).forEach((c, i) => this.fly(c, this.seatBox(e.seat, mySeat), this.pile("discard"), delay + i * 90));
        return 120 + Math.min(5, e.cards.length) * 90;
      case EventType.CARD_BURNED:
      case EventType.REACTION_PLAYED:
        if (e.card) this.fly(e.card, this.seatBox(e.seat, mySeat), this.pile("discard"), delay);
        return e.card ? 200 : 0;
      case EventType.CARDS_DRAWN: {
        const n = Math.min(5, e.cards ? e.cards.length : e.count || 0);
        for (let i = 0; i < n; i++) {
          const face = e.cards && e.seat === mySeat ? e.cards[i] : "back";
          this.fly(face, this.pile("draw"), this.seatBox(e.seat, mySeat), delay + i * 110);
        }
        return n * 110;
      }
      case EventType.DAMAGE_TAKEN:
        this.flash(`.seat[data-seat="${e.seat}"]`, "hit", delay, 900);
        return 150;
      case EventType.PLAYER_SKIPPED:
        this.flash(`.seat[data-seat="${e.seat}"]`, "skipped-now", delay, 1400);
        return 150;
      case EventType.PROTECTION_GAINED:
        this.flash(`.seat[data-seat="${e.seat}"]`, "shielded-now", delay, 900);
        return 0;
      case EventType.PLAYER_ELIMINATED:
        this.flash(`.seat[data-seat="${e.seat}"]`, "out-now", delay, 1400);
        return 200;
      case EventType.DIRECTION_CHANGED:
        this.flash(".direction", "turning", delay, 900);
        return 0;
      default:
        return 0;
    }
  }

  flash(selector, cls, delay, ms) {
    setTimeout(() => {
      for (const node of this.root.querySelectorAll(selector)) {
        node.classList.add(cls);
        setTimeout(() => node.classList.remove(cls), ms);
      }
    }, delay);
  }

  fly(card, from, to, delay) {
    if (!from || !to || !this.layer) return;
    setTimeout(() => {
      const a = from.getBoundingClientRect();
      const b = to.getBoundingClientRect();
      if (!a.width || !b.width) return;
      const img = document.createElement("img");
      img.src = `${CARDS}${card}.svg`;
      img.alt = "";
      img.className = "flying-card";
      this.layer.append(img);
      const w = Math.max(36, Math.min(72, b.width));
      const x0 = a.left + a.width / 2 - w / 2;
      const y0 = a.top + a.height / 2 - (w * 1.39) / 2;
      const x1 = b.left + b.width / 2 - w / 2;
      const y1 = b.top + b.height / 2 - (w * 1.39) / 2;
      img.width = w;
      const anim = img.animate(
        [
          { transform: `translate(${x0}px, ${y0}px) scale(.9) rotate(-8deg)`, opacity: 0.2 },
          { transform: `translate(${(x0 + x1) / 2}px, ${Math.min(y0, y1) - 30}px) scale(1.05) rotate(4deg)`, opacity: 1, offset: 0.5 },
          { transform: `translate(${x1}px, ${y1}px) scale(1) rotate(0)`, opacity: 0.9 },
        ],
        { duration: 520, easing: "cubic-bezier(.2,.7,.2,1)" },
      );
      this.running += 1;
      const done = () => {
        img.remove();
        this.running -= 1;
      };
      anim.onfinish = done;
      anim.oncancel = done;
    }, delay);
  }
}

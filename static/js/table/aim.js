// Aiming Hare Cumi on the table, with no page: which seats a volley of k Hare Cumi may be aimed
// at now (only what the legal commands allow), why each other seat may not, and the volley that
// waits for its answer (every viewer sees it: players, spectators, replays).

import { fmt, gettext, ngettext } from "../core/dom.js";

const isVolley = (x, k) =>
  Array.isArray(x.play) && x.play.length === k && x.play.every((c) => c === "cumi") && Number.isInteger(x.target);

// The seats the legal commands let k Hare Cumi be aimed at, in seat order.
export function aimTargets(legal, k) {
  return [...new Set((legal || []).filter((x) => isVolley(x, k)).map((x) => x.target))].sort((a, b) => a - b);
}

// The command that aims k Hare Cumi at `seat`, or null when the legal commands do not hold it.
export function aimCommand(legal, k, seat) {
  return aimTargets(legal, k).includes(seat) ? { play: Array(k).fill("cumi"), target: seat } : null;
}

// Every other seat while k Hare Cumi are chosen: {seat, ok, why}. why is null for a target, else
// "out" (eliminated), "protected", or "closed" (the rules refuse it for another reason).
export function seatAims(players, mySeat, legal, k) {
  const open = new Set(aimTargets(legal, k));
  return players
    .filter((p) => p.seat !== mySeat)
    .map((p) => {
      if (open.has(p.seat)) return { seat: p.seat, ok: true, why: null };
      return { seat: p.seat, ok: false, why: p.eliminated ? "out" : p.protected ? "protected" : "closed" };
    });
}

// A short badge for a seat while aiming, and the sentence that says it whole.
export function aimBadge(why) {
  if (why === null) return gettext("Aim here");
  if (why === "out") return gettext("Out");
  if (why === "protected") return gettext("Protected");
  return gettext("Not a target");
}

export function aimWords(why, name) {
  if (why === null) return fmt(gettext("Aim your Hare Cumi at %(name)s"), { name });
  if (why === "out") return fmt(gettext("%(name)s is out of the game: not a target."), { name });
  if (why === "protected") {
    return fmt(gettext("%(name)s is protected from moral damage until their next turn: not a target."), { name });
  }
  return fmt(gettext("%(name)s cannot be aimed at now."), { name });
}

// The volley waiting for its target's answer, or null: {attacker, target, count}.
export function pendingVolley(view) {
  if (!view || view.over || !view.volley || !view.awaiting || view.awaiting.kind !== "volley") return null;
  const { attacker, target, count } = view.volley;
  return Number.isInteger(attacker) && Number.isInteger(target) ? { attacker, target, count: count || 1 } : null;
}

export function volleyBadge(count) {
  return count > 1 ? fmt(gettext("Aimed at × %(n)s"), { n: count }) : gettext("Aimed at");
}

export function volleyWords(attacker, target, count) {
  return fmt(
    ngettext("%(attacker)s aims Hare Cumi at %(target)s", "%(attacker)s aims %(n)s × Hare Cumi at %(target)s", count),
    { attacker, target, n: count },
  );
}

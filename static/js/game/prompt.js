// What is asked of this player now: the turn line with its countdown, and the prompt with its
// buttons (answer a Hare Cumi or a skip, discard, pass, aim the chosen Hare Cumi).

import { $, el, fmt, gettext, ngettext } from "../core/dom.js";
import { localTime } from "../core/times.js";
import { aimTargets, seatAims } from "../table/aim.js";
import { decidingWords, setRing } from "../table/tableview.js";
import { answersItself, away, burnable, canReact, myTurn, nameOf } from "./state.js";

export function turnWords(g) {
  const { cfg, S } = g;
  const v = S.view;
  if (!v) return "";
  if (v.over) return gettext("The game is over.");
  if (!v.awaiting) return "";
  if (v.awaiting.seat === cfg.seat && away(g)) return gettext("A bot plays your seat");
  if (v.awaiting.seat === cfg.seat) {
    return {
      turn: gettext("Your turn"),
      volley: gettext("Answer the Hare Cumi"),
      skip: gettext("Answer the skip"),
      discard: gettext("Discard down to your limit"),
    }[v.awaiting.kind];
  }
  return fmt(gettext("%(name)s is %(doing)s"), { name: nameOf(g, v.awaiting.seat), doing: decidingWords(v.awaiting.kind) });
}

export function renderTurn(g) {
  const { S } = g;
  const v = S.view;
  if (!v) return;
  const text = $("turn-text");
  const words = turnWords(g);
  // A bot's turn in my seat has no clock of mine to show (after a ban, none would ever stop).
  const botMine = myTurn(g) && away(g);
  const current = v.awaiting && !botMine && S.deadlineFor === `${v.awaiting.kind}:${v.awaiting.seat}`;
  const left = S.deadline && current && !v.over && S.deadline > Date.now() - 1000 ? Math.max(0, Math.ceil((S.deadline - Date.now()) / 1000)) : null;
  // A slow game's decision lasts hours or days: whose it is and until when, in the reader's zone
  // and language, rather than a count of seconds (its last minute counts down as any other).
  const until = left !== null && g.cfg.slow && left > 60 ? fmt(gettext("until %(when)s"), { when: localTime(new Date(S.deadline), { lang: document.documentElement.lang || undefined }) }) : null;
  const line = until !== null ? `${words} · ${until}` : left !== null ? `${words} · ${fmt(ngettext("%(s)s second left", "%(s)s seconds left", left), { s: left })}` : words;
  if (text.textContent !== line) text.textContent = line;
  const ring = $("ring-fg");
  const frac = left !== null ? Math.max(0, Math.min(1, (S.deadline - Date.now()) / S.deadlineTotal)) : null;
  const length = 2 * Math.PI * 19;
  ring.setAttribute("stroke-dasharray", `${length}`);
  ring.setAttribute("stroke-dashoffset", `${length * (1 - (frac || 0))}`);
  $("turn-info").classList.toggle("urgent", left !== null && left <= 5);
  $("turn-info").classList.toggle("mine", myTurn(g) && !v.over);
  setRing($("game"), frac);
}

function button(g, label, onclick, opts = {}) {
  return el("button", { type: "button", class: `button ${opts.cls || ""}`, disabled: opts.disabled || g.S.pending, "data-action": opts.action, onclick }, label);
}

// The prompt; its buttons call g.send(command), or g.cancelAim() to drop the chosen Hare Cumi.
export function renderPrompt(g) {
  const box = $("prompt");
  const title = $("prompt-title");
  const text = $("prompt-text");
  const buttons = $("prompt-buttons");
  // The buttons are made anew: the focused one (by its action) gets the focus back after.
  const had = buttons.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  buttons.textContent = "";
  try {
    fillPrompt(g, box, title, text, buttons);
  } finally {
    const again = had && buttons.querySelector(`button[data-action="${had}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

function fillPrompt(g, box, title, text, buttons) {
  const { cfg, S } = g;
  const v = S.view;
  box.hidden = true;
  box.dataset.kind = "";
  box.dataset.count = "";
  if (!v || v.over || cfg.seat === null || away(g) || !myTurn(g)) return;
  box.hidden = false;
  const kind = v.awaiting.kind;
  box.dataset.kind = kind;
  if (kind === "volley") {
    const vol = v.volley || { attacker: null, count: 1 };
    title.textContent = fmt(
      ngettext("%(name)s aims Hare Cumi at you", "%(name)s aims %(n)s × Hare Cumi at you", vol.count),
      { name: nameOf(g, vol.attacker), n: vol.count },
    );
    const ok = canReact(g, "taptap");
    const standing = S.standing.volley;
    text.textContent =
      ok && standing === "taptap"
        ? gettext("Your standing answer plays your Hare Taptap when the time is up. Play it now, or take it.")
        : ok && standing === "never"
          ? gettext("With your standing answer you take it when the time is up. Play your Hare Taptap to evade them all, or take it.")
          : ok
            ? gettext("Play your Hare Taptap to evade them all, or take it.")
            : answersItself(g, "volley")
              ? gettext("You hold no Hare Taptap: you take it when the time is up.")
              : gettext("You hold no Hare Taptap: take it.");
    buttons.append(
      button(g, fmt(ngettext("Take it (%(n)s damage)", "Take it (%(n)s damage)", vol.count), { n: vol.count }), () => g.send({ react: "none" }), { action: "decline" }),
    );
  } else if (kind === "skip") {
    title.textContent = gettext("You are skipped");
    const ok = canReact(g, "strom");
    const standing = S.standing.skip;
    text.textContent =
      ok && standing === "strom"
        ? gettext("Your standing answer forwards the skip with your Strom when the time is up. Play it now, or lose your turn.")
        : ok && standing === "never"
          ? gettext("With your standing answer you lose your turn when the time is up. Play your Strom to pass the skip on, or lose your turn.")
          : ok
            ? gettext("Play your Strom to pass the skip on to the next player, or lose your turn.")
            : answersItself(g, "skip")
              ? gettext("You hold no Strom: you lose your turn when the time is up.")
              : gettext("You hold no Strom: you lose your turn.");
    buttons.append(button(g, gettext("Lose my turn"), () => g.send({ react: "none" }), { action: "decline" }));
  } else if (kind === "discard") {
    const n = v.discard_count;
    box.dataset.count = String(n); // how many to discard, for anyone reading the page
    title.textContent = fmt(ngettext("Discard %(n)s card", "Discard %(n)s cards", n), { n });
    text.textContent = fmt(gettext("Your hand is over its limit. Choose %(n)s, then confirm. Chosen: %(k)s."), { n, k: S.picked.length });
    const chosen = S.picked.map((i) => v.hand[i]).sort();
    const ok = S.picked.length === n && S.legal.some((x) => x.discard && x.discard.join() === chosen.join());
    buttons.append(button(g, gettext("Discard the chosen cards"), () => g.send({ discard: chosen }), { cls: "primary", disabled: !ok, action: "discard" }));
  } else if (burnable(g).length) {
    title.textContent = gettext("Nothing can be played");
    if (burnable(g).some((x) => x.burn === null)) {
      text.textContent = gettext("You have no cards: pass.");
      buttons.append(button(g, gettext("Pass"), () => g.send({ burn: null }), { cls: "primary", action: "burn" }));
    } else {
      text.textContent = gettext("Choose a card from your hand to burn; it goes to the discard pile.");
    }
  } else if (S.mode === "cumi") {
    const k = S.picked.length;
    title.textContent = fmt(ngettext("Aim %(n)s Hare Cumi", "Aim %(n)s × Hare Cumi", k), { n: k });
    const closed = seatAims(v.players, cfg.seat, S.legal, k).filter((a) => a.why === "protected");
    text.textContent = gettext("Choose more Hare Cumi, or a player to aim at: a seat on the table, or a button below.");
    if (closed.length) {
      text.textContent += " " + fmt(gettext("Protected: %(names)s."), { names: closed.map((a) => nameOf(g, a.seat)).join(", ") });
    }
    for (const t of aimTargets(S.legal, k)) {
      const b = button(g, fmt(gettext("At %(name)s"), { name: nameOf(g, t) }), () => g.aimAt(t), { cls: "primary", action: `target-${t}` });
      b.dataset.seat = String(t);
      buttons.append(b);
    }
    buttons.append(button(g, gettext("Cancel"), () => g.cancelAim(), { action: "cancel" }));
  } else {
    title.textContent = gettext("Your turn");
    text.textContent = gettext("Play a card from your hand. For Hare Cumi, choose one or more, then the player to aim at.");
  }
}

export function focusPrompt() {
  const first = $("prompt-buttons").querySelector("button:not([disabled])");
  if (first && document.activeElement && !document.activeElement.closest("#hand")) first.focus();
}

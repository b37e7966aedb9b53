// A suspension or ban said at once on the page the person has open: their sockets get a
// "sanctioned" message ({kind, until, reason}) and are closed with CLOSE_SANCTIONED, and the page
// shows why in the words the next page would (accounts/notices.py: the same strings, so the same
// Czech), in a notice at the top of the window.

import { el, fmt, gettext } from "./dom.js";
import { localTime } from "./times.js";

export const CLOSE_SANCTIONED = 4401;

// The sanction's end in the reader's zone, naming it, as the next page shows it (core/times.js);
// `zone` only for tests.
export function sanctionWords({ kind, until, reason }, zone = {}) {
  const lang = (typeof document !== "undefined" && document.documentElement.lang) || undefined;
  const why =
    kind === "ban" || !until
      ? fmt(gettext("This account is banned. Reason: %(reason)s"), { reason })
      : fmt(gettext("This account is suspended until %(until)s. Reason: %(reason)s"), {
          until: localTime(until, { lang, ...zone }),
          reason,
        });
  return fmt(gettext("You have been signed out. %(why)s"), { why });
}

// Shown once, whichever of the page's sockets says it first.
export function showSanction(message, doc = document) {
  if (doc.getElementById("sanction-notice")) return;
  const notice = el(
    "div",
    { id: "sanction-notice", class: "sanction-notice", role: "alert" },
    el("p", { text: sanctionWords(message) }),
    el("a", { href: "/", class: "button", text: gettext("Go to the home page") }),
  );
  doc.body.prepend(notice);
}

// How long a chat message is as the server counts it (chat/services.py clean_text): characters
// (code points, not UTF-16 units) once bidirectional controls are removed and the ends trimmed.
// The input has no maxlength: a pasted message too long is shown whole with what is over, and is
// not sent, instead of being cut without a word.
import { gettext, interpolate, ngettext } from "./dom.js";

export const CHAT_MAX_CHARS = 300;

const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function chatLength(text) {
  return [...String(text).replace(BIDI_CONTROLS, "").trim()].length;
}

// {count, over, words}: words is the counter's text, or what is wrong when the message is too long.
export function chatLimit(text, max = CHAT_MAX_CHARS) {
  const count = chatLength(text);
  const over = count - max;
  if (over > 0) {
    const words = ngettext(
      "%(over)s character too many: a message is at most %(max)s characters. Shorten it to send it.",
      "%(over)s characters too many: a message is at most %(max)s characters. Shorten it to send it.",
      over,
    );
    return { count, over: true, words: interpolate(words, { over, max }, true) };
  }
  return { count, over: false, words: interpolate(gettext("%(count)s / %(max)s"), { count, max }, true) };
}

// What the chat says when the server refuses a message or a report, in the page's language: the
// words for each code the server gives (chat/services.py, live/chat.py, the report API), never
// the server's `detail`, which is English whatever the page's language.
import { gettext, interpolate } from "./dom.js";
import { CHAT_MAX_CHARS } from "./chatlimit.js";

const CHAT_ERRORS = {
  chat_empty: () => gettext("Say something first."),
  chat_bad_text: () => gettext("A chat message is one line of plain text."),
  chat_too_long: () => interpolate(gettext("A chat message is at most %(max)s characters."), { max: CHAT_MAX_CHARS }, true),
  chat_off: () => gettext("The host has turned this table's chat off."),
  muted: () => gettext("A moderator has muted you: you can play but not chat."),
  sanctioned: () => gettext("This account is suspended or banned."),
  not_found: () => gettext("This table no longer exists."),
  chat_rate_limited: () => gettext("Too many messages: wait a moment, then send it again."),
  rate_limited: () => gettext("Too many messages: wait a moment, then send it again."),
  bad_request: () => gettext("That did not work."),
};

const REPORT_ERRORS = {
  bad_text: () => gettext("Say in a few words what happened."),
  already_reported: () => gettext("You have already reported this message: moderators will look at it."),
  rate_limited: () => gettext("You have sent many reports this hour: try again later."),
};

// A message the chat refused: its words, or the general ones for a code it does not know.
export function chatErrorWords(code) {
  const f = CHAT_ERRORS[code];
  return f ? f() : gettext("Could not send that.");
}

// A report the server refused: its words, or the general ones for a code it does not know.
export function reportErrorWords(code) {
  const f = REPORT_ERRORS[code];
  return f ? f() : gettext("Could not send the report.");
}

export const CHAT_ERROR_CODES = Object.keys(CHAT_ERRORS);
export const REPORT_ERROR_CODES = Object.keys(REPORT_ERRORS);

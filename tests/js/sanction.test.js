// What a page says when its person is suspended or banned (static/js/core/sanction.js): the words
// of accounts/notices.py, the end in the reader's time zone with the zone named.
import assert from "node:assert/strict";
import { test } from "node:test";

import { sanctionWords } from "../../static/js/core/sanction.js";

test("a ban says so and why", () => {
  assert.equal(
    sanctionWords({ kind: "ban", until: null, reason: "abusive chat" }),
    "You have been signed out. This account is banned. Reason: abusive chat",
  );
});

test("a suspension says until when, in the reader's zone, naming it, as the next page would", () => {
  assert.equal(
    sanctionWords({ kind: "suspend", until: "2026-12-24T18:00:59.5+01:00", reason: "spam" }, { lang: "en", timeZone: "America/New_York" }),
    "You have been signed out. This account is suspended until Dec 24, 2026, 12:00 PM EST. Reason: spam",
  );
});

test("a reason is text, never markup or a format", () => {
  const words = sanctionWords({ kind: "ban", until: null, reason: "<b>%(why)s</b>" });
  assert.equal(words, "You have been signed out. This account is banned. Reason: <b>%(why)s</b>");
});

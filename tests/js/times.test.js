// Moments in the reader's time zone (static/js/core/times.js): the zone named, the page's language,
// and the server's UTC text kept as the element's title.
import assert from "node:assert/strict";
import { test } from "node:test";

import { localizeTimes, localTime } from "../../static/js/core/times.js";

const AT = "2026-12-07T18:00:00Z";

test("a moment is shown in the given zone, naming it, in the page's language", () => {
  assert.equal(localTime(AT, { lang: "en", timeZone: "America/New_York" }), "Dec 7, 2026, 01:00 PM EST");
  assert.equal(localTime(AT, { lang: "cs", timeZone: "Europe/Prague" }), "7. 12. 2026 19:00 SEČ");
  assert.equal(localTime(AT, { lang: "en", timeZone: "Asia/Tokyo", style: "date" }), "Dec 8, 2026");
  assert.equal(localTime("not a moment"), "");
});

function timeElement(iso, style, text) {
  const attrs = { datetime: iso };
  return {
    dataset: { when: style },
    title: "",
    textContent: text,
    getAttribute: (name) => attrs[name],
    matches: (selector) => selector === "time[data-when]",
    querySelectorAll: () => [],
  };
}

test("each server-written moment is rewritten once, its UTC text kept as its title", () => {
  const t = timeElement(AT, "datetime", "2026-12-07 18:00 UTC");
  const doc = { documentElement: { lang: "en" } };
  assert.equal(localizeTimes(t, doc), 1);
  assert.equal(t.textContent, localTime(AT, { lang: "en" }));
  assert.equal(t.title, "2026-12-07 18:00 UTC");
  assert.equal(localizeTimes(t, doc), 0); // already in the reader's zone
});

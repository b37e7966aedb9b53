// The shared helpers that need no page: the words' fallbacks and the CSRF cookie.
import assert from "node:assert/strict";
import { test } from "node:test";

import { csrfToken, gettext, interpolate, ngettext } from "../../static/js/core/dom.js";

test("without Django's catalogue the English is used, interpolated as Django does", () => {
  assert.equal(gettext("Your turn"), "Your turn");
  assert.equal(ngettext("%(n)s card", "%(n)s cards", 1), "%(n)s card");
  assert.equal(ngettext("%(n)s card", "%(n)s cards", 2), "%(n)s cards");
  assert.equal(interpolate("%(a)s and %(b)s", { a: 1, b: "x" }, true), "1 and x");
  assert.equal(interpolate("Seat %s of %s", [2, 4]), "Seat 2 of 4");
});

test("with the catalogue loaded, its words are used", () => {
  globalThis.gettext = (s) => (s === "Your turn" ? "Jste na tahu" : s);
  try {
    assert.equal(gettext("Your turn"), "Jste na tahu");
  } finally {
    delete globalThis.gettext;
  }
});

test("the CSRF token is read from its cookie among others", () => {
  assert.equal(csrfToken("a=1; csrftoken=abc%3D; b=2"), "abc=");
  assert.equal(csrfToken("csrftoken=xyz"), "xyz");
  assert.equal(csrfToken("xcsrftoken=no"), "");
});

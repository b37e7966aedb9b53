// The chat input's limit (static/js/core/chatlimit.js): counted as the server counts, and a
// message over it is said to be over, with by how much, rather than cut.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CHAT_MAX_CHARS, chatLength, chatLimit } from "../../static/js/core/chatlimit.js";

test("the limit is the server's 300 characters", () => {
  assert.equal(CHAT_MAX_CHARS, 300);
});

test("characters are counted as the server counts them: code points, trimmed, without bidi controls", () => {
  assert.equal(chatLength("  hello  "), 5);
  assert.equal(chatLength("🐇🐇"), 2); // two code points, four UTF-16 units
  assert.equal(chatLength("a\u202eb\u2066c"), 3);
});

test("a message at the limit shows the count; one over says how much is over and is not cut", () => {
  const at = chatLimit("x".repeat(300));
  assert.deepEqual(at, { count: 300, over: false, words: "300 / 300" });
  const pasted = chatLimit("x".repeat(400));
  assert.equal(pasted.over, true);
  assert.equal(pasted.count, 400);
  assert.match(pasted.words, /^100 characters too many: a message is at most 300 characters/);
  assert.match(chatLimit("x".repeat(301)).words, /^1 character too many/);
});

// The chat's words for what the server refuses (static/js/core/chatwords.js): every code the chat's
// server code can send has its own words from the page's catalogue, and no code, known or not,
// lets the server's English `detail` onto the page.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CHAT_ERROR_CODES, chatErrorWords, reportErrorWords } from "../../static/js/core/chatwords.js";

const root = new URL("../../", import.meta.url);
const codesIn = (path) =>
  [...readFileSync(new URL(path, root), "utf8").matchAll(/ServiceError\(\s*"(\w+)"/g)].map((m) => m[1]);

test("every code the chat's server code raises has words of its own", () => {
  const raised = new Set([...codesIn("chat/services.py"), ...codesIn("live/chat.py"), "rate_limited"]);
  const missing = [...raised].filter((code) => !CHAT_ERROR_CODES.includes(code));
  assert.deepEqual(missing, []);
});

test("the words come from the page's catalogue, for known and unknown codes alike", () => {
  globalThis.gettext = (s) => `CS:${s}`;
  try {
    for (const code of [...CHAT_ERROR_CODES, "something_new", undefined]) {
      assert.match(chatErrorWords(code), /^CS:/, String(code));
    }
    for (const code of ["bad_text", "already_reported", "rate_limited", "something_new", undefined]) {
      assert.match(reportErrorWords(code), /^CS:/, String(code));
    }
    assert.equal(chatErrorWords("something_new"), "CS:Could not send that.");
    assert.equal(reportErrorWords(undefined), "CS:Could not send the report.");
  } finally {
    delete globalThis.gettext;
  }
});

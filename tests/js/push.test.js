import { test } from "node:test";
import assert from "node:assert/strict";

import { keyBytes } from "../../static/js/pages/push.js";

test("the VAPID key reaches the push manager as the 65 bytes of its point", () => {
  const key = "BMf7Iq9jVpT3jizCLgtIMoJEBNtSkDDpcFVSKzgPazha1JBWWS4ZIU1I0mndL0XFdXyrVq2xT_IX4iiU-2IKBUk";
  const bytes = keyBytes(key);
  assert.equal(bytes.length, 65);
  assert.equal(bytes[0], 4); // an uncompressed point
  assert.deepEqual([...bytes.slice(-3)], [0x0a, 0x05, 0x49]); // "-2IKBUk": the url-safe letters decoded
});

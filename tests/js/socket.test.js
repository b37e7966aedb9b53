// The one socket's reconnect schedule and what each close code means (static/js/core/socket.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  afterClose,
  backoffDelay,
  closeAction,
  CAP_MS,
  restartDelay,
  SLOW_TRIES,
} from "../../static/js/core/socket.js";

const low = () => 0;
const high = () => 0.999999;

test("the first retry is quick, the next about 3.5 s, each wait growing to a cap", () => {
  assert.equal(backoffDelay(0, low), 250);
  assert.ok(backoffDelay(0, high) <= 500);
  assert.equal(backoffDelay(1, low), 2625); // 3.5 s - 25%
  assert.equal(backoffDelay(1, high), 4375); // 3.5 s + 25%
  const mids = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, () => 0.5));
  assert.deepEqual(mids, [3500, 5600, 8960, 14336, 20000, 20000, 20000, 20000]);
  for (let n = 0; n < 50; n += 1) assert.ok(backoffDelay(n, high) <= CAP_MS * 1.25);
});

test("waits are spread: sockets lost together do not all come back at once", () => {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const waits = Array.from({ length: 200 }, () => backoffDelay(1, random));
  const spread = Math.max(...waits) - Math.min(...waits);
  assert.ok(spread > 1500, `200 first waits spread over ${spread} ms only`);
  assert.ok(new Set(waits).size > 150);
});

test("after a restart (1012) the pages come back spread evenly over 1 s, every one within 1.25 s", () => {
  assert.equal(restartDelay(low), 250);
  assert.equal(restartDelay(high), 1250);
  let seed = 11;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const waits = Array.from({ length: 1000 }, () => afterClose(1012, 0, 0, random).delay);
  assert.ok(Math.min(...waits) >= 250 && Math.max(...waits) <= 1250);
  // Evenly: each quarter of the second takes about a quarter of the pages.
  for (const from of [250, 500, 750, 1000]) {
    const n = waits.filter((w) => w >= from && w < from + 250).length;
    assert.ok(n > 200 && n < 300, `${n} of 1000 pages in ${from}-${from + 250} ms`);
  }
  // A reconnection that fails after that waits as after any other: about 3.5 s, then longer.
  assert.equal(afterClose(1012, 1, 0, low).delay, 2625);
  assert.equal(afterClose(1012, 2, 0, () => 0.5).delay, 5600);
});

test("close codes: refusals stop, limits try a few times slowly, a restart spreads the pages", () => {
  assert.equal(closeAction(4403), "stop");
  assert.equal(closeAction(4401), "stop");
  assert.equal(closeAction(4429), "slow");
  assert.equal(closeAction(4008), "slow");
  assert.equal(closeAction(1012), "restart");
  assert.equal(closeAction(1013), "later");
  assert.equal(closeAction(1006), "retry");
  assert.equal(closeAction(4000), "retry");

  assert.deepEqual(afterClose(4403, 0, 0, low), { retry: false, reason: "refused" });
  assert.deepEqual(afterClose(4401, 0, 0, low), { retry: false, reason: "sanctioned" });
  assert.deepEqual(afterClose(1006, 0, 0, low), { retry: true, delay: 250, slow: false });
  assert.deepEqual(afterClose(1012, 0, 0, low), { retry: true, delay: 250, slow: false });
  assert.deepEqual(afterClose(1013, 0, 0, low), { retry: true, delay: 2625, slow: false });
  const slow = afterClose(4429, 0, 0, () => 0.5);
  assert.equal(slow.retry, true);
  assert.equal(slow.slow, true);
  assert.ok(slow.delay >= 10000, `a socket too many waits ${slow.delay} ms`);
  assert.deepEqual(afterClose(4429, 5, SLOW_TRIES, low), { retry: false, reason: "limited" });
  assert.deepEqual(afterClose(4008, 5, SLOW_TRIES, low), { retry: false, reason: "limited" });
});

// Event type names have one owner in the page scripts, table/events.js (checked against the
// server's list by tests/test_page_event_types.py): no other script spells one as a string.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { EventType } from "../../static/js/table/events.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const JS = join(ROOT, "static", "js");
const OWNER = join(JS, "table", "events.js");

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith(".js") ? [join(dir, d.name)] : [],
  );
}

test("the list holds every type once, and cannot be changed at run time", () => {
  const values = Object.values(EventType);
  assert.ok(values.length >= 20, `only ${values.length} types`);
  assert.equal(new Set(values).size, values.length);
  assert.ok(Object.isFrozen(EventType));
});

test("no page script but table/events.js spells an event type as a string", () => {
  const quoted = new RegExp(`(["'\`])(${Object.values(EventType).join("|")})\\1`, "g");
  const found = [];
  for (const file of files(JS)) {
    if (file === OWNER) continue;
    for (const [literal] of readFileSync(file, "utf8").matchAll(quoted)) found.push(`${relative(ROOT, file)}: ${literal}`);
  }
  assert.deepEqual(found, []);
});

// The modules load in a browser as they are served: every relative import names a file that
// exists (a typo or a moved file would break a page only at load), every template's script is
// there, and page scripts keep nothing on window.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const JS = join(ROOT, "static", "js");

function files(dir, ext) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name), ext) : d.name.endsWith(ext) ? [join(dir, d.name)] : [],
  );
}

const IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)";?/gm;

test("every relative import resolves to a module in static/js", () => {
  const missing = [];
  for (const file of files(JS, ".js")) {
    for (const [, spec] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      assert.ok(spec.startsWith("./") || spec.startsWith("../"), `${relative(ROOT, file)} imports ${spec}: relative paths only`);
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(JS) || !existsSync(target)) missing.push(`${relative(ROOT, file)} -> ${spec}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("every script a template loads exists", () => {
  const scripts = [];
  for (const file of files(join(ROOT, "templates"), ".html")) {
    for (const [, path] of readFileSync(file, "utf8").matchAll(/\{% static '(js\/[^']+)' %\}/g)) scripts.push(path);
  }
  assert.ok(scripts.length >= 5, `only ${scripts.length} scripts found in templates`);
  for (const path of scripts) assert.ok(existsSync(join(ROOT, "static", path)), `static/${path} is missing`);
});

test("no page script keeps state on window", () => {
  const offenders = files(JS, ".js").filter((f) => /window\.\w+\s*=[^=]/.test(readFileSync(f, "utf8")));
  assert.deepEqual(offenders.map((f) => relative(ROOT, f)), []);
});

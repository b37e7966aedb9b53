// The pages' describer (static/js/table/words.js) over a list of events, for the server's tests
// (tests/games/test_sentences.py). Standard input: {catalog, items: [{ctx, event}]}, where
// `catalog` is the text of Django's JavaScript catalogue (/jsi18n/), run as the page runs it,
// or null for English. Standard output: each item's text as JSON.
import { readFileSync } from "node:fs";
import { runInThisContext } from "node:vm";

import { describe } from "../../static/js/table/words.js";

const input = JSON.parse(readFileSync(0, "utf8"));
if (input.catalog) runInThisContext(input.catalog); // defines gettext, ngettext, interpolate
process.stdout.write(JSON.stringify(input.items.map(({ ctx, event }) => describe(ctx, event).text)));

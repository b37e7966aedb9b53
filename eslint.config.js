// ESLint for the page scripts (static/js: browser ES modules), the service worker (static/sw.js)
// and their unit tests (tests/js: Node).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      // Django's JavaScript catalogue (gettext, ngettext, interpolate) is reached through
      // core/dom.js only, which falls back to English where a page does not load it.
      globals: { ...globals.browser },
    },
  },
  {
    // The service worker: a classic script in a worker's scope.
    files: ["static/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];

// What every page script shares: the one element builder, the CSRF cookie and the words.
// Words go through Django's JavaScript catalogue (/jsi18n/) when the page loaded it, looked up at
// each call (a classic script may define it after a module was imported); pages without it, and
// Node's tests, get the English the strings are written in.

export function gettext(s) {
  return typeof globalThis.gettext === "function" ? globalThis.gettext(s) : s;
}

export function ngettext(singular, plural, n) {
  return typeof globalThis.ngettext === "function" ? globalThis.ngettext(singular, plural, n) : n === 1 ? singular : plural;
}

// Django's interpolate: named (%(name)s from an object) or positional (%s from an array).
export function interpolate(fmt, values, named = false) {
  if (typeof globalThis.interpolate === "function") return globalThis.interpolate(fmt, values, named);
  if (named) return fmt.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));
  const rest = [...values];
  return fmt.replace(/%s/g, () => String(rest.shift()));
}

export const fmt = (t, values) => interpolate(t, values, true);

export const $ = (id) => document.getElementById(id);

// el("li", {class, text, style: {prop: value}, onclick: fn, any-attribute}, ...children).
// null, undefined and false attributes and children are left out.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    // Styles through the CSSOM: a style attribute is inline style, which the CSP refuses.
    else if (k === "style") for (const [p, val] of Object.entries(v)) e.style.setProperty(p, val);
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

// Django's CSRF token, from the cookie any page sets (sent back as X-CSRFToken).
export function csrfToken(cookie = document.cookie) {
  const m = cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

// Replacing markup drops the focus: put it back on the same control in the new markup (a form's
// button by the form's action and seat, a link by its address).
function controlKey(node) {
  if (node.tagName === "FORM") {
    return "form|" + node.getAttribute("action") + "|" + (node.querySelector("[name=seat]")?.value ?? "");
  }
  return "href|" + node.getAttribute("href");
}

export function focusKey(root) {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  const control = a.closest("form") ?? a.closest("a[href]");
  return control ? controlKey(control) : null;
}

export function restoreFocus(root, key) {
  if (!key) return;
  for (const node of root.querySelectorAll("form, a[href]")) {
    if (controlKey(node) === key) {
      (node.tagName === "FORM" ? node.querySelector("button") : node)?.focus();
      return;
    }
  }
}

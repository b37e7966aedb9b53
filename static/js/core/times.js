// Moments in the reader's own time zone. The server writes each moment as
// <time datetime="…Z" data-when="datetime|date">2026-12-07 18:00 UTC</time>
// (plumbing/templatetags/times.py): right, but in UTC. This script, on every page, rewrites
// each such element in the browser's time zone and the page's language, naming the zone
// ("7 Dec 2026, 19:00 CET"), and keeps the UTC text as its title. Elements a page adds later
// (a fragment from the server) are rewritten as they come. Page scripts that show a moment
// themselves use `localTime`.

// The page's language ("en", "cs"): moments read as the rest of the page does.
function pageLang(doc) {
  return (doc && doc.documentElement && doc.documentElement.lang) || undefined;
}

const FORMATS = {
  datetime: { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" },
  date: { year: "numeric", month: "short", day: "numeric" },
};

// A moment (ISO text or a Date) in the browser's zone (or `timeZone`), in `lang`: "Dec 7, 2026,
// 01:00 PM EST"; with style "date", the day alone. "" for a moment that is not one.
export function localTime(moment, { style = "datetime", lang, timeZone } = {}) {
  const date = moment instanceof Date ? moment : new Date(moment);
  if (Number.isNaN(date.getTime())) return "";
  const options = { ...(FORMATS[style] || FORMATS.datetime), ...(timeZone ? { timeZone } : {}) };
  try {
    return new Intl.DateTimeFormat(lang, options).format(date);
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(date); // a language Intl does not know
  }
}

// Every server-written moment in `root` rewritten (see above); returns how many.
export function localizeTimes(root, doc = document) {
  const found = root.matches && root.matches("time[data-when]") ? [root] : [];
  found.push(...(root.querySelectorAll ? root.querySelectorAll("time[data-when]") : []));
  let n = 0;
  for (const t of found) {
    const iso = t.getAttribute("datetime");
    if (t.dataset.localized === iso) continue;
    const text = localTime(iso, { style: t.dataset.when, lang: pageLang(doc) });
    if (!text) continue;
    if (!t.title) t.title = t.textContent.trim();
    t.textContent = text;
    t.dataset.localized = iso;
    n += 1;
  }
  return n;
}

// On a page: now, and whatever is added later.
export function watchTimes(doc = document) {
  localizeTimes(doc.body || doc, doc);
  if (typeof MutationObserver === "undefined" || !doc.body) return;
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) if (node.nodeType === 1) localizeTimes(node, doc);
    }
  }).observe(doc.body, { childList: true, subtree: true });
}

if (typeof document !== "undefined" && document.body) watchTimes(document);

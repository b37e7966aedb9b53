// Every page registers the site's service worker (static/sw.js, at /sw.js): it shows pushed
// notifications and the offline page. A browser without service workers, or a page served over
// plain HTTP from another host, goes without.

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  });
}

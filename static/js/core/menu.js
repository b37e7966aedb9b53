// The site header's menu on a phone (templates/base.html, css/site.css): the links fold behind a
// button that says whether they are shown (aria-expanded). Enter or Space opens and closes it (a
// real button), Escape closes it and gives the focus back to the button, and so does a click or a
// tap outside the header or a move of the focus out of it. On a wide screen the button is not
// shown and the links are always there.

export function bindMenu(nav, toggle) {
  const set = (open) => {
    nav.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  };
  const isOpen = () => toggle.getAttribute("aria-expanded") === "true";
  toggle.addEventListener("click", () => set(!isOpen()));
  nav.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !isOpen()) return;
    e.preventDefault();
    e.stopPropagation(); // the game page's Escape (cancelling an aim) is not meant
    set(false);
    toggle.focus();
  });
  document.addEventListener("click", (e) => {
    if (isOpen() && !nav.contains(e.target)) set(false);
  });
  nav.addEventListener("focusout", (e) => {
    if (isOpen() && e.relatedTarget && !nav.contains(e.relatedTarget)) set(false);
  });
  return { set, isOpen };
}

const nav = document.getElementById("site-nav");
const toggle = document.getElementById("nav-toggle");
if (nav && toggle) bindMenu(nav, toggle);

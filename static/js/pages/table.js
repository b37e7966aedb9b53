// A table's page, kept current by the table socket: on each change (and once on every
// (re)connect) it fetches this person's view of the table, whose forms carry their CSRF token.
// Its data-refreshed counts the views shown so (tests wait on it, not on time).
import { focusKey, restoreFocus } from "../core/dom.js";
import { Socket } from "../core/socket.js";

const root = document.getElementById("table-live");
let fetching = false;
let again = false;

async function refresh() {
  if (fetching) {
    again = true; // changes that come during a fetch make one more fetch, not one each
    return;
  }
  fetching = true;
  try {
    do {
      again = false;
      try {
        const r = await fetch(root.dataset.fragment, {
          headers: { "X-Requested-With": "fetch" },
          cache: "no-store",
        });
        if (r.ok) {
          const html = await r.text();
          const key = focusKey(root);
          root.innerHTML = html;
          restoreFocus(root, key);
          root.dataset.refreshed = String(Number(root.dataset.refreshed || 0) + 1);
          followGame();
        }
      } catch {
        // offline for a moment: the socket reconnects and its first message asks again
      }
    } while (again);
  } finally {
    fetching = false;
  }
}

// A seated player is taken to a game that starts while they wait at the table (the next game of a
// series too); one already running when the page was opened is left to the "Go to the game" link.
function followGame() {
  const panel = root.querySelector("#table-panel");
  if (!panel || panel.dataset.seated !== "1") return;
  const running = panel.dataset.runningGame;
  if (running && running !== (root.dataset.startGame || "")) {
    location.assign(`/games/${running}/`);
  }
}

new Socket(() => root.dataset.socket, {
  onMessage(m) {
    if (m.type === "changed") refresh();
  },
}).start();

// The invite link's copy button (the host's and seated players' page): one press puts the link on
// the clipboard; where the browser refuses, the link is selected for the person to copy.
const copy = document.getElementById("invite-copy");
if (copy) {
  const link = document.getElementById("invite-link");
  const copied = document.getElementById("invite-copied");
  const failed = document.getElementById("invite-copy-failed");
  copy.addEventListener("click", async () => {
    copied.hidden = true;
    failed.hidden = true;
    try {
      await navigator.clipboard.writeText(link.value);
      copied.hidden = false;
    } catch {
      link.focus();
      link.select();
      failed.hidden = false;
    }
  });
}

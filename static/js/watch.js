// Watching a live game as a spectator: the table as it is now, a spectator count, and stepping
// back through the events so far (spectator perspective only). The live socket (/ws/games/<id>/)
// tells us when something happened; the frames API gives the new frames (never a hidden card).
import { ReplayViewer, csrfToken, fetchFrames, readBoot } from "./replay.js";

const gettext = window.gettext || ((s) => s);
const { boot, cards } = readBoot();
const clientId = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now()).slice(0, 64);

let following = true; // at the newest step: new events move the view along
let fetching = null;
let again = false;
let over = !boot.meta.live;
let socket = null;
let viewer = null;

const liveButton = document.getElementById("watch-live");
const statusNode = document.getElementById("watch-status");

function showOver() {
  over = true;
  statusNode.textContent = gettext("This game is over.");
  statusNode.dataset.status = "over";
  document.getElementById("watch-replay-link").hidden = false;
}

async function refresh() {
  // One fetch at a time; a request that arrives meanwhile runs once more afterwards.
  if (fetching) { again = true; return fetching; }
  fetching = (async () => {
    do {
      again = false;
      try {
        const more = await fetchFrames(boot.frames_url, "spectator", viewer.frames.length);
        const wasAtEnd = following;
        viewer.appendFrames(more);
        if (wasAtEnd) viewer.last();
        const lastFrame = viewer.frames[viewer.frames.length - 1];
        if (lastFrame.state.over) showOver();
      } catch (err) {
        if (err.status === 404) statusNode.textContent = gettext("This game can no longer be watched.");
      }
    } while (again);
    fetching = null;
  })();
  return fetching;
}

const initial = await fetchFrames(boot.frames_url, "spectator", 0);
viewer = new ReplayViewer(document.getElementById("replay"), {
  meta: boot.meta,
  frames: initial,
  perspective: "spectator",
  step: initial.length - 1,
  cardNames: cards,
  updateUrl: false,
  sharePath: boot.replay_url,
  loadFrames: (p) => fetchFrames(boot.frames_url, p),
  onStep: (step) => {
    if (!viewer) return;
    following = step >= viewer.frames.length - 1;
    liveButton.hidden = following;
  },
});
window.replayViewer = viewer;
if (initial[initial.length - 1].state.over) showOver();
liveButton.addEventListener("click", () => {
  following = true;
  viewer.last();
});

function connect() {
  if (over) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const last = viewer.frames[viewer.frames.length - 1].seq;
  socket = new WebSocket(`${scheme}://${location.host}${boot.socket_path}?after=${last}`);
  socket.addEventListener("message", (m) => {
    let data;
    try { data = JSON.parse(m.data); } catch { return; }
    if (data.type === "event" || data.type === "state") refresh();
  });
  socket.addEventListener("close", () => {
    socket = null;
    if (!over) setTimeout(connect, 2000);
  });
}
connect();
// A safety net under the socket: a lost push is picked up within a few seconds.
setInterval(() => { if (!over && (!socket || socket.readyState !== WebSocket.OPEN)) refresh(); }, 5000);

async function beat(leaving = false) {
  try {
    const r = await fetch(boot.watchers_url, {
      method: "POST",
      credentials: "same-origin",
      keepalive: leaving,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ client_id: clientId, leaving }),
    });
    if (!r.ok || leaving) return;
    const { count } = await r.json();
    const node = document.getElementById("watch-count");
    node.dataset.count = String(count);
    node.querySelector("b").textContent = String(count);
  } catch {
    /* the next beat will tell */
  }
}
beat();
setInterval(() => { if (!over) beat(); }, (boot.heartbeat || 10) * 1000);
addEventListener("pagehide", () => beat(true));

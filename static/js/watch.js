// Watching a live game as a spectator: the table as it is now, a spectator count, and stepping
// back through the events so far (spectator perspective only). Each push on the live socket
// (/ws/games/<id>/?frames=1) carries the new frames; the frames API is read only on load and to
// fill a gap after a reconnect (never a hidden card either way).
import { chatIncoming, chatOpened } from "./chatbridge.js";
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

// Frames a push carried: appended when they follow on; a gap (a push lost while reconnecting)
// is filled from the frames API once.
function onPushedFrames(frames) {
  if (!frames || !frames.length) return;
  const known = viewer.frames.length;
  if (frames[0].step > known) {
    refresh();
    return;
  }
  const wasAtEnd = following;
  const fresh = frames.filter((f) => f.step >= known);
  viewer.appendFrames(frames);
  if (wasAtEnd) {
    viewer.last();
    viewer.animate(fresh); // the new moves travel on the table, as on the game page
  }
  if (viewer.frames[viewer.frames.length - 1].state.over) showOver();
}

function connect() {
  if (over) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const last = viewer.frames[viewer.frames.length - 1].seq;
  const ws = new WebSocket(`${scheme}://${location.host}${boot.socket_path}?batch=1&frames=1&after=${last}`);
  socket = ws;
  ws.addEventListener("open", () => {
    beat();
    chatOpened((obj) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(obj)));
  });
  ws.addEventListener("message", (m) => {
    let data;
    try { data = JSON.parse(m.data); } catch { return; }
    for (const one of Array.isArray(data) ? data : [data]) {
      if (chatIncoming(one)) continue;
      if (one.type === "watchers") showCount(one.count);
      else if (one.type === "view" && one.frames) onPushedFrames(one.frames);
      // A view without frames answers a resume (a reconnect): read what was missed, if anything.
      else if (one.type === "view" && one.seq > viewer.frames[viewer.frames.length - 1].seq) refresh();
      else if (one.type === "state") refresh();
    }
  });
  ws.addEventListener("close", () => {
    socket = null;
    if (!over) setTimeout(connect, 2000);
  });
}
connect();

// The spectator count: a heartbeat over the socket while it is open (the socket's end says
// goodbye), over HTTP while it is not.
function showCount(count) {
  const node = document.getElementById("watch-count");
  node.dataset.count = String(count);
  node.querySelector("b").textContent = String(count);
}

async function beat(leaving = false) {
  if (!leaving && socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "watching", client_id: clientId }));
    return;
  }
  try {
    const r = await fetch(boot.watchers_url, {
      method: "POST",
      credentials: "same-origin",
      keepalive: leaving,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ client_id: clientId, leaving }),
    });
    if (!r.ok || leaving) return;
    showCount((await r.json()).count);
  } catch {
    /* the next beat will tell */
  }
}
beat();
setInterval(() => { if (!over) beat(); }, (boot.heartbeat || 10) * 1000);
addEventListener("pagehide", () => { if (!socket) beat(true); });

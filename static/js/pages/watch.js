// Watching a live game as a spectator: the table as it is now, a spectator count, and stepping
// back through the events so far (spectator perspective only). Each push on the live socket
// (/ws/games/<id>/?frames=1) carries the new frames; the frames API is read only on load and to
// fill a gap after a reconnect (never a hidden card either way).
import { csrfToken, gettext } from "../core/dom.js";
import { Socket } from "../core/socket.js";
import { ReplayViewer, fetchFrames, readBoot } from "../table/replayviewer.js";

const { boot, cards } = readBoot();
const clientId = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now()).slice(0, 64);

let following = true; // at the newest step: new events move the view along
let fetching = null;
let again = false;
let over = !boot.meta.live;
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

// The live socket resumes after the last frame shown; it stops reconnecting once the game is over.
const socket = new Socket(
  () => `${boot.socket_path}?batch=1&frames=1&after=${viewer.frames[viewer.frames.length - 1].seq}`,
  {
    onOpen: () => beat(),
    onMessage(one) {
      if (one.type === "watchers") showCount(one.count);
      else if (one.type === "view" && one.frames) onPushedFrames(one.frames);
      // A view without frames answers a resume (a reconnect): read what was missed, if anything.
      else if (one.type === "view" && one.seq > viewer.frames[viewer.frames.length - 1].seq) refresh();
      else if (one.type === "state") refresh();
    },
    keepGoing: () => !over,
  },
);
if (!over) socket.start();

// The spectator count: a heartbeat over the socket while it is open (the socket's end says
// goodbye), over HTTP while it is not.
function showCount(count) {
  const node = document.getElementById("watch-count");
  node.dataset.count = String(count);
  node.querySelector("b").textContent = String(count);
}

async function beat(leaving = false) {
  if (!leaving && socket.send({ type: "watching", client_id: clientId })) return;
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
addEventListener("pagehide", () => { if (!socket.open) beat(true); });

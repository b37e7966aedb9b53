// The replay page (a stored game, mode "replay") and the import page (a checked document, never
// stored, mode "import"): the replay viewer (table/replayviewer.js) booted from #replay-boot.

import { csrfToken, gettext } from "../core/dom.js";
import { ReplayViewer, fetchFrames, getJson, readBoot } from "../table/replayviewer.js";

function bindCopy(viewer) {
  const button = document.getElementById("replay-copy");
  if (!button) return;
  button.addEventListener("click", async () => {
    const link = viewer.link();
    const done = document.getElementById("replay-copied");
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      const input = document.getElementById("replay-link");
      input.select();
      document.execCommand("copy");
    }
    done.textContent = gettext("Link copied");
    setTimeout(() => (done.textContent = ""), 2500);
  });
}

function bootReplay(boot, cards) {
  const viewer = new ReplayViewer(document.getElementById("replay"), {
    meta: boot.meta,
    frames: boot.frames,
    perspective: boot.perspective,
    step: boot.step,
    cardNames: cards,
    sharePath: boot.share_path,
    loadFrames: (p) => fetchFrames(boot.frames_url, p),
  });
  bindCopy(viewer);
}

function bootImport(boot, cards) {
  const form = document.getElementById("replay-import-form");
  const error = document.getElementById("replay-import-error");
  let viewer = null;
  const post = (doc, perspective) =>
    getJson(`${boot.import_url}?perspective=${encodeURIComponent(perspective)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: doc,
    });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const file = document.getElementById("replay-import-file").files[0];
    const text = file ? await file.text() : document.getElementById("replay-import-text").value;
    try {
      JSON.parse(text);
    } catch {
      error.textContent = gettext("This is not JSON.");
      return;
    }
    try {
      const data = await post(text, "all");
      document.getElementById("replay-import-viewer").hidden = false;
      if (viewer) viewer.destroy();
      const root = document.getElementById("replay");
      const fresh = root.cloneNode(true); // drop the old viewer's listeners
      root.replaceWith(fresh);
      viewer = new ReplayViewer(fresh, {
        meta: data.game,
        frames: data.frames,
        perspective: "all",
        step: 0,
        cardNames: cards,
        updateUrl: false,
        loadFrames: async (p) => (await post(text, p)).frames,
      });
    } catch (err) {
      error.textContent = err.body && err.body.detail ? err.body.detail : String(err.message || err);
    }
  });
}

const started = document.getElementById("replay-boot") && readBoot();
if (started && started.boot.mode === "replay") bootReplay(started.boot, started.cards);
if (started && started.boot.mode === "import") bootImport(started.boot, started.cards);

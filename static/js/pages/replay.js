// The replay page (a stored game, mode "replay"), its embed (the same viewer in another site's
// frame, boot.embedded) and the import page (a checked document, never stored, mode "import"): the
// replay viewer (table/replayviewer.js) booted from #replay-boot.

import { $, csrfToken, gettext, interpolate } from "../core/dom.js";
import { AnalysisView } from "../table/analysisview.js";
import { ReplayViewer, fetchFrames, getJson, readBoot } from "../table/replayviewer.js";
import { clipSpan, clipUrl, embedSnippet, embedUrl, stepUrl } from "../table/replaysteps.js";

// Copies `text` (else selects `input` and copies that), then says `done` in `status` for a moment.
async function copyText(text, input, status, done) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  status.textContent = done;
  setTimeout(() => (status.textContent = ""), 2500);
}

function bindCopy(viewer) {
  const button = $("replay-copy");
  if (button) {
    button.addEventListener("click", () => copyText(viewer.link(), $("replay-link"), $("replay-copied"), gettext("Link copied")));
  }
  const clip = $("replay-clip-copy");
  if (clip) {
    clip.addEventListener("click", () => {
      const link = $("replay-clip-link");
      copyText(link.href, link, $("replay-clip-copied"), gettext("Link copied"));
    });
  }
  const embed = $("replay-embed-copy");
  if (embed) {
    const code = $("replay-embed-code");
    embed.addEventListener("click", () => copyText(code.value, code, $("replay-embed-copied"), gettext("Embed code copied")));
  }
}

// The clip's span: from the shown step until the person picks one, then theirs (kept within the
// game and the steps a clip may have, boot.clip_max_steps).
function bindClip(boot, viewer) {
  const from = $("replay-clip-from");
  if (!from) return;
  const to = $("replay-clip-to");
  const sync = () => {
    const span = clipSpan(from.value, to.value, viewer.frames.length - 1, boot.clip_max_steps);
    from.value = String(span.from);
    to.value = String(span.to);
    $("replay-clip-link").href = clipUrl(boot.share_path, location.origin, span, viewer.perspective).toString();
  };
  from.addEventListener("change", () => {
    from.dataset.picked = "1";
    to.value = "";
    sync();
  });
  to.addEventListener("change", () => {
    from.dataset.picked = "1";
    sync();
  });
  return sync;
}

// What follows the step: the embed code and the clip on the replay page, the link back in the embed.
function followStep(boot, viewer) {
  const code = $("replay-embed-code");
  if (code) {
    const src = embedUrl(boot.share_path, location.origin, viewer.step, viewer.perspective).toString();
    code.value = embedSnippet(src, document.title);
  }
  const from = $("replay-clip-from");
  if (from && !from.dataset.picked) {
    from.value = String(viewer.step);
    $("replay-clip-to").value = "";
  }
  if (viewer.syncClip) viewer.syncClip();
  const full = stepUrl(boot.share_path, location.origin, viewer.step, viewer.perspective).toString();
  for (const a of document.querySelectorAll("a.replay-full")) a.href = full;
}

function bootReplay(boot, cards) {
  let analysis = null; // the analysis view, on the replay page of a finished game
  const viewer = new ReplayViewer(document.getElementById("replay"), {
    meta: boot.meta,
    frames: boot.frames,
    perspective: boot.perspective,
    step: boot.step,
    cardNames: cards,
    sharePath: boot.share_path,
    loadFrames: (p) => fetchFrames(boot.frames_url, p),
    onStep: (step, v) => {
      followStep(boot, v);
      if (analysis) analysis.step(step);
    },
    onRebuild: () => analysis && analysis.decorateLog(),
  });
  if (boot.analysis_url && document.getElementById("replay-analysis")) {
    analysis = new AnalysisView(viewer, { url: boot.analysis_url, socketPath: boot.analysis_socket, cardNames: cards });
  }
  viewer.syncClip = bindClip(boot, viewer);
  followStep(boot, viewer);
  bindCopy(viewer);
}

// The import's refusal in the page's words (where the document breaks the rules), never the API's
// English `detail`.
function importErrorWords(err) {
  const body = (err && err.body) || {};
  if (body.code === "bad_document" && body.seq != null) {
    return interpolate(gettext("This game breaks the rules at event %(seq)s: it cannot be shown."), { seq: body.seq }, true);
  }
  if (body.code === "bad_document") return gettext("This is not a Harehra game export.");
  return gettext("That did not work. Try again later.");
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
      error.textContent = importErrorWords(err);
    }
  });
}

const started = document.getElementById("replay-boot") && readBoot();
if (started && started.boot.mode === "replay") bootReplay(started.boot, started.cards);
if (started && started.boot.mode === "import") bootImport(started.boot, started.cards);

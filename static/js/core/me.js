// The person's own socket (/ws/me/: live/me.py), opened only on a page whose scripts started no
// socket of their own, so that the bell (core/bell.js) hears of a notification on every page.
// Every socket of a signed-in person carries the same messages.

import { Socket } from "./socket.js";

if (document.querySelector(".nav-bell")) {
  window.addEventListener("load", () => {
    if (Socket.started === 0) new Socket(() => "/ws/me/", { onMessage: () => {} }).start();
  });
}

// Your turn, impossible to miss: the tab's title and icon change while a decision is yours, an
// optional sound plays (off by default) and, when the tab is hidden and the person allowed it, a
// browser notification. The settings are kept in this browser (localStorage).

const ICON_TURN = "/static/img/turn.svg";
const KEY_SOUND = "harehra.sound";
const KEY_NOTIFY = "harehra.notify";

function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    /* private mode: the setting lasts for this page */
  }
}

export class Cues {
  constructor({ baseTitle }) {
    this.baseTitle = baseTitle;
    this.icon = document.getElementById("favicon");
    this.baseIcon = this.icon ? this.icon.getAttribute("href") : null;
    this.lastKey = null;
    this.sound = stored(KEY_SOUND);
    this.notify = stored(KEY_NOTIFY) && "Notification" in window && Notification.permission === "granted";
    this.audio = null;
    this.bind();
  }

  bind() {
    const sound = document.getElementById("opt-sound");
    if (sound) {
      sound.checked = this.sound;
      sound.addEventListener("change", () => {
        this.sound = sound.checked;
        store(KEY_SOUND, this.sound);
        if (this.sound) this.beep(); // a user gesture: lets the browser play later sounds
      });
    }
    const notify = document.getElementById("opt-notify");
    if (notify) {
      if (!("Notification" in window)) {
        notify.disabled = true;
        notify.closest("label").hidden = true;
      }
      notify.checked = this.notify;
      notify.addEventListener("change", async () => {
        if (!notify.checked) {
          this.notify = false;
          store(KEY_NOTIFY, false);
          return;
        }
        let answer = Notification.permission;
        if (answer === "default") answer = await Notification.requestPermission();
        this.notify = answer === "granted";
        notify.checked = this.notify;
        store(KEY_NOTIFY, this.notify);
      });
    }
  }

  // state: {mine, key (changes with every new decision), words}
  update(state) {
    if (state.mine) {
      document.title = `● ${state.words} · ${this.baseTitle}`;
      if (this.icon && this.icon.getAttribute("href") !== ICON_TURN) this.icon.setAttribute("href", ICON_TURN);
      if (state.kindKey !== this.lastKey) {
        this.lastKey = state.kindKey;
        this.alert(state.words);
      }
    } else {
      this.lastKey = null;
      if (document.title !== this.baseTitle) document.title = this.baseTitle;
      if (this.icon && this.baseIcon && this.icon.getAttribute("href") !== this.baseIcon) this.icon.setAttribute("href", this.baseIcon);
    }
  }

  alert(words) {
    if (this.sound) this.beep();
    if (this.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        const n = new Notification(words, { body: this.baseTitle, tag: "harehra-turn", icon: ICON_TURN });
        n.onclick = () => {
          window.focus();
          n.close();
        };
      } catch {
        /* some browsers only notify from a service worker */
      }
    }
  }

  beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.audio = this.audio || new Ctx();
      const a = this.audio;
      const t = a.currentTime;
      for (const [i, f] of [660, 880].entries()) {
        const o = a.createOscillator();
        const g = a.createGain();
        o.type = "sine";
        o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, t + i * 0.12);
        g.gain.exponentialRampToValueAtTime(0.18, t + i * 0.12 + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.12 + 0.18);
        o.connect(g).connect(a.destination);
        o.start(t + i * 0.12);
        o.stop(t + i * 0.12 + 0.2);
      }
    } catch {
      /* no sound, no harm */
    }
  }
}

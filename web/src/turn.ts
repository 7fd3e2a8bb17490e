// "It is your turn", said where a player looks when the table is not in front of them:
// the tab's title and favicon (a dot), an optional sound (off until switched on,
// remembered), and a browser notification while the tab is hidden (only after the
// player asked for it with the button). Also the clock's last seconds, said once to
// screen readers. The table page calls `TurnSignal.update` on every view.
import { h } from "./dom";
import { t } from "./i18n/i18n";

const SOUND_KEY = "rumi.sound";
const NOTIFY_KEY = "rumi.notify";

/** The game's mark: a stack of cubes in the project's colours; `dot` adds the turn dot. */
export function faviconSvg(dot: boolean): string {
  const cubes =
    '<rect x="6" y="34" width="26" height="26" rx="3" fill="#b5522b"/>' +
    '<rect x="32" y="34" width="26" height="26" rx="3" fill="#2f6f9f"/>' +
    '<rect x="19" y="8" width="26" height="26" rx="3" fill="#e0a526"/>';
  const mark = dot ? '<circle cx="50" cy="14" r="12" fill="#1d6b2c" stroke="#fff" stroke-width="3"/>' : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${cubes}${mark}</svg>`;
}

function iconLink(): HTMLLinkElement {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

function setFavicon(dot: boolean): void {
  const link = iconLink();
  link.type = "image/svg+xml";
  link.href = "data:image/svg+xml," + encodeURIComponent(faviconSvg(dot));
  link.dataset.turn = String(dot);
}

function stored(key: string): boolean {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

function store(key: string, on: boolean): void {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    /* no storage */
  }
}

/** A short two-note chime (Web Audio: no file to fetch). */
function chime(): void {
  const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const now = ctx.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + i * 0.15);
      osc.stop(now + i * 0.15 + 0.32);
    }
    window.setTimeout(() => ctx.close().catch(() => {}), 1000);
  } catch {
    /* no audio */
  }
}

export class TurnSignal {
  /** The sound and notification switches, for the table's head. */
  readonly controls: HTMLElement;
  private mine = false;
  private base = document.title;
  private sound = stored(SOUND_KEY);
  private notify = stored(NOTIFY_KEY);
  private soundButton: HTMLButtonElement;
  private notifyButton: HTMLButtonElement | null = null;
  private chimes = 0;

  constructor() {
    this.soundButton = h("button", { type: "button", className: "small secondary", testid: "turn-sound", onclick: () => this.toggleSound() });
    this.controls = h("span", { className: "turn-signal" }, this.soundButton);
    if ("Notification" in window) {
      this.notifyButton = h("button", { type: "button", className: "small secondary", testid: "turn-notify", onclick: () => void this.toggleNotify() });
      this.controls.append(" ", this.notifyButton);
    }
    this.drawButtons();
    setFavicon(false);
  }

  private drawButtons(): void {
    this.soundButton.textContent = this.sound ? t("turn.sound_on") : t("turn.sound_off");
    this.soundButton.setAttribute("aria-pressed", String(this.sound));
    if (this.notifyButton) {
      const denied = Notification.permission === "denied";
      const on = this.notify && Notification.permission === "granted";
      this.notifyButton.textContent = denied ? t("turn.notify_denied") : on ? t("turn.notify_on") : t("turn.notify_off");
      this.notifyButton.setAttribute("aria-pressed", String(on));
      this.notifyButton.disabled = denied;
    }
  }

  private toggleSound(): void {
    this.sound = !this.sound;
    store(SOUND_KEY, this.sound);
    this.drawButtons();
    if (this.sound) chime();
  }

  private async toggleNotify(): Promise<void> {
    if (this.notify && Notification.permission === "granted") {
      this.notify = false;
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      this.notify = answer === "granted";
    }
    store(NOTIFY_KEY, this.notify);
    this.drawButtons();
  }

  /** The page's title without the turn mark (set by the table page on every view). */
  setTitle(base: string): void {
    this.base = base;
    this.apply();
  }

  /** Called with every view: signals the moment it becomes this player's turn. */
  update(myTurn: boolean): void {
    const became = myTurn && !this.mine;
    this.mine = myTurn;
    this.apply();
    if (!became) return;
    if (this.sound) {
      this.chimes++;
      this.controls.dataset.chimes = String(this.chimes);
      chime();
    }
    if (this.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        const n = new Notification(t("turn.notification_title"), { body: this.base, tag: "rumi-turn", icon: "/icons/icon-192.png" });
        n.onclick = () => {
          window.focus();
          n.close();
        };
      } catch {
        /* some browsers allow notifications only from a service worker */
      }
    }
  }

  private apply(): void {
    document.title = this.mine ? `● ${t("turn.title")} · ${this.base}` : this.base;
    setFavicon(this.mine);
  }

  destroy(): void {
    this.mine = false;
    this.apply();
  }
}

/** The clock's last seconds: a class on the clock and, once per turn, a sentence for
 * screen readers in `live` (an aria-live region) when the clock is the player's own. */
export class ClockWarning {
  readonly live = h("span", { className: "visually-hidden", "aria-live": "assertive", testid: "clock-warning" });
  private warnedFor: number | null = null;

  update(clock: HTMLElement, left: number | null, deadline: number | null, mine: boolean): void {
    const urgent = left !== null && left <= 10;
    clock.classList.toggle("urgent", urgent);
    clock.dataset.urgent = String(urgent);
    if (urgent && mine && deadline !== null && this.warnedFor !== deadline) {
      this.warnedFor = deadline;
      this.live.textContent = t("turn.clock_warning", { secs: left });
    } else if (!urgent && this.live.textContent) {
      this.live.textContent = "";
    }
  }
}

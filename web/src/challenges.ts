// Challenges in the lobby: tables that keep a seat for the signed-in account (an
// invitation by name, or a rematch) wait for it. Accept opens the table and takes the
// seat; decline opens the seat to others. While the lobby is open the list is asked
// again now and then, and a new challenge shows as a browser notification if the
// player allowed them.
import type { Challenge, Challenges } from "./generated/api";
import { ApiError, call } from "./api";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { players } from "./players";
import { blockApi } from "./blocks";
import { gameName } from "./titles";

/** How often the lobby asks for new challenges. */
const REFRESH_MS = 20_000;

const list = async () => (await call<Challenges>("GET", "/api/me/challenges")).challenges;
const decline = (id: string) => call<null>("POST", `/api/tables/${encodeURIComponent(id)}/decline`, {});

/** The lobby's challenge box for a signed-in player; it hides while there are none. */
export function challengesSection(): HTMLElement {
  const items = h("ul", { className: "links challenges", testid: "challenges-list" });
  const error = h("p", { className: "error", role: "alert", hidden: true });
  const notify =
    "Notification" in window && Notification.permission === "default"
      ? h("button", { type: "button", className: "secondary", testid: "challenges-notify" }, t("challenges.notify"))
      : null;
  notify?.addEventListener("click", () => {
    void Notification.requestPermission().then(() => notify.remove());
  });
  const root = h(
    "section",
    { className: "lobby challenges-card", testid: "challenges", hidden: true, "aria-live": "polite" },
    h("h2", {}, t("challenges.title")),
    items,
    error,
    notify,
  );
  const seen = new Set<string>();
  let first = true;
  const show = (challenges: Challenge[]) => {
    clear(items);
    root.hidden = challenges.length === 0;
    for (const c of challenges) {
      items.append(item(c, () => void refresh(), error));
      if (!first && !seen.has(c.id) && "Notification" in window && Notification.permission === "granted") {
        new Notification(t("challenges.notification_title"), { body: describe(c), tag: `rumi-challenge-${c.id}` });
      }
      seen.add(c.id);
    }
    first = false;
  };
  const refresh = async () => {
    try {
      show(await list());
    } catch (e) {
      console.warn("challenges:", e);
    }
  };
  void refresh();
  const timer = window.setInterval(() => {
    // (the lobby was left: stop asking)
    if (!root.isConnected) window.clearInterval(timer);
    else if (document.visibilityState === "visible" || ("Notification" in window && Notification.permission === "granted")) void refresh();
  }, REFRESH_MS);
  return root;
}

function describe(c: Challenge): string {
  const from = c.from.length ? c.from.join(", ") : c.names.filter((_, i) => i !== c.seat).join(", ");
  const what = t(c.rated ? "challenges.from_rated" : "challenges.from", { game: gameName(c.game), from });
  // The clock is part of what is accepted (RT9).
  const clock = c.turn_seconds !== null ? ` · ${t("challenges.clock", { secs: c.turn_seconds })}` : "";
  return what + clock;
}

function item(c: Challenge, changed: () => void, error: HTMLElement): HTMLElement {
  // RT7: a rated table whose seats were not all taken in time; shown, not accepted.
  if (c.status === "cancelled") {
    return h("li", { testid: `challenge-${c.id}`, "data-status": c.status }, h("span", {}, describe(c)), " ", h("span", { className: "muted" }, t("challenges.cancelled")));
  }
  const accept = h("button", { type: "button", testid: `challenge-accept-${c.id}` }, t("challenges.accept"));
  const refuse = h("button", { type: "button", className: "secondary", testid: `challenge-decline-${c.id}` }, t("challenges.decline"));
  const fail = (e: unknown) => {
    error.hidden = false;
    error.textContent = e instanceof ApiError ? reason(e.message, e.code).text : String(e);
  };
  accept.addEventListener("click", () => {
    accept.disabled = refuse.disabled = true;
    players
      .takeSeat(c.id)
      .then(() => location.assign(`/t/${encodeURIComponent(c.id)}`))
      .catch((e) => {
        accept.disabled = refuse.disabled = false;
        fail(e);
      });
  });
  refuse.addEventListener("click", () => {
    accept.disabled = refuse.disabled = true;
    decline(c.id).then(changed, (e) => {
      accept.disabled = refuse.disabled = false;
      fail(e);
    });
  });
  // Blocking the sender: its challenges leave the list, and no new one reaches you.
  const sender = c.from[0];
  const block = sender
    ? h("button", { type: "button", className: "secondary", testid: `challenge-block-${c.id}` }, t("challenges.block", { name: sender }))
    : null;
  block?.addEventListener("click", () => {
    if (!confirm(t("challenges.block_confirm", { name: sender }))) return;
    accept.disabled = refuse.disabled = block.disabled = true;
    blockApi.block(sender).then(changed, (e) => {
      accept.disabled = refuse.disabled = block.disabled = false;
      fail(e);
    });
  });
  return h("li", { testid: `challenge-${c.id}` }, h("span", {}, describe(c)), " ", accept, " ", refuse, block ? " " : null, block);
}

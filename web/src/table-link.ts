// A seat link opened (`/t/{id}#token=…`): a seat this tab holds opens at once; an
// invite is spent on taking its seat (the invitee names themselves first when the seat
// has no name yet), and only the seat's own new token is kept.
import { api, ApiError, forgetToken, myTables, storedToken, storeToken, type TableView } from "./api";
import { clear, h, seatName } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { showTable } from "./table";
import { gameName, titleName } from "./titles";

const NAME_KEY = "rumi.name";
/** The server's name for an invited seat nobody named (`Player 2`). */
const DEFAULT_NAME = /^Player \d+$/;

/** A seat link just opened (`#token=…`). A seat this tab holds: its table. Else the
 * token is tried as an invite (`POST …/claim`): the invite is spent and only the
 * seat's new token is kept. If an invited seat still free is called "Player N", the
 * invitee says their name first and sits down under it. A seat's own link ("my seat
 * link", `not_an_invite`) is kept as it is; a spent invite opens the table to watch,
 * saying that the seat is taken. */
export async function openLink(app: HTMLElement, id: string, token: string): Promise<void> {
  if (storedToken(id) === token || myTables().some((m) => m.id === id && m.token === token)) return showTable(app, id, token);
  let unnamed = false;
  let invitation: HTMLElement | null = null;
  try {
    const v = await api.view(id, null);
    unnamed = v.seats.some((s) => s.kind === "human" && !s.claimed && DEFAULT_NAME.test(s.name));
    invitation = inviteLine(v);
  } catch {
    /* the table page says what is wrong */
  }
  if (!unnamed) {
    await sitDown(app, id, token);
    return;
  }
  clear(app);
  const input = h("input", {
    testid: "ask-name-input",
    type: "text",
    autocomplete: "nickname",
    maxlength: 40,
    required: true,
    "aria-label": t("lobby.your_name"),
    value: localStorage.getItem(NAME_KEY) ?? "",
  });
  const error = h("p", { className: "error", testid: "ask-name-error", role: "alert", hidden: true });
  const sit = h("button", { type: "submit", testid: "ask-name-sit" }, t("table.sit_down"));
  const form = h(
    "form",
    { className: "ask-name", testid: "ask-name" },
    invitation ?? h("h2", {}, t("table.ask_name_title", { id })),
    invitation ? h("p", {}, t("invite.name_question")) : null,
    h("label", {}, t("lobby.your_name"), " ", input),
    " ",
    sit,
    error,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    sit.disabled = true;
    error.hidden = true;
    const refused = await sitDown(app, id, token, name);
    if (!refused) {
      try {
        localStorage.setItem(NAME_KEY, name);
      } catch {
        /* no storage */
      }
      return;
    }
    error.hidden = false;
    error.textContent = reason(refused.message, refused.code, refused.why).text;
    sit.disabled = false;
  });
  app.append(form);
  input.focus();
}

/** "Ana invites you to Rumis, Chullpa, three players" and who else sits there, from the
 * public view: the host is the first person who has taken a seat. */
export function inviteLine(v: TableView): HTMLElement {
  const host = v.seats.find((s) => s.kind !== "bot" && s.claimed);
  const what = v.rumis
    ? `${gameName(v.game)}, ${v.rumis.scenario.name}, ${t("title.players", { n: v.seats.length })}`
    : `${gameName(v.game)}, ${v.rummikub ? rulesWords(v.rummikub.rules.name) : ""}, ${t("title.players", { n: v.seats.length })}`;
  const line = host ? t("invite.line", { host: seatName(host), game: what }) : t("invite.line_nohost", { game: what });
  const others = v.seats.filter((s) => s.claimed || s.kind === "bot").map(titleName);
  return h(
    "div",
    { className: "invitation", testid: "invitation" },
    h("h2", { testid: "invitation-line" }, line),
    others.length ? h("p", { className: "muted", testid: "invitation-seats" }, t("invite.with", { names: others.join(", ") })) : null,
  );
}

function rulesWords(name: string): string {
  return t(name === "old" ? "preset.old" : "preset.current");
}

/** Takes the invited seat of `token` (under `name`, if given) and shows the table; a
 * refused name is answered (to ask again), every other outcome shows the table. */
async function sitDown(app: HTMLElement, id: string, token: string, name?: string): Promise<ApiError | null> {
  try {
    const grant = await api.claim(id, token, name);
    storeToken(id, grant.token);
    showTable(app, id, grant.token);
  } catch (e) {
    if (!(e instanceof ApiError)) {
      showTable(app, id, null, String(e));
    } else if (name !== undefined && (e.code === "bad_name" || e.code === "name_taken")) {
      return e;
    } else if (e.code === "not_an_invite") {
      storeToken(id, token);
      showTable(app, id, token);
    } else if (e.code === "seat_taken") {
      forgetToken(id);
      showTable(app, id, null, t("table.seat_taken"));
    } else if (e.code === "bad_token" || e.code === "token_needed") {
      forgetToken(id);
      showTable(app, id, null, t("table.bad_token", { message: reason(e.message, e.code).text }));
    } else {
      // No such table, or the server is unreachable: the table page says so.
      showTable(app, id, null, e.status === 404 ? null : reason(e.message, e.code, e.why).text);
    }
  }
  return null;
}

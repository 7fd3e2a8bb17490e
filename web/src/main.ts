// The client's router: / lobby, /t/{id} table, /replay/{id} replay, /rules/{game} the
// rules, anything else a not-found page.
//
// A seat link is `/t/{id}#token=…` (the old `/t/{id}?seat=&token=` still works): the
// token moves into sessionStorage and the address becomes `/t/{id}` before anything is
// requested, so it never reaches a server log, the history or a shared screen.
import "./style.css";
import { fragmentToken, storeToken, storedToken } from "./api";
import { h } from "./dom";
import { lang, setLang, t, type Lang } from "./i18n/i18n";
import { showLobby } from "./lobby";
import { showNotFound } from "./notfound";
import { askName, showTable } from "./table";
import { showReplay } from "./replay";

/** The top bar: the language switch (remembered) and the rules. */
function topbar(): void {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  const nav = h(
    "nav",
    { className: "topnav", "aria-label": t("nav.label") },
    h("a", { href: "/", testid: "nav-lobby" }, t("nav.lobby")),
    h("a", { href: "/rules/rumis", testid: "nav-rules-rumis" }, t("nav.rules_rumis")),
    h("a", { href: "/rules/rummikub", testid: "nav-rules-rummikub" }, t("nav.rules_rummikub")),
  );
  const switcher = h("div", { className: "lang-switch", role: "group", "aria-label": t("nav.language") });
  for (const [code, name] of [["de", "Deutsch"], ["en", "English"]] as [Lang, string][]) {
    switcher.append(
      h(
        "button",
        {
          className: "lang" + (lang() === code ? " on" : ""),
          testid: `lang-${code}`,
          lang: code,
          "aria-pressed": String(lang() === code),
          onclick: () => {
            if (lang() === code) return;
            setLang(code);
            location.reload();
          },
        },
        name,
      ),
    );
  }
  bar.querySelector(".subtitle")?.remove();
  bar.append(nav, switcher);
}

topbar();
const app = document.getElementById("app")!;
const path = location.pathname;
const table = path.match(/^\/t\/([^/]+)\/?$/);
const replay = path.match(/^\/replay\/([^/]+)\/?$/);
const rules = path.match(/^\/rules\/(rumis|rummikub)\/?$/);
if (table) {
  const id = decodeURIComponent(table[1]);
  const query = new URLSearchParams(location.search);
  const linked = fragmentToken(location.hash) ?? query.get("token");
  if (linked) storeToken(id, linked);
  if (linked || query.has("seat") || /token=/.test(location.hash)) {
    query.delete("token");
    query.delete("seat");
    const rest = query.toString();
    history.replaceState(null, "", `/t/${encodeURIComponent(id)}${rest ? "?" + rest : ""}`);
  }
  // A seat link opened in a tab already on this table changes only the fragment.
  window.addEventListener("hashchange", () => {
    const token = fragmentToken(location.hash);
    if (!token) return;
    storeToken(id, token);
    history.replaceState(null, "", `/t/${encodeURIComponent(id)}`);
    location.reload();
  });
  // An invite link opened: the invitee says their name before sitting down.
  if (linked) askName(app, id, linked);
  else showTable(app, id, storedToken(id));
} else if (replay) {
  showReplay(app, decodeURIComponent(replay[1]));
} else if (rules) {
  // The rules texts (both languages) are a chunk of their own, fetched on the rules pages.
  import("./rules/page").then((m) => m.showRules(app, rules[1] as "rumis" | "rummikub"));
} else if (path === "/" || path === "/index.html") {
  showLobby(app);
} else {
  showNotFound(app, "page");
}

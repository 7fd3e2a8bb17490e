// The client's router: / lobby, /t/{id} table, /replay/{id} replay, /rules/{game} the
// rules, /learn/{game} the tutorial, /account sign-up and sign-in, /u/{name} a player's
// profile, /leaderboard the leaderboards, /puzzles the Rummikub puzzles, /solo the solo
// cube, /analysis the analysis board, anything else a
// not-found page.
//
// A seat link is `/t/{id}#token=…`, and a token is read from the fragment only (the old
// `/t/{id}?seat=&token=` opens the table to watch): the address becomes `/t/{id}`
// before anything is requested, so the token never reaches a server log, the history
// or a shared screen. An invite link's token takes the seat (`openLink`), and only the
// seat's new token is kept, in sessionStorage.
import "./style.css";
import { fragmentToken, storedToken } from "./api";
import { highContrast } from "./contrast";
import { h } from "./dom";
import { lang, setLang, t, type Lang } from "./i18n/i18n";
import { showLobby } from "./lobby";
import { showNotFound } from "./notfound";
import { showTable } from "./table";
import { openLink } from "./table-link";
import { showReplay } from "./replay";
import { signedIn } from "./players";

/** The top bar: the rules, the signed-in player (their account page, with their games)
 * or "sign in", and the language switch (remembered). */
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
  const account = h("a", { href: "/account", className: "topbar-account", testid: "nav-account" }, t("account.sign_in"));
  bar.append(nav, account, switcher);
  void signedIn().then((me) => {
    if (!me) return;
    account.textContent = me.name;
    account.title = t("nav.your_account");
    account.dataset.signedIn = "true";
  });
}

document.documentElement.dataset.contrast = highContrast() ? "high" : "normal";
topbar();
// Seat tokens were once kept in localStorage ("your tables"): none stays there.
try {
  localStorage.removeItem("rumi.my-tables");
} catch {
  /* no storage */
}
const app = document.getElementById("app")!;
const path = location.pathname;
const table = path.match(/^\/t\/([^/]+)\/?$/);
const replay = path.match(/^\/replay\/([^/]+)\/?$/);
const rules = path.match(/^\/rules\/(rumis|rummikub)\/?$/);
const learn = path.match(/^\/learn\/(rumis|rummikub)\/?$/);
const user = path.match(/^\/u\/([^/]+)\/?$/);
if (table) {
  const id = decodeURIComponent(table[1]);
  const query = new URLSearchParams(location.search);
  const linked = fragmentToken(location.hash);
  if (linked || query.has("seat") || query.has("token") || /token=/.test(location.hash)) {
    query.delete("token");
    query.delete("seat");
    const rest = query.toString();
    history.replaceState(null, "", `/t/${encodeURIComponent(id)}${rest ? "?" + rest : ""}`);
  }
  // A seat link opened in a tab already on this table changes only the fragment: open
  // the page again with it.
  window.addEventListener("hashchange", () => {
    if (fragmentToken(location.hash)) location.reload();
  });
  // A link opened: an invite takes its seat (the invitee names themselves first).
  if (linked) openLink(app, id, linked);
  else showTable(app, id, storedToken(id));
} else if (replay) {
  showReplay(app, decodeURIComponent(replay[1]));
} else if (rules) {
  // The rules texts (both languages) are a chunk of their own, fetched on the rules pages.
  import("./rules/page").then((m) => m.showRules(app, rules[1] as "rumis" | "rummikub"));
} else if (learn) {
  // The tutorial (its texts are the client's; the positions and checks the server's).
  import("./tutorial/tutorial").then((m) => m.showTutorial(app, learn[1] as "rumis" | "rummikub"));
} else if (path === "/puzzles" || path === "/puzzles/") {
  // The Rummikub puzzles: the daily one and the older ones (the server makes and checks them).
  import("./puzzles/puzzles").then((m) => m.showPuzzles(app));
} else if (path === "/picture/rumis") {
  // The lobby's Rumis picture, drawn live by the game's scene.
  import("./rumis/picture").then((m) => m.showPicture(app));
} else if (path === "/account" || path === "/account/") {
  import("./account").then((m) => m.showAccount(app));
} else if (user) {
  import("./profile").then((m) => m.showProfile(app, decodeURIComponent(user[1])));
} else if (path === "/analysis" || path === "/analysis/") {
  import("./analysis/analysis").then((m) => m.showAnalysis(app));
} else if (path === "/solo" || path === "/solo/") {
  // The solo cube: the levels, and a build on the Rumis board checked by the server.
  import("./solo/solo").then((m) => m.showSolo(app));
} else if (path === "/leaderboard" || path === "/leaderboard/") {
  import("./leaderboard").then((m) => m.showLeaderboard(app));
} else if (path === "/" || path === "/index.html") {
  showLobby(app);
} else {
  showNotFound(app, "page");
}

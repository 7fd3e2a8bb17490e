// The client's router: / lobby, /t/{id} table, /replay/{id} replay.
//
// A seat link is `/t/{id}#token=…` (the old `/t/{id}?seat=&token=` still works): the
// token moves into sessionStorage and the address becomes `/t/{id}` before anything is
// requested, so it never reaches a server log, the history or a shared screen.
import "./style.css";
import { fragmentToken, storeToken, storedToken } from "./api";
import { showLobby } from "./lobby";
import { showTable } from "./table";
import { showReplay } from "./replay";

const app = document.getElementById("app")!;
const path = location.pathname;
const table = path.match(/^\/t\/([^/]+)\/?$/);
const replay = path.match(/^\/replay\/([^/]+)\/?$/);
if (table) {
  const id = decodeURIComponent(table[1]);
  const query = new URLSearchParams(location.search);
  const linked = fragmentToken(location.hash) ?? query.get("token");
  if (linked) storeToken(id, linked);
  if (linked || query.has("seat") || location.hash) {
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
  showTable(app, id, storedToken(id));
} else if (replay) {
  showReplay(app, decodeURIComponent(replay[1]));
} else {
  showLobby(app);
}

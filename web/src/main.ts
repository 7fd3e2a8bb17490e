// The client's router: / lobby, /t/{id}?seat=&token= table, /replay/{id} replay.
import "./style.css";
import { showLobby } from "./lobby";
import { showTable } from "./table";
import { showReplay } from "./replay";

const app = document.getElementById("app")!;
const path = location.pathname;
const table = path.match(/^\/t\/([^/]+)\/?$/);
const replay = path.match(/^\/replay\/([^/]+)\/?$/);
if (table) {
  const q = new URLSearchParams(location.search);
  showTable(app, decodeURIComponent(table[1]), q.get("token"), q.get("seat"));
} else if (replay) {
  showReplay(app, decodeURIComponent(replay[1]));
} else {
  showLobby(app);
}

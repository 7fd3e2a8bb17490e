#!/usr/bin/env node
// End-to-end tests of the browser client against a real `rumi serve`, in headless
// Chromium driven by playwright-core.
//
//   RUMI_BIN=target/release/rumi node web/e2e/run.mjs [scenario…]
//
// Starts the server on a fresh SQLite database (port 0), reads its address from stdout,
// runs the scenarios, writes screenshots to target/screenshots/ (relative to the repo
// root), stops the server, and exits non-zero on any failure. Needs `web/dist` built
// (`npm ci && npm run build` in web/) and Debian's chromium (CHROMIUM overrides the
// path /usr/bin/chromium).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const webDist = path.join(repo, "web/dist");
const shots = path.join(repo, "target/screenshots");
const bin = process.env.RUMI_BIN ? path.resolve(process.env.RUMI_BIN) : path.join(repo, "target/release/rumi");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const only = process.argv.slice(2);
const started = Date.now();

function log(...args) {
  console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);
}

class Failure extends Error {}
function check(condition, message) {
  if (!condition) throw new Failure(message);
}

// ---- server -------------------------------------------------------------------

async function startServer(tmp, addr = "127.0.0.1:0") {
  check(fs.existsSync(bin), `RUMI_BIN ${bin} does not exist (build it: cargo build --release -p rumi)`);
  check(fs.existsSync(path.join(webDist, "index.html")), `${webDist}/index.html is missing (build the client: cd web && npm ci && npm run build)`);
  const args = ["serve", "--addr", addr, "--db", `sqlite://${path.join(tmp, "e2e.db")}`, "--web-dir", webDist, "--bot-delay-ms", "60"];
  const child = spawn(bin, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Failure(`the server printed no "listening on" line within 30 s; stderr:\n${stderr.slice(-3000)}`)), 30_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ""));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Failure(`the server exited with ${code} before listening; stderr:\n${stderr.slice(-3000)}`));
    });
  });
  return { child, url, stderr: () => stderr };
}

async function api(base, method, p, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Seat-Token"] = token;
  const r = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const json = text ? JSON.parse(text) : null;
  if (!r.ok) throw new Failure(`${method} ${p} answered ${r.status}: ${text}`);
  return json;
}

// ---- page helpers -------------------------------------------------------------

const tid = (id) => `[data-testid="${id}"]`;

async function waitAttr(page, testid, attr, predicate, timeout = 20_000, what = "") {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await page.locator(tid(testid)).first().getAttribute(attr).catch(() => null);
    if (predicate(last)) return last;
    await page.waitForTimeout(40);
  }
  const detail = typeof what === "function" ? await what() : what;
  throw new Failure(`timed out waiting for ${testid}[${attr}] ${detail} (last value ${JSON.stringify(last)})`);
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, name), fullPage: true });
  log(`screenshot target/screenshots/${name}`);
}

/** The message shown to the person (a refusal), or null. */
async function errorText(page) {
  return page
    .evaluate(() => {
      const box = [...document.querySelectorAll('[data-testid="error"]')].find((e) => !e.hidden);
      return box ? box.textContent : null;
    })
    .catch(() => null);
}

function watchPage(page, name, problems) {
  page.on("pageerror", (e) => problems.push(`${name}: page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !/WebSocket|Failed to load resource/.test(m.text())) problems.push(`${name}: console error: ${m.text()}`);
  });
}

// ---- Rumis geometry (as in web/src/rumis/geometry.ts) --------------------------

function normalise(cells) {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  const mz = Math.min(...cells.map((c) => c[2]));
  return cells.map((c) => [c[0] - mx, c[1] - my, c[2] - mz]).sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
}
const shapeKey = (cells) => normalise(cells).map((c) => c.join(",")).join(";");
const cellsKey = (cells) => [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).map((c) => c.join(",")).join(";");
function heights(view) {
  const { width, depth } = view.rumis.scenario;
  const hm = Array.from({ length: depth }, () => new Array(width).fill(0));
  for (const c of view.rumis.cubes) hm[c.y][c.x] = Math.max(hm[c.y][c.x], c.z + 1);
  return hm;
}
function drop(orientation, px, py, hm) {
  const cells = normalise(orientation);
  const a = cells[0];
  const tx = px - a[0];
  const ty = py - a[1];
  let z0 = 0;
  for (const [dx, dy, dz] of cells) z0 = Math.max(z0, (hm[ty + dy]?.[tx + dx] ?? 0) - dz);
  return cells.map(([dx, dy, dz]) => [tx + dx, ty + dy, z0 + dz]);
}
function notation(stone, cells) {
  const sorted = [...cells].sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
  return `${stone} ${sorted.map(([x, y, z]) => `${String.fromCharCode(97 + x)}${y + 1}:${z + 1}`).join(" ")}`;
}

// ---- scenario: a whole Rumis game against a bot, through the UI ----------------

async function rumisGame(browser, base, problems) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page, "rumis", problems);
  await page.goto(base + "/");
  await page.locator(tid("create")).waitFor();
  await page.selectOption(tid("game-select"), "rumis");
  await page.selectOption(tid("scenario-select"), "chullpa");
  await page.selectOption(tid("players-select"), "2");
  await page.selectOption(tid("variant-select"), "standard");
  await page.fill(tid("your-name"), "Ana");
  await page.selectOption(tid("seat-kind-1"), "bot");
  await page.selectOption(tid("seat-bot-1"), "greedy");
  await page.fill(tid("seed"), "7");
  await shot(page, "lobby.png");
  await page.click(tid("create"));
  await page.locator(tid("invite-0")).waitFor();
  const id = await page.locator(tid("created")).getAttribute("data-table-id");
  await page.click(tid("open-my-seat"));
  await page.waitForURL(/\/t\//);
  const token = new URL(page.url()).searchParams.get("token");
  check(token, "the seat link has no token");
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
  check((await page.locator(tid("webgl-error")).count()) === 0, "the 3D view did not start (WebGL unavailable)");

  const view = () => api(base, "GET", `/api/tables/${id}`, undefined, token);
  let humanMoves = 0;
  let typed = 0;
  let ghosted = 0;
  let sawRed = false;
  let reloaded = false;
  await page.click(tid("top-view")); // click-placing from above: every column is visible
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const state = await waitAttr(page, "turn-status", "data-my-turn", () => true);
    if ((await page.locator(tid("turn-status")).getAttribute("data-over")) === "true") break;
    if (state !== "true") {
      await page.waitForTimeout(60);
      continue;
    }
    const v = await view();
    if (v.over) break;
    if (v.to_move !== v.you) continue;
    check(Array.isArray(v.rumis.legal) && v.rumis.legal.length > 0, `my turn but no legal moves in the view (version ${v.version})`);
    const version = v.version;
    // The biggest stone first, as a person would.
    const legal = [...v.rumis.legal].sort((a, b) => b.stone.localeCompare(a.stone) || 0);
    const move = legal.find((m) => m.stone.endsWith("4")) ?? legal[0];
    const hm = heights(v);
    if (humanMoves % 4 === 3) {
      // The typed fallback, in canonical notation.
      await page.fill(tid("move-input"), notation(move.stone, move.cells));
      await page.click(tid("move-submit"));
      typed++;
    } else {
      await page.click(tid(`tray-stone-${move.stone}`));
      const targetKey = shapeKey(move.cells);
      if (humanMoves === 0) {
        // Keys and buttons turn the stone.
        const before = await page.locator(tid("orientation")).getAttribute("data-key");
        await page.keyboard.press("e");
        await page.click(tid("turn-pitch-fwd"));
        await page.click(tid("turn-roll-right"));
        const after = await page.locator(tid("orientation")).getAttribute("data-key");
        check(before !== after || (await page.locator(tid("orientation")).getAttribute("data-index")) !== null, "turning the stone changed nothing");
      }
      for (let i = 0; i < 30; i++) {
        if ((await page.locator(tid("orientation")).getAttribute("data-key")) === targetKey) break;
        await page.click(tid("next-orientation"));
      }
      check((await page.locator(tid("orientation")).getAttribute("data-key")) === targetKey, `cannot turn ${move.stone} to ${targetKey}`);
      const orientation = normalise(move.cells);
      if (!sawRed) {
        // A column where this stone may not go: the ghost turns red with the server's reason.
        const { width, depth } = v.rumis.scenario;
        const legalKeys = new Set(v.rumis.legal.map((m) => `${m.stone}|${cellsKey(m.cells)}`));
        let bad = null;
        for (let y = 0; y < depth && !bad; y++)
          for (let x = 0; x < width && !bad; x++) {
            const cells = drop(orientation, x, y, hm);
            if (cells.every(([cx, cy]) => cx >= 0 && cy >= 0 && cx < width && cy < depth) && !legalKeys.has(`${move.stone}|${cellsKey(cells)}`)) bad = { x, y, cells };
          }
        if (bad) {
          const p = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [bad.x, bad.y]);
          await page.mouse.move(p.x, p.y);
          await waitAttr(page, "ghost-status", "data-legal", (l) => l === "false", 10_000, "(red ghost)");
          const reason = await waitAttr(page, "ghost-status", "data-reason", (r) => !!r, 10_000, "(reason)");
          log(`red ghost at ${notation(move.stone, bad.cells)}: ${reason}`);
          await shot(page, "rumis-red-ghost.png");
          await page.mouse.click(p.x, p.y); // refused on the client, with the reason
          let said = null;
          for (let i = 0; i < 100 && !/Cannot place/.test(said ?? ""); i++) {
            said = await errorText(page);
            await page.waitForTimeout(30);
          }
          check(/Cannot place/.test(said ?? ""), "clicking a red ghost showed no message");
          sawRed = true;
        }
      }
      // The ghost hangs from its anchor: the first cube of the lowest layer (as sorted by level, row, column).
      const anchorCell = [...move.cells].sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0])[0];
      const p = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [anchorCell[0], anchorCell[1]]);
      await page.mouse.move(p.x - 3, p.y - 3);
      await page.mouse.move(p.x, p.y);
      const want = notation(move.stone, move.cells);
      await waitAttr(page, "ghost-status", "data-move", (m) => m === want, 10_000, `(ghost at ${want})`);
      await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 10_000, "(green ghost)");
      if (ghosted === 1) {
        await shot(page, "rumis-green-ghost.png");
        // The same ghost in the 3D view, then back to the top view to click.
        await page.keyboard.press("t");
        await page.waitForTimeout(150);
        await shot(page, "rumis-green-ghost-3d.png");
        await page.keyboard.press("t");
        await page.mouse.move(p.x + 2, p.y + 2);
        await page.mouse.move(p.x, p.y);
        await waitAttr(page, "ghost-status", "data-move", (m) => m === want, 10_000, `(ghost at ${want} again)`);
      }
      await page.mouse.click(p.x, p.y);
      ghosted++;
    }
    humanMoves++;
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > version, 20_000, async () => `(move ${humanMoves} accepted; error: ${await errorText(page)})`);
    if (humanMoves === 3 && !reloaded) {
      // A reload mid-game restores the whole view.
      const cubes = await page.locator(tid("cube-count")).getAttribute("data-count");
      const history = await page.locator(`${tid("history")} li`).count();
      await page.reload();
      await waitAttr(page, "cube-count", "data-count", (c) => c !== null && Number(c) >= Number(cubes), 20_000, "(cubes after reload)");
      const after = await page.locator(`${tid("history")} li`).count();
      check(after >= history, `after the reload the history has ${after} moves, before ${history}`);
      check((await page.locator(tid("tray")).count()) === 1, "no tray after the reload");
      log(`reload mid-game restored ${cubes}+ cubes and ${after} moves`);
      reloaded = true;
      await page.click(tid("top-view"));
    }
  }
  const final = await view();
  check(final.over, "the Rumis game did not end within 90 s");
  await page.locator(tid("result-text")).waitFor({ timeout: 10_000 });
  const resultText = await page.locator(tid("result-text")).textContent();
  check(resultText && resultText.length > 0, "no result text");
  check(sawRed, "never saw a red ghost with a reason");
  check(ghosted >= 3 && typed >= 1, `expected moves by ghost and typed, got ${ghosted} and ${typed}`);
  log(`Rumis game over after ${humanMoves} human moves (${ghosted} by the 3D ghost, ${typed} typed): ${resultText}`);
  await shot(page, "rumis-final-top.png");
  await page.click(tid("top-view"));
  await page.waitForTimeout(150);
  await shot(page, "rumis-final-3d.png");

  // The replay steps through the finished game.
  await page.goto(`${base}/replay/${id}`);
  await page.locator(tid("replay-step")).waitFor();
  await page.click(tid("replay-next"));
  await page.click(tid("replay-next"));
  const idx = await page.locator(tid("replay-step")).getAttribute("data-index");
  check(idx === "2", `replay step is ${idx} after two steps`);
  await page.click(tid("replay-last"));
  await shot(page, "rumis-replay.png");
  await context.close();
}

// ---- Rummikub: find a deal whose first player can meld 30 from the rack --------

const TILE = /^([rbko])(\d+)$/;
function meldFrom(rack, minimum = 30) {
  const tiles = rack.filter((t) => TILE.test(t)).map((t) => {
    const [, c, n] = t.match(TILE);
    return { code: t, c, n: Number(n) };
  });
  const sets = [];
  for (let n = 1; n <= 13; n++) {
    const colours = [...new Set(tiles.filter((t) => t.n === n).map((t) => t.c))];
    if (colours.length >= 3) {
      sets.push(colours.slice(0, 3).map((c) => `${c}${n}`));
      if (colours.length === 4) sets.push(colours.map((c) => `${c}${n}`));
    }
  }
  for (const c of "rbko") {
    for (let s = 1; s <= 11; s++)
      for (let e = s + 2; e <= 13; e++) {
        const run = [];
        for (let n = s; n <= e; n++) run.push(`${c}${n}`);
        if (run.every((t) => rack.includes(t))) sets.push(run);
      }
  }
  const value = (set) => set.reduce((a, t) => a + Number(t.slice(1)), 0);
  let best = null;
  const dfs = (i, chosen, used, total) => {
    if (total >= minimum && (!best || chosen.length < best.length)) best = chosen.slice();
    if (i >= sets.length || (best && chosen.length >= best.length)) return;
    for (let j = i; j < sets.length; j++) {
      const need = {};
      for (const t of sets[j]) need[t] = (need[t] ?? 0) + 1;
      if (Object.entries(need).every(([t, k]) => (used[t] ?? 0) + k <= rack.filter((r) => r === t).length)) {
        for (const [t, k] of Object.entries(need)) used[t] = (used[t] ?? 0) + k;
        chosen.push(sets[j]);
        dfs(j + 1, chosen, used, total + value(sets[j]));
        chosen.pop();
        for (const [t, k] of Object.entries(need)) used[t] -= k;
      }
    }
  };
  dfs(0, [], {}, 0);
  return best;
}

async function findRummikubSeed(base) {
  for (let seed = 1; seed <= 60; seed++) {
    const created = await api(base, "POST", "/api/tables", {
      game: "rummikub",
      rummikub: { rules: "current", turn_seconds: null, rounds: 1 },
      seats: [{ kind: "human", name: "probe" }, { kind: "human" }],
      seed,
    });
    const v0 = await api(base, "GET", `/api/tables/${created.id}`, undefined, created.seats[0].token);
    const mover = v0.to_move;
    const v = mover === 0 ? v0 : await api(base, "GET", `/api/tables/${created.id}`, undefined, created.seats[mover].token);
    const meld = meldFrom(v.rummikub.rack);
    // Leave the probe table: hand both seats to bots so it leaves the open list and ends.
    for (const s of created.seats) await api(base, "POST", `/api/tables/${created.id}/seats/${s.seat}/bot`, { bot: "random" }, s.token).catch(() => {});
    if (meld) return seed;
  }
  throw new Failure("no seed in 1..60 deals the first player a 30-point meld");
}

// ---- scenario: Rummikub, two players in two browser contexts --------------------

async function dragTile(page, tileSelector, target) {
  await page.locator(tileSelector).first().dragTo(page.locator(target).first());
}

async function rummikubTwoPlayers(browser, base, problems, restart) {
  const seed = await findRummikubSeed(base);
  log(`Rummikub seed ${seed} deals a 30-point meld`);
  // Create the table through the lobby, with the invite link of seat 2 for the friend.
  const ctxA = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const lobby = await ctxA.newPage();
  watchPage(lobby, "lobby", problems);
  await lobby.goto(base + "/");
  await lobby.locator(tid("create")).waitFor();
  await lobby.selectOption(tid("game-select"), "rummikub");
  await lobby.selectOption(tid("preset-select"), "current");
  await lobby.fill(tid("turn-seconds"), "120");
  await lobby.selectOption(tid("rk-players-select"), "2");
  await lobby.fill(tid("your-name"), "Ana");
  await lobby.selectOption(tid("seat-kind-1"), "human");
  await lobby.fill(tid("seed"), String(seed));
  await lobby.click(tid("create"));
  await lobby.locator(tid("invite-1")).waitFor();
  const id = await lobby.locator(tid("created")).getAttribute("data-table-id");
  const invites = [await lobby.locator(tid("invite-0")).getAttribute("href"), await lobby.locator(tid("invite-1")).getAttribute("href")];
  await lobby.close();

  const ctxB = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const ctxS = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const pages = [await ctxA.newPage(), await ctxB.newPage()];
  const spectator = await ctxS.newPage();
  // Everything each browser receives: WebSocket frames and HTTP answers of the table.
  const received = [[], [], []];
  const sockets = [0, 0, 0];
  [...pages, spectator].forEach((p, i) => {
    watchPage(p, ["A", "B", "spectator"][i], problems);
    p.on("websocket", (ws) => {
      sockets[i]++;
      ws.on("framereceived", (f) => received[i].push(String(f.payload)));
    });
    p.on("response", async (r) => {
      if (r.url().includes(`/api/tables/${id}`)) received[i].push(await r.text().catch(() => ""));
    });
  });
  await pages[0].goto(base + invites[0]);
  // Player B finds the table in the lobby's list of open tables and takes the free seat.
  await pages[1].goto(base + "/");
  await pages[1].locator(tid(`join-${id}`)).waitFor({ timeout: 10_000 });
  await pages[1].fill(tid("join-name"), "Bo");
  await pages[1].click(tid(`join-${id}`));
  await pages[1].waitForURL(/\/t\/.*token=/);
  const tokens = [new URL(invites[0], base).searchParams.get("token"), new URL(pages[1].url()).searchParams.get("token")];
  await spectator.goto(`${base}/t/${id}`);
  for (const p of [...pages, spectator]) await waitAttr(p, "turn-status", "data-version", (v) => v !== null);
  await waitAttr(pages[0], "rack", "data-count", (c) => c === "14");
  await waitAttr(pages[1], "rack", "data-count", (c) => c === "14");

  const v0 = await api(base, "GET", `/api/tables/${id}`, undefined, tokens[0]);
  const mover = v0.to_move;
  const P = pages[mover];
  const Q = pages[1 - mover];
  await waitAttr(P, "turn-status", "data-my-turn", (m) => m === "true");
  const seconds = Number(await waitAttr(P, "countdown", "data-seconds", (x) => !!x && Number(x) > 0, 5_000, "(the server's clock)"));
  check(seconds <= 120, `the countdown shows ${seconds} s of a 120 s turn`);
  const rack = await P.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")));
  check(rack.length === 14, `the mover's rack shows ${rack.length} tiles`);
  const meld = meldFrom(rack);
  check(meld, `the rack read from the page has no 30-point meld: ${rack.join(" ")}`);
  log(`player ${mover + 1} melds ${meld.map((s) => `[${s.join(" ")}]`).join(" ")}`);
  await P.click(tid("sort-colour"));
  const version = Number(await P.locator(tid("turn-status")).getAttribute("data-version"));

  // An invalid table, made by drag and drop: two tiles of different colours and numbers.
  const first = meld[0][0];
  const odd = rack.find((t) => t !== first && t !== "J" && t[0] !== first[0] && t.slice(1) !== first.slice(1));
  await dragTile(P, `${tid("rack")} [data-tile="${first}"]`, tid("new-set"));
  await dragTile(P, `${tid("rack")} [data-tile="${odd}"]`, tid("set-0"));
  check((await P.locator(tid("set-0")).getAttribute("data-valid")) === "false", "a two-tile set is not marked invalid");
  check((await P.locator(`${tid("rack")} [data-tile]`).count()) === 12, "the dragged tiles did not leave the rack");
  await P.click(tid("end-turn"));
  const refusal = await (async () => {
    for (let i = 0; i < 100; i++) {
      const t = await errorText(P);
      if (t) return t;
      await P.waitForTimeout(50);
    }
    return null;
  })();
  check(refusal, "the server's refusal of an invalid table was not shown");
  log(`invalid table refused: ${refusal}`);
  const after = await api(base, "GET", `/api/tables/${id}`, undefined, tokens[mover]);
  check(after.version === version && after.rummikub.table.length === 0, "the refused table changed the game");
  await shot(P, "rummikub-invalid-table.png");
  await P.click(tid("reset-turn"));
  check((await P.locator(`${tid("rack")} [data-tile]`).count()) === 14, "reset turn did not bring the tiles back");

  // The solver's hint: the best play, laid out on the working table, then taken back.
  await P.click(tid("hint-button"));
  const hintText = await P.locator(tid("hint-text")).textContent({ timeout: 10_000 });
  check(hintText && hintText.startsWith("Best play: lay"), `the hint shows no play: ${hintText}`);
  log(`hint: ${hintText}`);
  await P.click(tid("hint-apply"));
  const laid = await P.locator(`${tid("table")} [data-tile]`).count();
  check(laid >= 3, `laying out the hint put ${laid} tiles on the table`);
  const sets = await P.locator(`${tid("table")} [data-valid]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-valid")));
  check(sets.length > 0 && sets.every((v) => v === "true"), `the hint's sets are not all valid: ${sets.join(",")}`);
  await shot(P, "rummikub-hint.png");
  await P.click(tid("reset-turn"));
  check((await P.locator(`${tid("rack")} [data-tile]`).count()) === 14, "reset turn did not take the hint back");

  // The initial meld, tile by tile, by drag and drop: each set starts as a new set.
  for (let i = 0; i < meld.length; i++) {
    const set = meld[i];
    await dragTile(P, `${tid("rack")} [data-tile="${set[0]}"]`, tid("new-set"));
    for (const t of set.slice(1)) await dragTile(P, `${tid("rack")} [data-tile="${t}"]`, tid(`set-${i}`));
    check((await P.locator(tid(`set-${i}`)).getAttribute("data-valid")) === "true", `set ${i} [${set.join(" ")}] is marked invalid`);
  }
  // Tiles between sets: the last tile of the first set into a new set (both now
  // invalid, and marked), then back.
  {
    const t = meld[0][meld[0].length - 1];
    await dragTile(P, `${tid("set-0")} [data-tile="${t}"]`, tid("new-set"));
    const last = meld.length;
    check((await P.locator(tid("set-0")).getAttribute("data-valid")) === "false", "a set that lost a tile is not marked invalid");
    check((await P.locator(tid(`set-${last}`)).getAttribute("data-valid")) === "false", "a one-tile set is not marked invalid");
    check((await P.locator(tid("invalid-warning")).count()) === 1, "no warning about invalid sets");
    await dragTile(P, `${tid(`set-${last}`)} [data-tile="${t}"]`, tid("set-0"));
    check((await P.locator(tid("set-0")).getAttribute("data-valid")) === "true", "the set is not valid again after the tile came back");
  }
  await shot(P, "rummikub-meld.png");
  await P.click(tid("end-turn"));
  await waitAttr(P, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(meld accepted; error: ${await errorText(P)})`);
  const played = meld.flat().length;
  await waitAttr(Q, `rack-size-${mover}`, "data-testid", () => true);
  for (let i = 0; i < 100; i++) {
    if ((await Q.locator(tid(`rack-size-${mover}`)).textContent()).startsWith(`${14 - played} `)) break;
    await Q.waitForTimeout(50);
  }
  check((await Q.locator(tid(`rack-size-${mover}`)).textContent()).startsWith(`${14 - played} `), "the other player does not see the mover's rack size");
  check((await Q.locator(`${tid("table")} .set:not(.new-set)`).count()) === meld.length, "the other player does not see the melded sets");

  // The other player draws; then a reload mid-game restores the full view.
  await waitAttr(Q, "turn-status", "data-my-turn", (m) => m === "true");
  await Q.click(tid("draw"));
  await waitAttr(Q, "rack", "data-count", (c) => c === "15");
  const beforeReload = await Q.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")).sort());
  await Q.reload();
  await waitAttr(Q, "rack", "data-count", (c) => c === "15");
  const afterReload = await Q.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")).sort());
  check(JSON.stringify(beforeReload) === JSON.stringify(afterReload), "the rack differs after a reload");
  check((await Q.locator(`${tid("table")} .set:not(.new-set)`).count()) === meld.length, "the table differs after a reload");
  log("reload restored the rack and the table");
  await waitAttr(P, "turn-status", "data-my-turn", (m) => m === "true");
  await shot(P, "rummikub-player-1.png");
  await shot(Q, "rummikub-player-2.png");
  await shot(spectator, "rummikub-spectator.png");

  // Hidden information: neither player's page nor anything it received holds the
  // other's rack; the spectator received no rack at all.
  const racks = [
    await api(base, "GET", `/api/tables/${id}`, undefined, tokens[0]),
    await api(base, "GET", `/api/tables/${id}`, undefined, tokens[1]),
  ];
  const table = racks[0].rummikub.table.flat();
  const count = (list) => list.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map());
  for (const me of [0, 1]) {
    const page = pages[me];
    const mine = racks[me].rummikub.rack;
    const other = racks[1 - me].rummikub.rack;
    const allowed = count([...mine, ...table]);
    const exclusive = [...count(other)].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t]) => t);
    check(exclusive.length > 0, "the two racks are too alike to test hiding");
    const dom = await page.locator("[data-tile]").evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")));
    for (const [t, k] of count(dom)) check(k <= (allowed.get(t) ?? 0), `player ${me + 1}'s page shows ${k}× ${t}, more than their rack and the table hold (the other's tile?)`);
    check(received[me].length > 0, `player ${me + 1} received nothing`);
    for (const text of received[me]) checkMessage(text, me, `player ${me + 1}`);
  }
  check(received[2].length > 0, "the spectator received nothing");
  for (const text of received[2]) checkMessage(text, null, "the spectator");
  log(`hidden information: ${received[0].length} + ${received[1].length} + ${received[2].length} messages checked`);

  // The server dies (kill -9) and comes back: the pages reconnect by themselves and
  // show the same game, and play goes on.
  const rackP = await P.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")).sort());
  const versionBefore = Number(await P.locator(tid("turn-status")).getAttribute("data-version"));
  const socketsBefore = [...sockets];
  await restart();
  for (let i = 0; i < 200 && !(sockets[0] > socketsBefore[0] && sockets[1] > socketsBefore[1]); i++) await P.waitForTimeout(50);
  check(sockets[0] > socketsBefore[0] && sockets[1] > socketsBefore[1], "the pages opened no new WebSocket after the restart");
  for (const p of [P, Q]) await waitAttr(p, "connection", "data-state", (x) => x === "open", 20_000, "(reconnected after the restart)");
  const rackAfter = await P.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")).sort());
  check(JSON.stringify(rackP) === JSON.stringify(rackAfter), "the rack differs after the server restarted");
  await waitAttr(P, "turn-status", "data-my-turn", (m) => m === "true", 10_000, "(still my turn after the restart)");
  await P.click(tid("draw"));
  await waitAttr(P, "turn-status", "data-version", (x) => Number(x) === versionBefore + 1, 10_000, async () => `(draw after the restart; error: ${await errorText(P)})`);
  await waitAttr(Q, "turn-status", "data-version", (x) => Number(x) === versionBefore + 1, 10_000, "(the other player sees the draw)");
  log("after kill -9 and restart both pages reconnected and play went on");
  await ctxA.close();
  await ctxB.close();
  await ctxS.close();
}

/** A message a browser received: tiles only in its own rack and on the table. */
function checkMessage(text, seat, who) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return;
  }
  const views = [];
  if (msg?.type === "state") views.push(msg.view);
  else if (msg?.game) views.push(msg);
  for (const v of views) {
    const rk = v.rummikub;
    if (!rk) continue;
    check(v.you === seat, `${who} received a view for seat ${v.you}`);
    if (seat === null) check(rk.rack === undefined || rk.rack === null, `${who} received a rack`);
    else check(Array.isArray(rk.rack) && rk.rack.length === rk.rack_sizes[seat], `${who} received a rack of ${rk.rack?.length} tiles, their size is ${rk.rack_sizes[seat]}`);
    // Every tile named anywhere in the message is in the rack or on the table.
    const allowed = new Map();
    for (const t of [...(rk.rack ?? []), ...rk.table.flat()]) allowed.set(t, (allowed.get(t) ?? 0) + 1);
    const seen = new Map();
    const walk = (x) => {
      if (typeof x === "string") {
        for (const w of x.split(/[\s,;:()\[\]]+/)) if (/^([rbko](1[0-3]|[1-9])|J)$/.test(w)) seen.set(w, (seen.get(w) ?? 0) + 1);
      }
      else if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === "object") Object.values(x).forEach(walk);
    };
    walk({ ...v, rummikub: { ...rk, rack: undefined, table: undefined } });
    const extra = [...seen].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t]) => t);
    check(extra.length === 0, `${who} received tiles that are neither in their rack nor on the table: ${extra.join(" ")}`);
    check(!("pool" in rk) && !("racks" in rk), `${who} received the pool or all racks`);
  }
}

// ---- main ---------------------------------------------------------------------

const scenarios = { rumis: rumisGame, rummikub: rummikubTwoPlayers };

async function main() {
  fs.mkdirSync(shots, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rumi-e2e-"));
  let server = null;
  let browser = null;
  const failures = [];
  const problems = [];
  const stop = () => {
    if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  };
  process.on("exit", stop);
  process.on("SIGINT", () => process.exit(130));
  process.on("SIGTERM", () => process.exit(143));
  try {
    server = await startServer(tmp);
    log(`server at ${server.url} (${bin})`);
    check(fs.existsSync(chromiumPath), `${chromiumPath} is missing (apt-get install -y chromium, or set CHROMIUM)`);
    let chromium;
    try {
      ({ chromium } = await import("playwright-core"));
    } catch (e) {
      throw new Failure(`cannot load playwright-core (run npm ci in web/): ${e.message}`);
    }
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"],
    });
    for (const [name, run] of Object.entries(scenarios)) {
      if (only.length && !only.includes(name)) continue;
      const t0 = Date.now();
      log(`--- ${name}`);
      try {
        // kill -9 and a restart on the same address and database, for reconnect tests.
        const restart = async () => {
          server.child.kill("SIGKILL");
          await new Promise((r) => (server.child.exitCode !== null ? r() : server.child.on("exit", r)));
          server = await startServer(tmp, new URL(server.url).host);
          log(`server restarted at ${server.url}`);
        };
        await run(browser, server.url, problems, restart);
        log(`ok ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        failures.push(`${name}: ${e instanceof Failure ? e.message : e.stack ?? e}`);
        log(`FAILED ${name}: ${e.message}`);
        for (const ctx of browser.contexts()) {
          for (const [i, p] of ctx.pages().entries()) await p.screenshot({ path: path.join(shots, `FAILED-${name}-${i}.png`), fullPage: true }).catch(() => {});
          await ctx.close().catch(() => {});
        }
      }
    }
  } catch (e) {
    failures.push(e instanceof Failure ? e.message : String(e.stack ?? e));
  } finally {
    await browser?.close().catch(() => {});
    stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  for (const p of problems) failures.push(p);
  if (failures.length) {
    console.error(`\ne2e: ${failures.length} failure(s):\n- ${failures.join("\n- ")}`);
    if (server) console.error(`\nserver stderr (tail):\n${server.stderr().slice(-2000)}`);
    process.exit(1);
  }
  log(`all passed; screenshots in ${path.relative(process.cwd(), shots) || shots}`);
}

main();

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
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { newcomerScenarios } from "./newcomer.mjs";
import { boardScenarios } from "./board.mjs";
import { lobbyScenarios } from "./lobby.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
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
  const args = ["serve", "--addr", addr, "--db", `sqlite://${path.join(tmp, "e2e.db")}`, "--bot-delay-ms", "60", "--tables-per-minute-per-address", "0", "--max-open-tables-per-address", "0", "--max-open-seats-per-address", "0", "--max-open-seats-per-table-per-address", "0"];
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

// ---- contract v2 helpers: tables made in the lobby, tokens in sessionStorage ------

/** Fills the lobby's form and creates the table; the page lands on the creator's seat
 * (`/t/ID`, no token in the address). Returns the table id and this tab's token. */
async function createInLobby(page, base, { game, name, seats = [], mine, seed, turnSeconds, noClock, players, scenario = "chullpa", variant = "standard", preset = "current" }) {
  if (!page.url().startsWith(base + "/") || new URL(page.url()).pathname !== "/") await page.goto(base + "/");
  await openForm(page);
  await page.selectOption(tid("game-select"), game);
  if (game === "rumis") {
    await page.selectOption(tid("scenario-select"), scenario);
    await page.selectOption(tid("players-select"), String(players ?? seats.length));
    await page.selectOption(tid("variant-select"), variant);
  } else {
    await page.selectOption(tid("preset-select"), preset);
    if (noClock) await page.check(tid("no-clock"));
    else if (turnSeconds !== undefined) await page.fill(tid("turn-seconds"), String(turnSeconds));
    await page.selectOption(tid("rk-players-select"), String(players ?? seats.length));
  }
  if (name !== undefined) await page.fill(tid("your-name"), name);
  for (const [i, kind] of seats.entries()) {
    const [k, bot] = kind.split(":");
    await page.selectOption(tid(`seat-kind-${i}`), k);
    if (bot) await page.selectOption(tid(`seat-bot-${i}`), bot);
  }
  if (mine !== undefined) await page.check(tid(`seat-mine-${mine}`));
  if (seed !== undefined) await page.fill(tid("seed"), String(seed));
  return await submitCreate(page);
}

/** The lobby's full form, under "more options". */
async function openForm(page) {
  await page.locator(tid("more-options-summary")).waitFor();
  if (!(await page.locator(tid("more-options")).evaluate((d) => d.open))) await page.click(tid("more-options-summary"));
  await page.locator(tid("create")).waitFor();
}

/** Hands a seat to a bot: the button, then yes in the dialog that asks first. */
async function handToBot(page, seat) {
  await page.click(tid(`hand-bot-${seat}`));
  await page.click(tid("hand-confirm"));
}

async function submitCreate(page) {
  await page.click(tid("create"));
  await page.waitForURL(/\/t\/[^/?#]+$/, { timeout: 10_000 }).catch(async () => {
    throw new Failure(`creating the table did not lead to it (error: ${await errorText(page)})`);
  });
  const id = tableIdOf(page.url());
  return { id, token: await sessionToken(page, id) };
}

function tableIdOf(url) {
  const m = new URL(url).pathname.match(/^\/t\/([^/]+)$/);
  check(m, `${url} is not a table's address`);
  return decodeURIComponent(m[1]);
}

/** The seat token this tab holds for a table (sessionStorage `rumi-token-<id>`). */
async function sessionToken(page, id) {
  return page.evaluate((id) => sessionStorage.getItem(`rumi-token-${id}`), id);
}

/** Every address a page sends to a server (HTTP and WebSocket; a fragment is never sent). */
function recordRequests(page) {
  const urls = [];
  const sent = (u) => u.replace(/#.*$/, "");
  page.on("request", (r) => urls.push(sent(r.url())));
  page.on("websocket", (ws) => urls.push(sent(ws.url())));
  return urls;
}

/** Joins a table from the lobby's list of open tables; returns the seat's token. */
async function joinFromLobby(page, base, id, name) {
  await page.goto(base + "/");
  await page.locator(tid(`join-${id}`)).waitFor({ timeout: 10_000 });
  const offered = await page.locator(tid(`open-table-${id}`)).getAttribute("data-open-seats");
  await page.fill(tid("join-name"), name);
  await page.click(tid(`join-${id}`));
  await page.waitForURL((u) => u.pathname === `/t/${id}` && !u.search && !u.hash, { timeout: 10_000 });
  const token = await sessionToken(page, id);
  check(token, `joining ${id} left no token in sessionStorage`);
  return { token, offered: offered ? offered.split(",").map(Number) : [] };
}

async function waitText(page, testid, predicate, timeout = 10_000, what = "") {
  const deadline = Date.now() + timeout;
  let last = null;
  while (Date.now() < deadline) {
    last = await page.locator(tid(testid)).first().textContent({ timeout: 200 }).catch(() => null);
    if (last !== null && predicate(last)) return last;
    await page.waitForTimeout(50);
  }
  throw new Failure(`timed out waiting for the text of ${testid} ${what} (last ${JSON.stringify(last)})`);
}

const isThree = (url) => /\/assets\/three-[^/]*\.js/.test(url);

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
// (practice: the seed is chosen, shown to everyone, and revealed with its salt at the end)

async function rumisGame(browser, base, problems) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page, "rumis", problems);
  const requests = recordRequests(page);
  await page.goto(base + "/");
  await openForm(page);
  await page.selectOption(tid("game-select"), "rumis");
  await page.selectOption(tid("scenario-select"), "chullpa");
  await page.selectOption(tid("players-select"), "2");
  await page.selectOption(tid("variant-select"), "standard");
  await page.fill(tid("your-name"), "Ana");
  await page.selectOption(tid("seat-kind-1"), "bot");
  await page.selectOption(tid("seat-bot-1"), "greedy");
  await page.fill(tid("seed"), "7");
  await shot(page, "lobby.png");
  check(!requests.some(isThree), "the lobby loaded three.js");
  const { id, token } = await submitCreate(page);
  check(token, "creating the table left no seat token in sessionStorage");
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
  await page.locator(tid("rumis-viewport")).waitFor({ timeout: 20_000 });
  check((await page.locator(tid("webgl-error")).count()) === 0, "the 3D view did not start (WebGL unavailable)");
  check(requests.some(isThree), "the Rumis page did not load three.js");
  // Rumis deals nothing (issue #46): no seed, commitment or proof on the page; the
  // server still commits to the seed (checked with rumi verify below).
  check((await page.locator(tid("fairness")).count()) === 0 && (await page.locator(tid("practice-seed")).count()) === 0, "a Rumis table shows a proof of a deal");

  const view = () => api(base, "GET", `/api/tables/${id}`, undefined, token);
  const committed = (await view()).fairness.commitment;
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
            // (the ghost snaps to a legal placement covering the pointed column: avoid those)
            const covered = v.rumis.legal.some((m) => m.stone === move.stone && shapeKey(m.cells) === targetKey && m.cells.some(([cx, cy]) => cx === x && cy === y));
            if (!covered && cells.every(([cx, cy]) => cx >= 0 && cy >= 0 && cx < width && cy < depth) && !legalKeys.has(`${move.stone}|${cellsKey(cells)}`)) bad = { x, y, cells };
          }
        if (bad) {
          const p = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [bad.x, bad.y]);
          await page.mouse.move(p.x, p.y);
          await waitAttr(page, "ghost-status", "data-legal", (l) => l === "false", 10_000, "(red ghost)");
          const reason = await waitAttr(page, "ghost-status", "data-reason", (r) => !!r, 10_000, "(reason)");
          const whyCode = await page.locator(tid("ghost-status")).getAttribute("data-why");
          const checked = await api(base, "POST", `/api/tables/${id}/check`, { stone: move.stone, cells: bad.cells }, token);
          check(!!whyCode && checked.why?.code === whyCode, `the red ghost says ${whyCode}, the check endpoint ${JSON.stringify(checked.why)}`);
          const ghostRule = await page.locator(tid("ghost-status")).getAttribute("data-rule");
          check(ghostRule === (checked.why?.rule ?? ""), `the red ghost links ${ghostRule}, the reason's rule is ${checked.why?.rule}`);
          log(`red ghost at ${notation(move.stone, bad.cells)}: ${reason} (${whyCode}, ${ghostRule})`);
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
  // The seed revealed by the server (the page shows no proof for Rumis; the browser's
  // check of a revealed deal is in the hand-end scenario, on a Rummikub table).
  const revealed = String(final.fairness.seed);
  check(revealed === "7", `the revealed seed is ${revealed}, the practice seed was 7`);
  check((await page.locator(tid("check-deal")).count()) === 0, "a finished Rumis game shows a proof of a deal");
  log("fairness: seed 7 revealed by the server; no proof shown for Rumis");
  // `rumi verify --commitment` on the replay, with the commitment of the first view.
  {
    const href = `/api/tables/${encodeURIComponent(id)}/replay`;
    const file = path.join(os.tmpdir(), `rumi-e2e-replay-${id}.json`);
    fs.writeFileSync(file, await (await fetch(base + href)).text());
    const seen = committed;
    const verified = spawnSync(bin, ["verify", "--commitment", seen, file], { encoding: "utf8" });
    fs.rmSync(file, { force: true });
    check(verified.status === 0, `rumi verify on the downloaded replay failed: ${verified.stdout}${verified.stderr}`);
    log(`rumi verify: ${verified.stdout.trim().split("\n")[0]}`);
  }
  await shot(page, "rumis-final-top.png");
  await page.click(tid("top-view"));
  await page.waitForTimeout(150);
  await shot(page, "rumis-final-3d.png");

  // Time to the first drawn board on a cold load of this table (a fresh browser context).
  await coldLoad(page.context().browser(), base, id);

  // The replay steps through the finished game.
  await page.goto(`${base}/replay/${id}`);
  await page.locator(tid("replay-step")).waitFor();
  await page.click(tid("replay-next"));
  await page.click(tid("replay-next"));
  const idx = await page.locator(tid("replay-step")).getAttribute("data-index");
  check(idx === "2", `replay step is ${idx} after two steps`);
  await page.click(tid("replay-last"));
  await page.locator(tid("fairness")).waitFor({ timeout: 5_000 });
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

// ---- scenario: Rummikub, two players in two browser contexts --------------------

async function dragTile(page, tileSelector, target) {
  await page.locator(tileSelector).first().dragTo(page.locator(target).first());
}

async function rummikubTwoPlayers(browser, base, problems, restart) {
  // Ana creates the table in the lobby with seat 2 open; Bo takes it from the lobby's list.
  // Seeds are for practice only, so tables are made until the first player can meld 30.
  const ctxA = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const ctxB = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const ctxS = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const pages = [await ctxA.newPage(), await ctxB.newPage()];
  const spectator = await ctxS.newPage();
  // Everything each browser receives: WebSocket frames and HTTP answers of the table.
  const received = [[], [], []];
  const sockets = [0, 0, 0];
  const requested = [];
  let id = null;
  [...pages, spectator].forEach((p, i) => {
    watchPage(p, ["A", "B", "spectator"][i], problems);
    p.on("request", (r) => requested.push(r.url()));
    p.on("websocket", (ws) => {
      sockets[i]++;
      ws.on("framereceived", (f) => received[i].push(String(f.payload)));
    });
    p.on("response", async (r) => {
      if (id && r.url().includes(`/api/tables/${id}`)) received[i].push(await r.text().catch(() => ""));
    });
  });
  let tokens = null;
  for (let attempt = 1; attempt <= 30 && !tokens; attempt++) {
    received.forEach((r) => (r.length = 0));
    const made = await createInLobby(pages[0], base, { game: "rummikub", name: "Ana", seats: ["human", "open"], turnSeconds: 120 });
    id = made.id;
    await waitAttr(pages[0], "turn-status", "data-status", (x) => x === "waiting", 10_000, "(waiting for the open seat)");
    const joined = await joinFromLobby(pages[1], base, id, "Bo");
    check(JSON.stringify(joined.offered) === "[1]", `the lobby offered seats ${joined.offered} of a table whose only open seat is 2`);
    const views = [await api(base, "GET", `/api/tables/${id}`, undefined, made.token), await api(base, "GET", `/api/tables/${id}`, undefined, joined.token)];
    check(views[0].you === 0 && views[1].you === 1, `Ana has seat ${views[0].you}, Bo seat ${views[1].you}`);
    const mover = views[0].to_move;
    // (A meld with a three-tile set: moving one of its tiles out makes it invalid.)
    const meld = meldFrom([...views[mover].rummikub.rack].sort());
    if (meld && meld.some((set) => set.length === 3)) tokens = [made.token, joined.token];
    else for (const [seat, t] of [made.token, joined.token].entries()) await api(base, "POST", `/api/tables/${id}/seats/${seat}/bot`, { bot: "random" }, t).catch(() => {});
  }
  check(tokens, "in 30 tables the first player never had a 30-point meld with a three-tile set");
  log(`Rummikub table ${id}: the first player can meld 30`);
  await spectator.goto(`${base}/t/${id}`);
  for (const p of [...pages, spectator]) await waitAttr(p, "turn-status", "data-version", (v) => v !== null);
  for (const p of [...pages, spectator]) await waitAttr(p, "turn-status", "data-status", (v) => v === "playing", 10_000, "(playing once both seats are taken)");
  await waitAttr(pages[0], "rack", "data-count", (c) => c === "14");
  await waitAttr(pages[1], "rack", "data-count", (c) => c === "14");
  check(!requested.some(isThree), "a Rummikub page or the lobby loaded three.js");

  const v0 = await api(base, "GET", `/api/tables/${id}`, undefined, tokens[0]);
  const mover = v0.to_move;
  const P = pages[mover];
  const Q = pages[1 - mover];
  await waitAttr(P, "turn-status", "data-my-turn", (m) => m === "true");
  const seconds = Number(await waitAttr(P, "countdown", "data-seconds", (x) => !!x && Number(x) > 0, 5_000, "(the server's clock)"));
  check(seconds <= 120, `the countdown shows ${seconds} s of a 120 s turn`);
  const rack = await P.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")));
  check(rack.length === 14, `the mover's rack shows ${rack.length} tiles`);
  const meld = meldFrom([...rack].sort());
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
  // Tiles between sets: the last tile of a three-tile set into a new set (both now
  // invalid, and marked), then back.
  {
    const k = meld.findIndex((set) => set.length === 3);
    const t = meld[k][2];
    await dragTile(P, `${tid(`set-${k}`)} [data-tile="${t}"]`, tid("new-set"));
    const last = meld.length;
    check((await P.locator(tid(`set-${k}`)).getAttribute("data-valid")) === "false", "a set that lost a tile is not marked invalid");
    check((await P.locator(tid(`set-${last}`)).getAttribute("data-valid")) === "false", "a one-tile set is not marked invalid");
    check((await P.locator(tid("invalid-warning")).count()) === 1, "no warning about invalid sets");
    await dragTile(P, `${tid(`set-${last}`)} [data-tile="${t}"]`, tid(`set-${k}`));
    check((await P.locator(tid(`set-${k}`)).getAttribute("data-valid")) === "true", "the set is not valid again after the tile came back");
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
  await axeCheck(spectator, "a Rummikub table as a spectator");

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
  check(!requested.some(isThree), "a Rummikub page or the lobby loaded three.js");
  for (const t of tokens) check(!requested.some((u) => u.includes(t)), "a requested address holds a seat token");
  await ctxA.close();
  await ctxB.close();
  await ctxS.close();
}

// ---- scenario: seats: the creator's seat is theirs, open seats go to others -------

async function seatsScenario(browser, base, problems) {
  const contexts = [];
  const page = async (name) => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    contexts.push(c);
    const p = await c.newPage();
    watchPage(p, name, problems);
    return p;
  };
  const A = await page("A");
  // Ana takes seat 2 (not the first); seats 1 and 3 are open to anyone.
  const a = await createInLobby(A, base, { game: "rummikub", name: "Ana", seats: ["open", "human", "open"], mine: 1, noClock: true });
  check(a.token, "the creator has no token");
  const va = await api(base, "GET", `/api/tables/${a.id}`, undefined, a.token);
  check(va.you === 1, `the creator picked seat 2 and has seat ${va.you === null ? "none" : va.you + 1}`);
  check(va.status === "waiting" && JSON.stringify(va.waiting_for) === "[0,2]", `status ${va.status}, waiting for ${JSON.stringify(va.waiting_for)}`);
  await waitAttr(A, "turn-status", "data-waiting-for", (x) => x === "0,2", 10_000, "(waiting for seats 1 and 3)");
  const waitingText = await A.locator(tid("turn-status")).textContent();
  check(waitingText === "Waiting for Player 1, Player 3", `the creator sees "${waitingText}"`);
  await A.locator(tid("open-seat-0")).waitFor({ timeout: 5_000 });

  // Bo joins from the lobby: offered only the open seats, never the creator's.
  const B = await page("B");
  const b = await joinFromLobby(B, base, a.id, "Bo");
  check(JSON.stringify(b.offered) === "[0,2]", `the lobby offered seats ${b.offered.map((x) => x + 1)}`);
  const vb = await api(base, "GET", `/api/tables/${a.id}`, undefined, b.token);
  check(vb.you === 0 || vb.you === 2, `Bo got seat ${vb.you}`);
  check(b.token !== a.token, "Bo got the creator's token");
  const lobbyAgain = await page("lobby");
  await lobbyAgain.goto(base + "/");
  await lobbyAgain.locator(tid(`join-${a.id}`)).waitFor({ timeout: 10_000 });
  const left = await lobbyAgain.locator(tid(`open-table-${a.id}`)).getAttribute("data-open-seats");
  check(left === String(2 - vb.you), `after Bo took seat ${vb.you + 1} the lobby offers ${left}`);
  // The lobby says how long the seat has been open.
  const since = Number(await lobbyAgain.locator(tid(`open-table-${a.id}`)).getAttribute("data-open-since"));
  check(since > 0 && since <= Date.now(), `the lobby line has no time the seat opened: ${since}`);
  const lineText = await lobbyAgain.locator(tid(`open-table-${a.id}`)).textContent();
  check(/open seat \(open for (less than a minute|\d+ min)\)/.test(lineText), `the lobby line does not say how long the seat is open: ${lineText}`);

  // Cy opens the table's address and takes the last open seat from the table page.
  const C = await page("C");
  await C.goto(`${base}/t/${a.id}`);
  await C.locator(tid("join-table")).waitFor({ timeout: 10_000 });
  await C.fill(tid("join-name"), "Cy");
  await C.click(tid("join-table"));
  // The page reloads on the new seat (before, it watched).
  await waitText(C, "table-title", (t) => / — seat \d$/.test(t), 10_000, "(Cy on a seat)");
  await waitAttr(C, "turn-status", "data-status", (x) => x === "playing", 10_000, "(playing once Cy sat down)");
  const c = await sessionToken(C, a.id);
  const vc = await api(base, "GET", `/api/tables/${a.id}`, undefined, c);
  check(vc.you === 2 - vb.you, `Cy got seat ${vc.you}, Bo has ${vb.you}, Ana 1`);
  check(new Set([a.token, b.token, c]).size === 3, "two people share a token");
  for (const p of [A, B]) await waitAttr(p, "turn-status", "data-status", (x) => x === "playing", 10_000, "(playing)");
  check(C.url() === `${base}/t/${a.id}`, `Cy's address is ${C.url()}`);

  // The table is full: the lobby no longer lists it, and a join is refused with a code.
  await lobbyAgain.click(tid("refresh-tables"));
  await lobbyAgain.waitForTimeout(300);
  check((await lobbyAgain.locator(tid(`open-table-${a.id}`)).count()) === 0, "a full table is still in the lobby");
  const r = await fetch(`${base}/api/tables/${a.id}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Dee" }) });
  const body = await r.json().catch(() => null);
  check(r.status === 409 && body && typeof body.error === "string" && typeof body.code === "string", `joining a full table: ${r.status} ${JSON.stringify(body)}`);
  log(`seats: Ana 2 (hers from creation), Bo ${vb.you + 1} from the lobby, Cy ${vc.you + 1} from the table; a fourth join: ${body.code}`);

  // Hand to bot: Ana may hand her own seat, not a connected player's; once Bo has gone the
  // control counts down to when the server allows it.
  check((await A.locator(tid("hand-bot-1")).count()) === 1, "no hand-to-bot control for your own seat");
  check((await A.locator(tid(`hand-bot-${vb.you}`)).count()) === 0 && (await A.locator(tid(`hand-bot-${vc.you}`)).count()) === 0, "a present player's seat may be handed to a bot");
  await shot(A, "seats.png");
  await B.close();
  const text = await waitText(A, `handover-${vb.you}`, (t) => /you may hand Bo's seat to a bot in \d+ s/.test(t), 15_000, "(countdown once Bo left)");
  const secs = Number(text.match(/in (\d+) s/)[1]);
  check(secs > 0 && secs <= 60, `the hand-over countdown says ${secs} s`);
  check((await A.locator(tid(`hand-bot-${vb.you}`)).count()) === 0, "Bo's seat may be handed over before the server allows it");
  log(`Bo left: "${text.trim()}"`);
  await shot(A, "seats-handover-countdown.png");
  for (const ctx of contexts) await ctx.close();
}

// ---- scenario: an invite link (#token=) and the waiting table ---------------------

async function waitingScenario(browser, base, problems) {
  const ctxA = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const A = await ctxA.newPage();
  watchPage(A, "A", problems);
  const a = await createInLobby(A, base, { game: "rummikub", name: "Ana", seats: ["human", "human"], turnSeconds: 60 });
  await waitAttr(A, "turn-status", "data-status", (x) => x === "waiting", 10_000, "(waiting for the invitee)");
  const said = await A.locator(tid("turn-status")).textContent();
  check(said === "Waiting for Player 2", `the creator sees "${said}"`);
  await waitAttr(A, "rack", "data-count", (c) => c === "14");
  check((await A.locator(tid("countdown")).getAttribute("data-seconds")) === "", "a clock runs while the table waits");
  const v0 = await api(base, "GET", `/api/tables/${a.id}`, undefined, a.token);
  check(v0.status === "waiting" && v0.deadline_ms === null, `waiting table: status ${v0.status}, deadline ${v0.deadline_ms}`);
  const refused = await fetch(`${base}/api/tables/${a.id}/actions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Seat-Token": a.token },
    body: JSON.stringify({ version: v0.version, action: { type: "draw" } }),
  });
  const refusal = await refused.json().catch(() => null);
  check(refused.status === 409 && refusal?.code, `an action while waiting: ${refused.status} ${JSON.stringify(refusal)}`);
  const invite = await A.locator(tid("invite-1")).inputValue();
  check(/\/t\/[^/?#]+#token=[0-9a-zA-Z]+$/.test(invite), `the invite link is ${invite}`);
  const token = new URLSearchParams(new URL(invite).hash.slice(1)).get("token");
  await shot(A, "rummikub-waiting.png");

  // The invitee opens the link: the token leaves the address and no request carries it.
  const ctxB = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const B = await ctxB.newPage();
  watchPage(B, "B", problems);
  const sent = recordRequests(B);
  await B.goto(invite);
  // Asked for a name before sitting down (the seat is still "Player 2"); the others see it.
  await B.locator(tid("ask-name")).waitFor({ timeout: 10_000 });
  check((await A.locator(tid("turn-status")).getAttribute("data-status")) === "waiting", "the invitee sat down before saying a name");
  await shot(B, "invite-name.png");
  await B.fill(tid("ask-name-input"), "Bo");
  await B.click(tid("ask-name-sit"));
  await waitAttr(B, "turn-status", "data-version", (x) => x !== null, 10_000, "(the invitee's view)");
  await waitText(A, "seat-1", (t) => t.includes("Bo"), 10_000, "(the creator sees the invitee's name)");
  await waitText(B, "seat-1", (t) => t.includes("Bo"), 10_000, "(the invitee's own name)");
  log("the invitee named themselves Bo before sitting down");
  check(B.url() === `${base}/t/${a.id}`, `after opening the invite the address is ${B.url()}`);
  // Taking the seat spent the invite: the tab keeps the seat's new token, which the
  // creator never saw; the creator's copy of the link no longer opens the seat.
  const bToken = await sessionToken(B, a.id);
  check(bToken && bToken !== token, `the invitee's tab keeps ${bToken}, not a new token of its own`);
  const spent = await fetch(`${base}/api/tables/${a.id}`, { headers: { "X-Seat-Token": token } });
  const spentBody = await spent.json().catch(() => null);
  check(spent.status === 409 && spentBody?.code === "seat_taken" && !spentBody.rummikub, `the spent invite still reads: ${spent.status} ${JSON.stringify(spentBody)}`);
  check(!(await B.evaluate(() => location.href + document.referrer)).includes(token), "the token is still in the page's address");
  await waitAttr(B, "turn-status", "data-status", (x) => x === "playing", 10_000, "(playing once the invitee came)");
  check((await B.locator(tid("table-title")).textContent()).includes("seat 2"), "the invitee is not on seat 2");
  const seconds = Number(await waitAttr(A, "countdown", "data-seconds", (x) => !!x && Number(x) > 0, 10_000, "(the clock started)"));
  check(seconds <= 60, `the clock shows ${seconds} s of a 60 s turn`);
  const v1 = await api(base, "GET", `/api/tables/${a.id}`, undefined, a.token);
  check(v1.status === "playing" && v1.deadline_ms !== null, `started table: status ${v1.status}, deadline ${v1.deadline_ms}`);
  await B.reload();
  await waitAttr(B, "turn-status", "data-version", (x) => x !== null);
  check((await B.locator(tid("table-title")).textContent()).includes("seat 2"), "after a reload the invitee lost the seat");
  check((await B.locator(tid("ask-name")).count()) === 0, "a reload asks the name again");
  // A player renames themselves; the others see it.
  await B.click(tid("rename-seat"));
  await B.fill(tid("rename-input"), "Bodo");
  await B.click(tid("rename-save"));
  await waitText(A, "seat-1", (t) => t.includes("Bodo"), 10_000, "(the creator sees the new name)");
  log("the invitee renamed themselves Bodo");
  check(sent.length > 3 && sent.some((u) => u.includes("/ws")), `too few requests recorded (${sent.length})`);
  const leaks = sent.filter((u) => u.includes(token));
  check(leaks.length === 0, `requests carrying the token: ${leaks.join(" ")}`);
  log(`invite: ${sent.length} requests, none with the token; the clock started at ${seconds} s`);
  await shot(A, "rummikub-started.png");

  // The old link form (?seat=&token=) gives no seat (a token is read from the fragment
  // only) and leaves the address.
  const ctxD = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const D = await ctxD.newPage();
  watchPage(D, "D", problems);
  await D.goto(`${base}/t/${a.id}?seat=1&token=${bToken}`);
  await waitAttr(D, "turn-status", "data-version", (x) => x !== null);
  check(D.url() === `${base}/t/${a.id}`, `the old link form left ${D.url()}`);
  await waitText(D, "table-title", (t) => t.includes("(spectator)"), 10_000, "(the old link form only watches)");
  check((await sessionToken(D, a.id)) === null, "the old link form's token was kept");
  // The spent invite link, opened again: the page says the seat is taken, and watches.
  await D.goto(`${base}/t/${a.id}#token=${token}`);
  await D.waitForURL(`${base}/t/${a.id}`);
  await waitText(D, "table-title", (t) => t.includes("(spectator)"), 10_000, "(watching after a spent invite)");
  check(/this seat is taken/i.test((await errorText(D)) ?? ""), `no word about the taken seat: ${await errorText(D)}`);
  check((await sessionToken(D, a.id)) === null, "the spent invite stayed in sessionStorage");
  // A token the server does not know: dropped, and the page watches, saying why.
  await D.goto(`${base}/t/${a.id}#token=${"0".repeat(32)}`);
  await D.waitForURL(`${base}/t/${a.id}`);
  await waitText(D, "table-title", (t) => t.includes("(spectator)"), 10_000, "(watching after a bad token)");
  check(/you are watching/.test((await errorText(D)) ?? ""), `no word about the bad token: ${await errorText(D)}`);
  check((await sessionToken(D, a.id)) === null, "the bad token stayed in sessionStorage");
  await ctxA.close();
  await ctxB.close();
  await ctxD.close();
}

// ---- scenario: practice seed, hand your own seat to a bot and take it back --------

async function handoverScenario(browser, base, problems) {
  const ctxA = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const A = await ctxA.newPage();
  watchPage(A, "A", problems);
  await A.goto(base + "/");
  await openForm(A);
  await A.selectOption(tid("game-select"), "rummikub");
  await A.selectOption(tid("rk-players-select"), "2");
  await A.check(tid("no-clock"));
  await A.fill(tid("your-name"), "Ana");
  await A.selectOption(tid("seat-kind-1"), "open");
  check(await A.locator(tid("seed")).isDisabled(), "the seed may be chosen with an open seat");
  await A.selectOption(tid("seat-kind-1"), "human");
  check(await A.locator(tid("seed")).isDisabled(), "the seed may be chosen with an invited seat");
  await A.selectOption(tid("seat-kind-1"), "bot");
  await A.selectOption(tid("seat-bot-1"), "random");
  check(await A.locator(tid("seed")).isEnabled(), "the seed may not be chosen against a bot");
  await A.fill(tid("seed"), "42");
  // The table page's bot list (/api/meta) arrives after its first view, as it may on a
  // loaded server: the hand-over control must still appear.
  let metaDelayed = 0;
  await A.route("**/api/meta", async (route) => {
    metaDelayed++;
    await new Promise((r) => setTimeout(r, 2_000));
    await route.continue();
  });
  const a = await submitCreate(A);
  const label = await waitText(A, "practice-seed", () => true, 10_000, "(practice seed)");
  check(label === "practice: seed 42", `the practice label says ${JSON.stringify(label)}`);
  await waitAttr(A, "turn-status", "data-status", (x) => x === "playing", 10_000, "(playing against a bot)");
  await A.locator(tid("commitment")).waitFor();
  const commitment = await A.locator(tid("commitment")).getAttribute("data-value");
  check(/^[0-9a-f]{64}$/.test(commitment ?? ""), `the commitment is ${commitment}`);
  check((await A.locator(tid("commitment")).getAttribute("title")).includes(commitment), "the commitment's tooltip lacks the full value");
  await shot(A, "practice-seed.png");
  // Everyone sees it, a spectator too; a spectator may hand nothing to a bot.
  const ctxS = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const S = await ctxS.newPage();
  watchPage(S, "spectator", problems);
  await S.goto(`${base}/t/${a.id}`);
  check((await waitText(S, "practice-seed", () => true)) === "practice: seed 42", "the spectator does not see the practice seed");
  check((await S.locator('[data-testid^="hand-bot-"]').count()) === 0, "a spectator is offered hand to bot");

  // Your own seat to a bot: it plays for you; then take it back.
  check((await A.locator(tid("hand-bot-1")).count()) === 0, "a bot's seat is offered to a bot");
  await A.locator(tid("hand-bot-0")).waitFor();
  check(metaDelayed > 0, "the table page did not ask for the bot list");
  await A.unroute("**/api/meta");
  await A.selectOption(tid("hand-bot-choice-0"), "random");
  const before = Number(await A.locator(tid("turn-status")).getAttribute("data-version"));
  await handToBot(A, 0);
  await waitAttr(A, "seat-0", "data-kind", (k) => k === "bot", 10_000, "(my seat is a bot's)");
  await A.locator(tid("take-back")).waitFor({ timeout: 5_000 });
  await waitAttr(A, "turn-status", "data-version", (x) => Number(x) >= before + 2, 20_000, "(the bot plays my seat)");
  await shot(A, "handover-bot.png");
  await A.click(tid("take-back"));
  await waitAttr(A, "seat-0", "data-kind", (k) => k === "human", 10_000, async () => `(my seat back; error: ${await errorText(A)})`);
  check(await A.locator(tid("take-back-box")).isHidden(), "take back still offered after taking the seat back");
  await A.locator(tid("hand-bot-0")).waitFor({ timeout: 5_000 });
  const v = await api(base, "GET", `/api/tables/${a.id}`, undefined, a.token);
  check(v.you === 0 && v.seats[0].kind === "human", `after taking back: you ${v.you}, kind ${v.seats[0].kind}`);
  log(`handed my seat to a bot at version ${before} and took it back at ${v.version}`);
  await ctxA.close();
  await ctxS.close();
}

// ---- issue 21: languages, rules, accessibility, not found ---------------------------

const AXE = path.join(repo, "web/node_modules/axe-core/axe.min.js");

/** axe-core in the page: no violation of WCAG 2.x level A or AA. */
async function axeCheck(page, what) {
  check(fs.existsSync(AXE), `${AXE} is missing (npm ci in web/)`);
  // (evaluated through the DevTools protocol: the page's CSP allows no inline script)
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(fs.readFileSync(AXE, "utf8") + "\n;0");
  const result = await page.evaluate(async () =>
    window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] }),
  );
  const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  check(found.length === 0, `axe on ${what}: ${found.join("; ")}`);
  log(`axe: no A/AA violations on ${what}`);
}

/** A practice table made over the API (seed chosen: every other seat a bot). */
async function practiceTable(base, body) {
  const made = await api(base, "POST", "/api/tables", body);
  return { id: made.id, token: made.you?.token ?? null, made };
}

async function openSeat(page, base, id, token) {
  await page.goto(`${base}/t/${id}#token=${token}`);
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
}

async function langScenario(browser, base, problems) {
  // A German browser: the lobby in German, switched to English and remembered.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "de-DE" });
  const page = await ctx.newPage();
  watchPage(page, "de", problems);
  await page.goto(base + "/");
  await openForm(page);
  check((await page.locator(tid("create")).textContent()) === "Tisch anlegen", `a German browser sees ${await page.locator(tid("create")).textContent()}`);
  check((await page.evaluate(() => document.documentElement.lang)) === "de", "the page's lang is not de");
  const variants = await page.locator(`${tid("variant-select")} option`).allTextContents();
  check(variants.some((v) => v.startsWith("Ruinas: zuerst gemeinsam")), `the variants are not in words: ${variants.join(" | ")}`);
  check(!variants.some((v) => /\(R\d+\)/.test(v)), `a variant names a ruling code: ${variants.join(" | ")}`);
  // The list of open tables in words, in German.
  const open = await practiceTable(base, { game: "rumis", rumis: { scenario: "tambo", players: 2, variant: "ruinas" }, seats: [{ kind: "human", name: "Zed" }, { kind: "open" }] });
  await page.click(tid("refresh-tables"));
  const line = await waitText(page, `open-table-${open.id}`, (t) => t.includes("Spieler"), 10_000, "(the open table in German)");
  check(/Tambo, 2 Spieler, Ruinas: zuerst gemeinsam/.test(line), `the lobby line says ${line}`);
  check(/freier Platz \(frei seit (weniger als einer Minute|\d+ Min\.)\)/.test(line), `the lobby line does not say since when the seat is open: ${line}`);
  // The line is built from the table's settings, not from the English detail.
  const rk = await practiceTable(base, { game: "rummikub", rummikub: { rules: "old", rounds: 2 }, seats: [{ kind: "human", name: "Zed" }, { kind: "open" }] });
  await page.click(tid("refresh-tables"));
  const rkLine = await waitText(page, `open-table-${rk.id}`, (t) => t.includes("Spieler"), 10_000, "(the open Rummikub table in German)");
  check(/2 Spieler, Runden: 2/.test(rkLine) && !/rules|round\(s\)/.test(rkLine), `the Rummikub lobby line says ${rkLine}`);
  const bots = await page.locator(`${tid("seat-bot-1")} option`).allTextContents();
  check(bots.some((b) => b.startsWith("Einsteiger")) && bots.some((b) => b.startsWith("Experte")), `bot levels are not named: ${bots.join(" | ")}`);
  const botTitle = await page.locator(tid("seat-bot-1")).getAttribute("title");
  check(/greedy|mcts|random/.test(botTitle ?? ""), `no engine name in the bot's tooltip: ${botTitle}`);
  await shot(page, "lobby-de.png");
  await axeCheck(page, "the lobby (de)");
  await page.click(tid("lang-en"));
  await page.waitForLoadState("load");
  await waitText(page, "create", (t) => t === "Create table", 10_000, "(English after the switch)");
  await page.reload();
  await waitText(page, "create", (t) => t === "Create table", 10_000, "(English remembered after a reload)");
  await shot(page, "lobby-en.png");
  await axeCheck(page, "the lobby (en)");
  await page.click(tid("lang-de"));
  await waitText(page, "create", (t) => t === "Tisch anlegen", 10_000, "(back to German)");

  // The rules pages, in both languages, with an anchor per rule.
  for (const game of ["rumis", "rummikub"]) {
    for (const lang of ["de", "en"]) {
      await page.evaluate((l) => localStorage.setItem("rumi.lang", l), lang);
      await page.goto(`${base}/rules/${game}?lang=${lang}#${game === "rumis" ? "R7" : "K4"}`);
      await page.locator(tid(`rules-${game}`)).waitFor({ timeout: 10_000 });
      const ids = await page.locator("section.rule").evaluateAll((els) => els.map((e) => e.id));
      const want = game === "rumis" ? Array.from({ length: 16 }, (_, i) => `R${i + 1}`) : Array.from({ length: 10 }, (_, i) => `K${i + 1}`);
      const missing = want.filter((r) => !ids.includes(r));
      check(missing.length === 0, `the ${game} rules lack ${missing.join(", ")}`);
      const h1 = await page.locator("h1").first().textContent();
      check(lang === "de" ? h1.includes("die Regeln") : h1.includes("the rules"), `the ${game} rules in ${lang} are titled ${h1}`);
      if (game === "rumis") await page.locator(tid("scenario-table")).waitFor();
      await shot(page, `rules-${game}-${lang}.png`);
    }
    await axeCheck(page, `the ${game} rules`);
  }

  // A refusal in German with its rule link: a typed Rumis move that breaks R7.
  await page.evaluate(() => localStorage.setItem("rumi.lang", "de"));
  const t1 = await practiceTable(base, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed: 3 });
  await openSeat(page, base, t1.id, t1.token);
  await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(my turn)");
  let v = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
  // First stone anywhere, then wait for the bot; then a stone far from my colour.
  const firstMove = v.rumis.legal.find((m) => m.stone !== "D2");
  await page.fill(tid("move-input"), notation(firstMove.stone, firstMove.cells));
  await page.click(tid("move-submit"));
  await waitAttr(page, "turn-status", "data-version", (x) => Number(x) >= 2, 20_000, "(the bot answered)");
  await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(my turn again)");
  v = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
  const legal = new Set(v.rumis.legal.filter((p) => p.stone === "D2").map((p) => cellsKey(p.cells)));
  const hm = heights(v);
  let illegal = null;
  for (let y = 0; y < 5 && !illegal; y++)
    for (let x = 0; x < 3 && !illegal; x++) {
      const cells = drop([[0, 0, 0], [1, 0, 0]], x, y, hm);
      if (!legal.has(cellsKey(cells))) illegal = cells;
    }
  check(illegal, "no illegal domino placement found");
  await page.fill(tid("move-input"), notation("D2", illegal));
  await page.click(tid("move-submit"));
  const rule = await waitAttr(page, "error", "data-rule", (r) => !!r, 10_000, async () => `(a rule link; error: ${await errorText(page)})`);
  const said = await page.locator(tid("error-text")).textContent();
  const why = await page.locator(tid("why-link")).textContent();
  const href = await page.locator(tid("why-link")).getAttribute("href");
  check(/^Warum\? R\d+$/.test(why) && href === `/rules/rumis#${rule}`, `the refusal's link says ${why} → ${href}`);
  check(/Stein|Feld|Farbe|Fläche|Hohlraum/.test(said), `the refusal is not in German: ${said}`);
  {
    // Said from the server's `why` (the code and rule the check endpoint gives too).
    const whyCode = await page.locator(tid("error")).getAttribute("data-why");
    const checked = await api(base, "POST", `/api/tables/${t1.id}/check`, { stone: "D2", cells: illegal }, t1.token);
    check(!checked.legal && checked.why?.code === whyCode && checked.why?.rule === rule, `the refusal says ${whyCode} (${rule}), the check endpoint ${JSON.stringify(checked.why)}`);
    check(!/[a-z]+'s |is outside|would leave/.test(said), `the refusal is the engine's English: ${said}`);
  }
  log(`refusal in German: "${said}" — ${why} (${href})`);
  await shot(page, "rumis-refusal-de.png");
  await axeCheck(page, "the Rumis table (de)");
  // The keyboard moves the ghost: pick a stone, focus the build, an arrow key brings the
  // ghost to the first marked column (snapped to a legal placement), Enter places it.
  {
    const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [e.dataset.testid.replace("tray-stone-", ""), Number(e.dataset.legal)]));
    const stone = stones.find(([, n]) => n > 0)[0];
    const before = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    await page.click(tid(`tray-stone-${stone}`));
    await page.focus(tid("rumis-canvas"));
    await page.keyboard.press("ArrowDown");
    await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, "(a green ghost by the keyboard)");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
    const move = await page.locator(tid("ghost-status")).getAttribute("data-move");
    await page.keyboard.press("Enter");
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > before, 10_000, async () => `(placed by Enter; error: ${await errorText(page)})`);
    log(`keyboard ghost: ${move} placed with the arrow keys and Enter`);
  }
  // Suggested moves: the strongest bot's best three with win chances; the first shown and placed.
  {
    await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(my turn for a hint)");
    const before = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    await page.click(tid("rumis-hint"));
    await page.locator(tid("rumis-hint-2")).waitFor({ timeout: 30_000 });
    check((await page.locator(tid("rumis-hints")).getAttribute("data-source")) === "server", "the hints are not the server's");
    const wins = [];
    for (let i = 0; i < 3; i++) wins.push(await page.locator(tid(`rumis-hint-win-${i}`)).textContent());
    check(wins.every((w) => /^\d{1,3} % Gewinnchance$/.test(w)), `the hints' win chances say ${wins.join(" | ")}`);
    const hint = await page.locator(tid("rumis-hint-0")).textContent();
    log(`hints from the server: ${wins.join(", ")}`);
    await shot(page, "rumis-hints-de.png");
    await page.click(tid("rumis-hint-0"));
    const shown = await waitAttr(page, "ghost-status", "data-move", (m) => !!m, 5_000, "(the hint's ghost)");
    check(shown === hint, `the hint ${hint} shows the ghost ${shown}`);
    await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, "(the hint is legal)");
    await page.click(tid("place-button"));
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > before, 10_000, async () => `(the hint placed; error: ${await errorText(page)})`);
    log(`suggested move ${hint} shown and placed`);
  }

  // "Your tables": back in the lobby, the tab finds its seat and takes it up. Seats and
  // their tokens stay in this tab (sessionStorage): none in localStorage, none in a new tab.
  {
    const tableUrl = page.url();
    await page.goto(base + "/");
    await page.locator(tid(`my-table-${t1.id}`)).waitFor({ timeout: 10_000 });
    await shot(page, "lobby-your-tables-de.png");
    const kept = await page.evaluate(() => JSON.stringify(localStorage));
    // A seat token is 32 hex digits (a kept commitment is 64: public, and allowed).
    check(!/(^|[^0-9a-f])[0-9a-f]{32}([^0-9a-f]|$)/.test(kept), `localStorage holds a seat token: ${kept}`);
    await page.click(tid(`my-table-link-${t1.id}`));
    await waitText(page, "table-title", (t) => / — Platz 1$/.test(t), 10_000, "(back on my seat from the lobby)");
    check(page.url() === tableUrl, `back from the lobby on ${page.url()}, not ${tableUrl}`);
    const tab = await ctx.newPage();
    watchPage(tab, "new tab", problems);
    await tab.goto(base + "/");
    await tab.locator(tid("open-tables")).waitFor({ timeout: 10_000 });
    check((await tab.locator(tid(`my-table-${t1.id}`)).count()) === 0, "a new tab lists another tab's seat");
    log("your tables: the tab took up its seat from the lobby; a new tab holds none");
    await tab.close();
  }
  // Not found: an unknown path, and an unknown table that stops reconnecting.
  let sockets = 0;
  page.on("websocket", () => sockets++);
  await page.goto(`${base}/no/such/page`);
  await page.locator(tid("not-found")).waitFor({ timeout: 5_000 });
  check((await page.locator(tid("back-to-lobby")).getAttribute("href")) === "/", "the not-found page does not link to the lobby");
  await shot(page, "not-found-de.png");
  await page.evaluate(() => localStorage.setItem("rumi.lang", "en"));
  sockets = 0;
  await page.goto(`${base}/t/t000000000000`);
  await page.locator(tid("not-found")).waitFor({ timeout: 10_000 });
  check((await page.locator(tid("not-found")).getAttribute("data-what")) === "table", "an unknown table is not called a table");
  await page.waitForTimeout(2500);
  check(sockets <= 1, `the page opened ${sockets} WebSockets for a table that does not exist`);
  await shot(page, "not-found-table-en.png");
  await axeCheck(page, "the not-found page");
  await ctx.close();
}

// ---- issue 21: a whole Rumis game on a phone, with the finder's marks and taps only ----

async function phoneScenario(browser, base, problems) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "en-US" });
  const page = await ctx.newPage();
  watchPage(page, "phone", problems);
  const t1 = await practiceTable(base, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 11 });
  await openSeat(page, base, t1.id, t1.token);
  await page.locator(tid("rumis-canvas")).waitFor();
  await page.locator(tid("top-view")).tap();
  // Buttons are at least 44 px on a touch screen.
  const small = await page.evaluate(() =>
    [...document.querySelectorAll("button")].filter((b) => b.offsetParent && (b.getBoundingClientRect().height < 43.5 || b.getBoundingClientRect().width < 43.5)).map((b) => b.dataset.testid || b.textContent),
  );
  check(small.length === 0, `buttons under 44 px on a phone: ${small.join(", ")}`);
  let moves = 0;
  let secondTaps = 0;
  let placeButtons = 0;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if ((await page.locator(tid("turn-status")).getAttribute("data-over")) === "true") break;
    if ((await page.locator(tid("turn-status")).getAttribute("data-my-turn")) !== "true") {
      await page.waitForTimeout(60);
      continue;
    }
    const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    // The stone that fits in the most places, read from the tray.
    const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [e.dataset.testid.replace("tray-stone-", ""), Number(e.dataset.legal)]));
    const fitting = stones.filter(([, n]) => n > 0).sort((a, b) => b[0].localeCompare(a[0]));
    if (fitting.length === 0) {
      await page.waitForTimeout(60);
      continue;
    }
    const stone = fitting[0][0];
    await page.locator(tid(`tray-stone-${stone}`)).tap();
    check((await page.locator(tid("orientation")).getAttribute("data-fits")) === "true", `the first orientation offered for ${stone} fits nowhere`);
    const marks = await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`);
    const [mx, my] = marks.split(";")[0].split(",").map(Number);
    await page.locator(tid("rumis-canvas")).scrollIntoViewIfNeeded();
    const p = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [mx, my]);
    await page.touchscreen.tap(p.x, p.y);
    await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, `(a green ghost after the first tap on ${mx},${my})`);
    check(Number(await page.locator(tid("turn-status")).getAttribute("data-version")) === version, "the first tap placed the stone");
    if (moves === 0) await shot(page, "rumis-phone-ghost.png");
    if (moves % 2 === 0) {
      // (the screenshot may have scrolled the page: the point again)
      await page.locator(tid("rumis-canvas")).scrollIntoViewIfNeeded();
      const q = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [mx, my]);
      await page.touchscreen.tap(q.x, q.y);
      secondTaps++;
    } else {
      await page.locator(tid("place-button")).tap();
      placeButtons++;
    }
    moves++;
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(move ${moves} placed; error: ${await errorText(page)})`);
  }
  const v = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
  check(v.over, `the phone game did not end within 90 s (${moves} moves)`);
  check(secondTaps > 0 && placeButtons > 0, `placed by second tap ${secondTaps}, by Place ${placeButtons}`);
  // The move list names colour and player; the last move of each colour is marked.
  const first = await page.locator(tid("history-0")).textContent();
  check(/red|blue|green|yellow/.test(first) && /Ana|greedy|bot/i.test(first), `the move list says ${first}`);
  check((await page.locator(`${tid("history")} li.last-move`).count()) >= 2, "the last moves are not marked in the list");
  check(/−11|-11/.test(await page.locator(tid("score-note")).textContent()), "the score line does not explain −11");
  await shot(page, "rumis-phone-over.png");
  log(`phone: a whole Rumis game, ${moves} moves by taps on the finder's marks (${secondTaps} second taps, ${placeButtons} Place): ${v.result?.text}`);
  await ctx.close();
}

// ---- issue 21: cold load of a Rumis table: time to the first drawn board -------------

async function coldLoad(browser, base, id) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const t0 = Date.now();
  await page.goto(`${base}/t/${id}`);
  const ms = await waitAttr(page, "rumis-canvas", "data-first-frame-ms", (x) => !!x, 20_000, "(first frame)");
  log(`cold load of a Rumis table: first board drawn ${ms} ms after navigation start (${Date.now() - t0} ms wall clock)`);
  // A spectator gets no stones and no move box.
  check((await page.locator(tid("move-form")).count()) === 0 && (await page.locator(tid("tray")).count()) === 0, "a spectator is offered a move box or a tray");
  await axeCheck(page, "a Rumis table as a spectator");
  await ctx.close();
  return Number(ms);
}

// ---- issue 21: Rummikub by keyboard; the bot's turn and your drawn tile highlighted ----

async function keyboardScenario(browser, base, problems) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US", hasTouch: true });
  const page = await ctx.newPage();
  watchPage(page, "keyboard", problems);
  let table = null;
  let meld = null;
  for (let seed = 1; seed <= 80 && !table; seed++) {
    const t1 = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed });
    const v = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
    // I must start on an empty table. `to_move === 0` alone races the bot: when the bot
    // starts, it moves after the server's bot delay, and a view read after that says
    // `to_move: 0` with the bot's meld on the table (seed 1: [r1 b1 o1] [r10 b10 k10]),
    // so the new set below would not be set-0. Version 0 is a table nobody has moved on.
    if (v.to_move !== 0 || v.version !== 0 || v.rummikub.table.length !== 0) continue;
    const m = meldFrom([...v.rummikub.rack].sort());
    if (m && m.length <= 3) {
      table = t1;
      meld = m;
    }
  }
  check(table, "no practice deal in 80 where I start and can meld 30");
  await openSeat(page, base, table.id, table.token);
  await waitAttr(page, "rack", "data-count", (c) => c === "14");
  await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true");
  // Touch: drag a rack tile with a finger onto the new-set zone, then reset.
  {
    const cdp = await page.context().newCDPSession(page);
    const centre = async (sel) => {
      const b = await page.locator(sel).first().boundingBox();
      return { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
    };
    const tile = meld[0][0];
    const from = await centre(`${tid("rack")} [data-tile="${tile}"]`);
    const to = await centre(tid("new-set"));
    const touch = (type, p) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [] });
    await touch("touchStart", from);
    for (let i = 1; i <= 8; i++) await touch("touchMove", { x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8 });
    await touch("touchEnd", null);
    await waitAttr(page, "set-0", "data-tiles", (t) => t === tile, 5_000, `(${tile} dragged by touch into a new set)`);
    check((await page.locator(`${tid("rack")} [data-tile]`).count()) === 13, "the touch-dragged tile did not leave the rack");
    log(`touch: dragged ${tile} from the rack into a new set`);
    await page.click(tid("reset-turn"));
    await waitAttr(page, "rack", "data-count", (c) => c === "14");
  }
  log(`keyboard: melding ${meld.map((s) => `[${s.join(" ")}]`).join(" ")}`);
  await page.locator(tid("home")).focus();
  /** Tab until the focused element matches; returns the number of presses. */
  const tabTo = async (test, what) => {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(test)) return i + 1;
    }
    throw new Failure(`Tab never reached ${what}`);
  };
  // The meld, tile by tile: Tab to a rack tile, Enter picks it up, ↓ makes a new set
  // (first tile) or ↑ joins the last set, Escape puts it down.
  for (const [i, set] of meld.entries()) {
    for (const [k, tile] of set.entries()) {
      await page.locator(tid("home")).focus();
      await tabTo(new Function(`const e = document.activeElement; return !!e && e.dataset.tile === ${JSON.stringify(tile)} && !!e.closest('[data-testid="rack"]');`), `rack tile ${tile}`);
      await page.keyboard.press("Enter");
      await page.keyboard.press(k === 0 ? "ArrowDown" : "ArrowUp");
      await page.keyboard.press("Escape");
      if (k === 0 && i === 0) {
        // A one-tile set: its problem is spelled out in full.
        const problem = await page.locator(tid("set-problem-0")).textContent();
        const clipped = await page.locator(tid("set-problem-0")).evaluate((e) => e.scrollWidth > e.clientWidth + 1);
        check(/has only 1 tile; a set needs at least 3/.test(problem) && !clipped, `the problem text is ${JSON.stringify(problem)} (clipped: ${clipped})`);
      }
    }
    check((await page.locator(tid(`set-${i}`)).getAttribute("data-valid")) === "true", `set ${i} is not valid after the keyboard moves`);
  }
  const value = Number(await page.locator(tid("meld-value")).getAttribute("data-value"));
  const want = meld.flat().reduce((a, t) => a + Number(t.slice(1)), 0);
  check(value === want && value >= 30, `the meld value shows ${value}, the sets are worth ${want}`);
  await shot(page, "rummikub-keyboard-meld.png");
  await axeCheck(page, "the Rummikub table");
  const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
  await page.locator(tid("home")).focus();
  await tabTo(() => document.activeElement?.dataset.testid === "end-turn", "End turn");
  await page.keyboard.press("Enter");
  await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(keyboard meld accepted; error: ${await errorText(page)})`);
  log("a Rummikub turn made with the keyboard alone");

  // Until the bot lays tiles: draw (your drawn tile is marked), then look at its turn.
  let sawBot = false;
  let sawDrawn = false;
  for (let turn = 0; turn < 30 && !(sawBot && sawDrawn); turn++) {
    await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(my turn)");
    const raw = await page.locator(tid("last")).getAttribute("data-raw");
    if (!sawBot && / (played|melded) /.test(raw)) {
      const changed = await page.locator(`${tid("table")} [data-changed="true"]`).count();
      const laid = await page.locator(`${tid("table")} .tile.laid`).count();
      check(changed > 0 && laid > 0, `the bot's turn (${raw}) shows ${changed} changed sets and ${laid} laid tiles`);
      // Said from `last_event` with the bot's seat name as the seat list shows it (the
      // server's default "greedy bot" is said by its own name and level, "Inti, casual bot").
      const event = await page.locator(tid("last")).getAttribute("data-event");
      const said = await page.locator(tid("last")).textContent();
      const botName = await page.locator(`${tid("seat-1")} .name`).textContent();
      check(/^Inti, (beginner|casual|intermediate|advanced|expert) bot$/.test(botName), `the bot's seat is called ${botName}`);
      // (its tiles drawn as tiles, issue #46: the same tiles as the server's text names)
      const saidTiles = await page.locator(tid("last")).getAttribute("data-tiles");
      const shownTiles = await page.locator(`${tid("last")} .tile`).evaluateAll((els) => els.map((e) => e.dataset.code).join(" "));
      check(["played", "melded"].includes(event) && said.startsWith(`${botName} `) && saidTiles === raw.split(/ (?:played|melded) /)[1] && shownTiles === saidTiles, `the bot's turn (${event}) is said as "${said}" with the tiles ${shownTiles} (seat name ${botName})`);
      log(`the bot's turn highlighted: ${changed} sets, ${laid} tiles (${raw})`);
      await shot(page, "rummikub-bot-turn.png");
      sawBot = true;
    }
    const rack = Number(await page.locator(tid("rack")).getAttribute("data-count"));
    await page.click(tid("draw"));
    await waitAttr(page, "rack", "data-count", (c) => Number(c) === rack + 1, 10_000, "(drew)");
    const drawn = await page.locator(tid("rack")).getAttribute("data-drawn");
    check(drawn && (await page.locator(`${tid("rack")} .tile.drawn`).count()) === 1, `the drawn tile is not marked (${drawn})`);
    if (!sawDrawn) await shot(page, "rummikub-drawn.png");
    sawDrawn = true;
  }
  check(sawBot && sawDrawn, `in 30 turns: the bot laid tiles ${sawBot}, I drew ${sawDrawn}`);
  await ctx.close();
}

// ---- issue 21: rounds, old rules, the clock, the Rummikub replay ------------------------

async function roundsScenario(browser, base, problems) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "de-DE" });
  const page = await ctx.newPage();
  watchPage(page, "rounds", problems);
  // Three pairs (current rules): a new deal, demanded before the first turn.
  {
    let table = null;
    for (let seed = 1; seed <= 400 && !table; seed++) {
      const t0 = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed });
      const v0 = await api(base, "GET", `/api/tables/${t0.id}`, undefined, t0.token);
      // version 0: I start and nobody has moved (a bot that starts may already have played; see keyboardScenario)
      if (v0.to_move === 0 && v0.version === 0 && v0.rummikub.can_claim_redeal) table = t0;
    }
    check(table, "no practice deal in 400 with three pairs for me, my turn first");
    await openSeat(page, base, table.id, table.token);
    const before = await page.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.dataset.tile).sort().join(" "));
    const label = await page.locator(tid("redeal")).textContent();
    check(label === "Drei Paare: neu verteilen", `the redeal button says ${label}`);
    // The bot may move at once in the new deal and replace the message: record every
    // text the message line shows from now on.
    await page.evaluate((sel) => {
      window.__said = [];
      new MutationObserver(() => {
        const el = document.querySelector(sel);
        if (el) window.__said.push(el.textContent ?? "");
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, tid("last"));
    await page.click(tid("redeal"));
    await page.waitForFunction(() => window.__said.some((t) => /drei Paare/.test(t)), null, { timeout: 10_000 }).catch(() => {
      throw new Failure("the redeal was never said in German");
    });
    const said = await page.evaluate(() => window.__said.find((t) => /drei Paare/.test(t)));
    const after = await page.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => e.dataset.tile).sort().join(" "));
    check(after !== before, "the rack did not change after the new deal");
    log(`redeal: "${said}"`);
  }
  // Old rules, two rounds, 2 s a turn: the clock runs out on me once.
  const t1 = await practiceTable(base, { game: "rummikub", rummikub: { rules: "old", turn_seconds: 2, rounds: 2 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed: 5 });
  await openSeat(page, base, t1.id, t1.token);
  const rules = await page.locator(tid("rules-name")).textContent();
  check(/alte Regeln/.test(rules) && /Reihen über 13/.test(rules), `the old rules are shown as ${rules}`);
  await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(my turn)");
  const rack = Number(await page.locator(tid("rack")).getAttribute("data-count"));
  const penalty = await waitText(page, "last", (t) => /Strafsteine/.test(t), 15_000, "(time-out in German)");
  check(/Zeit überschritten und 3 Strafsteine/.test(penalty), `the time-out says ${penalty}`);
  await waitAttr(page, "rack", "data-count", (c) => Number(c) === rack + 3, 5_000, "(three penalty tiles)");
  log(`time-out: "${penalty}"`);
  // Hand my seat to a bot: it plays both rounds (a bot deals the next round).
  await page.selectOption(tid("hand-bot-choice-0"), "random");
  await handToBot(page, 0);
  await waitText(page, "round", (t) => t.startsWith("Runde 2"), 90_000, "(round 2 dealt)");
  await waitAttr(page, "turn-status", "data-over", (o) => o === "true", 90_000, "(game over)");
  const over = await page.locator(tid("round-over")).textContent();
  check(/Runde 2 vorbei/.test(over), `the round-over box says ${over}`);
  const result = await page.locator(tid("result-text")).textContent();
  check(/gewinnt|gewinnen|Unentschieden/.test(result), `the result is not in German: ${result}`);
  await shot(page, "rummikub-game-over-de.png");
  log(`two rounds under the old rules: ${result}`);
  // The Rummikub replay.
  await page.click(tid("replay-link"));
  await page.locator(tid("replay-step")).waitFor();
  await page.click(tid("replay-next"));
  await page.click(tid("replay-next"));
  check((await page.locator(tid("replay-step")).getAttribute("data-index")) === "2", "the Rummikub replay did not step");
  await page.click(tid("replay-last"));
  const caption = await page.locator(tid("replay-caption")).textContent();
  check(caption.length > 0, "the replay's last step says nothing");
  check((await page.locator(`${tid("table")} .set`).count()) >= 0, "no table in the replay");
  await shot(page, "rummikub-replay-de.png");
  log(`Rummikub replay: ${caption}`);
  await ctx.close();
}

// ---- issue 21: the dismantling game's removal gesture ------------------------------

async function dismantleScenario(browser, base, problems) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await ctx.newPage();
  watchPage(page, "dismantle", problems);
  const t1 = await practiceTable(base, { game: "rumis", rumis: { scenario: "colca", players: 2, variant: "dismantle" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 4 });
  // The build phase over the API (first legal placement), until I am to take a stone off.
  let v = null;
  for (let i = 0; i < 200; i++) {
    v = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
    if (v.over || (v.to_move === 0 && v.rumis.removing)) break;
    if (v.to_move !== 0 || !v.rumis.legal.length) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const m = v.rumis.legal[0];
    await api(base, "POST", `/api/tables/${t1.id}/actions`, { version: v.version, action: { stone: m.stone, cells: m.cells } }, t1.token).catch(() => {});
  }
  check(v && !v.over && v.rumis.removing, "the dismantling phase never came to my turn");
  await openSeat(page, base, t1.id, t1.token);
  await page.click(tid("top-view"));
  await page.locator(tid("remove-note")).waitFor({ timeout: 10_000 });
  // Take a stone off: click one of the marked stones, then Place.
  const marks = await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 10_000, "(removable stones marked)");
  const [mx, my] = marks.split(";")[0].split(",").map(Number);
  let p = null;
  // (the view may still be fitting its canvas: point again until the ghost shows)
  for (let i = 0; i < 10; i++) {
    p = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [mx, my]);
    await page.mouse.move(p.x + 2, p.y + 2);
    await page.mouse.move(p.x, p.y);
    if ((await page.locator(tid("ghost-status")).getAttribute("data-legal")) === "true") break;
    await page.waitForTimeout(200);
  }
  await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, "(the stone to take off shown)");
  await shot(page, "rumis-dismantle-remove.png");
  const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
  await page.click(tid("place-button"));
  await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(taken off; error: ${await errorText(page)})`);
  const after = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
  // R16: the stone taken off is in hand, or, when it fits nowhere outside the red line,
  // set aside at once and my colour is out (the bots play by their own random seed, so
  // which case comes differs from run to run).
  const setAside = !after.rumis.stone_in_hand && after.rumis.colours.some((c) => c.owner === 0 && c.out);
  check(after.rumis.stone_in_hand || setAside, "no stone in hand after taking one off, and none set aside");
  // The stone in hand is selected; place it on a marked column outside the red line.
  if (after.rumis.stone_in_hand && after.to_move === 0 && after.rumis.legal.length) {
    await waitAttr(page, "orientation", "data-stone", (s) => s === after.rumis.stone_in_hand, 5_000, "(the stone in hand selected)");
    const marks2 = await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, "(where it fits)");
    const [x2, y2] = marks2.split(";")[0].split(",").map(Number);
    p = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [x2, y2]);
    await page.mouse.move(p.x, p.y);
    await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, "(green ghost for the rebuilt stone)");
    await page.mouse.click(p.x, p.y);
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > after.version, 10_000, async () => `(rebuilt; error: ${await errorText(page)})`);
    log(`dismantling: took the ${after.rumis.stone_in_hand} off by clicking it and placed it again`);
  } else log(`dismantling: took a stone off by clicking it (it fits nowhere: set aside)`);
  await ctx.close();
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
    // (`last` names the tiles of `last_event` again: each is checked on its own)
    walk({ ...v, rummikub: { ...rk, rack: undefined, table: undefined, last: undefined } });
    const extra = [...seen].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t]) => t);
    seen.clear();
    walk(rk.last);
    extra.push(...[...seen].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t]) => t));
    check(extra.length === 0, `${who} received tiles that are neither in their rack nor on the table: ${extra.join(" ")}`);
    check(!("pool" in rk) && !("racks" in rk), `${who} received the pool or all racks`);
  }
}

// ---- main ---------------------------------------------------------------------

const scenarios = { rumis: rumisGame, rummikub: rummikubTwoPlayers, seats: seatsScenario, waiting: waitingScenario, handover: handoverScenario, lang: langScenario, phone: phoneScenario, keyboard: keyboardScenario, rounds: roundsScenario, dismantle: dismantleScenario, ...newcomerScenarios({ check, log, tid, api, waitAttr, waitText, shot, watchPage, axeCheck, practiceTable, openSeat, dragTile }), ...boardScenarios({ check, log, tid, api, waitAttr, waitText, watchPage, axeCheck, practiceTable, openSeat, meldFrom }), ...lobbyScenarios({ check, log, tid, api, waitAttr, waitText, shot, watchPage, axeCheck, practiceTable, openSeat }) };

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

// What the scenarios share: waiting on the page's data attributes, screenshots, axe, the
// lobby's form, Rumis geometry (as in web/src/rumis/geometry.ts), a 30-point Rummikub
// meld, and the check that a message holds no hidden tile.
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { repo, type Api } from "./fixtures";

/** Where the scenarios' own screenshots go. */
export const SHOTS = path.join(repo, "target/screenshots");
/** Screenshots kept in the docs: refreshed only with RUMI_DOCS_SCREENSHOTS=1, so that a
 * test run leaves the checkout as it was (else they go beside the others in target/). */
export const DOCS_SHOTS = process.env.RUMI_DOCS_SCREENSHOTS ? path.join(repo, "docs/screenshots") : path.join(repo, "target/docs-screenshots");

export const tid = (id: string) => `[data-testid="${id}"]`;

export function log(...args: unknown[]): void {
  console.log(...args);
}

type What = string | (() => Promise<string> | string);

/** Waits until `predicate` holds for the attribute of the first `testid`; its value. */
export async function waitAttr(page: Page, testid: string, attr: string, predicate: (v: string | null) => boolean, timeout = 20_000, what: What = ""): Promise<string | null> {
  let last: string | null = null;
  const ok = await expect
    .poll(
      async () => {
        last = await page.locator(tid(testid)).first().getAttribute(attr, { timeout }).catch(() => null);
        return predicate(last);
      },
      { timeout, intervals: [40] },
    )
    .toBe(true)
    .then(
      () => true,
      () => false,
    );
  if (!ok) {
    const detail = typeof what === "function" ? await what() : what;
    throw new Error(`timed out after ${timeout} ms waiting for ${testid}[${attr}] ${detail} (last value ${JSON.stringify(last)})`);
  }
  return last;
}

/** Waits until `predicate` holds for the text of the first `testid`; the text. */
export async function waitText(page: Page, testid: string, predicate: (t: string) => boolean, timeout = 10_000, what = ""): Promise<string> {
  let last: string | null = null;
  const ok = await expect
    .poll(
      async () => {
        last = await page.locator(tid(testid)).first().textContent({ timeout }).catch(() => null);
        return last !== null && predicate(last);
      },
      { timeout, intervals: [50] },
    )
    .toBe(true)
    .then(
      () => true,
      () => false,
    );
  if (!ok) throw new Error(`timed out after ${timeout} ms waiting for the text of ${testid} ${what} (last ${JSON.stringify(last)})`);
  return last!;
}

/** A full-page screenshot into target/screenshots/. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

/** The message shown to the person (a refusal), or null. */
export async function errorText(page: Page): Promise<string | null> {
  return page
    .evaluate(() => {
      const box = [...document.querySelectorAll<HTMLElement>('[data-testid="error"]')].find((e) => !e.hidden);
      return box ? box.textContent : null;
    })
    .catch(() => null);
}

/** Waits until the page shows a message; the message. */
export async function waitError(page: Page, predicate: (t: string) => boolean = () => true, timeout = 5_000): Promise<string | null> {
  let said: string | null = null;
  await expect
    .poll(async () => {
      said = await errorText(page);
      return said !== null && predicate(said);
    }, { timeout, intervals: [30] })
    .toBe(true)
    .catch(() => {});
  return said;
}

// ---- the lobby's form; tokens in sessionStorage --------------------------------------

type CreateOptions = { game: "rumis" | "rummikub"; name?: string; seats?: string[]; mine?: number; seed?: number; turnSeconds?: number; noClock?: boolean; players?: number; scenario?: string; variant?: string; preset?: string; hints?: boolean };

/** Fills the lobby's form and creates the table; the page lands on the creator's seat
 * (`/t/ID`, no token in the address). The table id and this tab's token. */
export async function createInLobby(page: Page, base: string, o: CreateOptions): Promise<{ id: string; token: string | null }> {
  const { game, name, seats = [], mine, seed, turnSeconds, noClock, players, scenario = "chullpa", variant = "standard", preset = "current", hints } = o;
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
  // (unticked, hints follow the seats: on for at most one person)
  if (hints !== undefined) await page.setChecked(tid("hints"), hints);
  return submitCreate(page);
}

/** The lobby's full form, under "more options". */
export async function openForm(page: Page): Promise<void> {
  await page.locator(tid("more-options-summary")).waitFor();
  if (!(await page.locator(tid("more-options")).evaluate((d) => (d as HTMLDetailsElement).open))) await page.click(tid("more-options-summary"));
  await page.locator(tid("create")).waitFor();
}

/** Hands a seat to a bot: the button, then yes in the dialog that asks first. */
export async function handToBot(page: Page, seat: number): Promise<void> {
  await page.click(tid(`hand-bot-${seat}`));
  await page.click(tid("hand-confirm"));
}

export async function submitCreate(page: Page): Promise<{ id: string; token: string | null }> {
  await page.click(tid("create"));
  await page.waitForURL(/\/t\/[^/?#]+$/, { timeout: 10_000 }).catch(async () => {
    throw new Error(`creating the table did not lead to it (error: ${await errorText(page)})`);
  });
  const id = tableIdOf(page.url());
  return { id, token: await sessionToken(page, id) };
}

export function tableIdOf(url: string): string {
  const m = new URL(url).pathname.match(/^\/t\/([^/]+)$/);
  expect(m, `${url} is not a table's address`).toBeTruthy();
  return decodeURIComponent(m![1]);
}

/** The seat token this tab holds for a table (sessionStorage `rumi-token-<id>`). */
export async function sessionToken(page: Page, id: string): Promise<string | null> {
  return page.evaluate((id) => sessionStorage.getItem(`rumi-token-${id}`), id);
}

/** Every address a page sends to a server (HTTP and WebSocket; a fragment is never sent). */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  const sent = (u: string) => u.replace(/#.*$/, "");
  page.on("request", (r) => urls.push(sent(r.url())));
  page.on("websocket", (ws) => urls.push(sent(ws.url())));
  return urls;
}

/** Joins a table from the lobby's list of open tables; the seat's token and the seats offered. */
export async function joinFromLobby(page: Page, base: string, id: string, name: string): Promise<{ token: string; offered: number[] }> {
  await page.goto(base + "/");
  await page.locator(tid(`join-${id}`)).waitFor({ timeout: 10_000 });
  const offered = await page.locator(tid(`open-table-${id}`)).getAttribute("data-open-seats");
  await page.fill(tid("join-name"), name);
  await page.click(tid(`join-${id}`));
  await page.waitForURL((u) => u.pathname === `/t/${id}` && !u.search && !u.hash, { timeout: 10_000 });
  const token = await sessionToken(page, id);
  expect(token, `joining ${id} left no token in sessionStorage`).toBeTruthy();
  return { token: token!, offered: offered ? offered.split(",").map(Number) : [] };
}

export const isThree = (url: string) => /\/assets\/three-[^/]*\.js/.test(url);

/** A practice table made over the API (seed chosen: every other seat a bot). */
export async function practiceTable(api: Api, body: unknown): Promise<{ id: string; token: string; made: any }> {
  const made = await api("POST", "/api/tables", body);
  return { id: made.id, token: made.you?.token ?? null, made };
}

/** The seat's view (or a spectator's, token null) once `ready` holds for it: polled,
 * since bots and clocks move on the server's time. The deadline only keeps a stuck game
 * from hanging the test. */
export async function viewWhen(api: Api, id: string, token: string | null, ready: (view: any) => boolean, what: string, timeout = 120_000): Promise<any> {
  let view: any = null;
  await expect
    .poll(
      async () => {
        view = await api("GET", `/api/tables/${id}`, undefined, token);
        return ready(view);
      },
      { message: `table ${id}: ${what}`, timeout, intervals: [50] },
    )
    .toBe(true);
  return view;
}

/** Opens a seat by its link and waits for the first view. */
export async function openSeat(page: Page, base: string, id: string, token: string): Promise<void> {
  await page.goto(`${base}/t/${id}#token=${token}`);
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
}

export async function dragTile(page: Page, tileSelector: string, target: string): Promise<void> {
  await page.locator(tileSelector).first().dragTo(page.locator(target).first());
}

// ---- axe ---------------------------------------------------------------------------

const AXE = path.join(repo, "web/node_modules/axe-core/axe.min.js");

/** axe-core in the page: no violation of WCAG 2.x level A or AA. */
export async function axeCheck(page: Page, what: string): Promise<void> {
  expect(fs.existsSync(AXE), `${AXE} is missing (npm ci in web/)`).toBe(true);
  // (evaluated through the DevTools protocol: the page's CSP allows no inline script)
  if (!(await page.evaluate(() => !!(window as any).axe))) await page.evaluate(fs.readFileSync(AXE, "utf8") + "\n;0");
  const result = await page.evaluate(async () =>
    (window as any).axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] }),
  );
  const found = result.violations.map((v: any) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n: any) => n.target.join(" ")).join(" | ")}`);
  expect(found, `axe on ${what}`).toEqual([]);
}

// ---- Rumis geometry (as in web/src/rumis/geometry.ts) --------------------------------

export type Cell = number[];

export function normalise(cells: Cell[]): Cell[] {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  const mz = Math.min(...cells.map((c) => c[2]));
  return cells.map((c) => [c[0] - mx, c[1] - my, c[2] - mz]).sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
}
export const shapeKey = (cells: Cell[]) => normalise(cells).map((c) => c.join(",")).join(";");
export const cellsKey = (cells: Cell[]) => [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).map((c) => c.join(",")).join(";");
export function heights(view: any): number[][] {
  const { width, depth } = view.rumis.scenario;
  const hm = Array.from({ length: depth }, () => new Array(width).fill(0));
  for (const c of view.rumis.cubes) hm[c.y][c.x] = Math.max(hm[c.y][c.x], c.z + 1);
  return hm;
}
export function drop(orientation: Cell[], px: number, py: number, hm: number[][]): Cell[] {
  const cells = normalise(orientation);
  const a = cells[0];
  const tx = px - a[0];
  const ty = py - a[1];
  let z0 = 0;
  for (const [dx, dy, dz] of cells) z0 = Math.max(z0, (hm[ty + dy]?.[tx + dx] ?? 0) - dz);
  return cells.map(([dx, dy, dz]) => [tx + dx, ty + dy, z0 + dz]);
}
export function notation(stone: string, cells: Cell[]): string {
  const sorted = [...cells].sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
  return `${stone} ${sorted.map(([x, y, z]) => `${String.fromCharCode(97 + x)}${y + 1}:${z + 1}`).join(" ")}`;
}

/** The page's screen point of a board column (the client's test hook). */
export async function columnPoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  return page.evaluate(([x, y]) => (window as any).__rumis.columnPoint(x, y), [x, y]);
}

// ---- Rummikub: a 30-point meld from a rack --------------------------------------------

const TILE = /^([rbko])(\d+)$/;

/** The fewest sets from `rack` worth at least `minimum`, or null. */
export function meldFrom(rack: string[], minimum = 30): string[][] | null {
  const tiles = rack.filter((t) => TILE.test(t)).map((t) => {
    const [, c, n] = t.match(TILE)!;
    return { code: t, c, n: Number(n) };
  });
  const sets: string[][] = [];
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
        const run: string[] = [];
        for (let n = s; n <= e; n++) run.push(`${c}${n}`);
        if (run.every((t) => rack.includes(t))) sets.push(run);
      }
  }
  const value = (set: string[]) => set.reduce((a, t) => a + Number(t.slice(1)), 0);
  let best: string[][] | null = null;
  const dfs = (i: number, chosen: string[][], used: Record<string, number>, total: number) => {
    if (total >= minimum && (!best || chosen.length < best.length)) best = chosen.slice();
    if (i >= sets.length || (best && chosen.length >= best.length)) return;
    for (let j = i; j < sets.length; j++) {
      const need: Record<string, number> = {};
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

/** A message a browser received: tiles only in its own rack and on the table. */
export function checkMessage(text: string, seat: number | null, who: string): void {
  let msg: any;
  try {
    msg = JSON.parse(text);
  } catch {
    return;
  }
  const views: any[] = [];
  if (msg?.type === "state") views.push(msg.view);
  else if (msg?.game) views.push(msg);
  for (const v of views) {
    const rk = v.rummikub;
    if (!rk) continue;
    expect(v.you, `${who} received a view for seat ${v.you}`).toBe(seat);
    if (seat === null) expect(rk.rack ?? null, `${who} received a rack`).toBeNull();
    else expect(Array.isArray(rk.rack) && rk.rack.length === rk.rack_sizes[seat], `${who} received a rack of ${rk.rack?.length} tiles, their size is ${rk.rack_sizes[seat]}`).toBe(true);
    // Every tile named anywhere in the message is in the rack or on the table.
    const allowed = new Map<string, number>();
    for (const t of [...(rk.rack ?? []), ...rk.table.flat()]) allowed.set(t, (allowed.get(t) ?? 0) + 1);
    const seen = new Map<string, number>();
    const walk = (x: unknown): void => {
      if (typeof x === "string") {
        for (const w of x.split(/[\s,;:()[\]]+/)) if (/^([rbko](1[0-3]|[1-9])|J)$/.test(w)) seen.set(w, (seen.get(w) ?? 0) + 1);
      } else if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === "object") Object.values(x).forEach(walk);
    };
    // (`last` names the tiles of `last_event` again: each is checked on its own)
    walk({ ...v, rummikub: { ...rk, rack: undefined, table: undefined, last: undefined } });
    const extra = [...seen].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t]) => t);
    seen.clear();
    walk(rk.last);
    extra.push(...[...seen].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t]) => t));
    expect(extra, `${who} received tiles that are neither in their rack nor on the table`).toEqual([]);
    expect("pool" in rk || "racks" in rk, `${who} received the pool or all racks`).toBe(false);
  }
}

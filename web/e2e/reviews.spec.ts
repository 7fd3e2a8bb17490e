// Reviews of finished games on the replay page (docs/reviews.md):
// - rummikub: a finished game's review shows its progress, then the players' summary,
//   a chart per player and the turn list; a turn opens the played and the best table
//   side by side, drawn as tiles, and shows the replay before the turn.
// - rumis: the win-chance chart of every player; a click on a point jumps the replay
//   to that move and shows the better move as a ghost on the board; in German, and on
//   a phone without sideways scrolling.
// - end panel: a player's finished table offers "Review this game".
// A server of this spec's own: a small search budget, so that a Rumis review takes
// seconds (the public default is the strongest bot's).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect, bin, repo, apiOf, type Api } from "./fixtures";
import { axeCheck, log, shot, tid, waitAttr } from "./helpers";

let child: ChildProcess | null = null;
let url = "";
let dir = "";

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rumi-e2e-reviews-"));
  const args = ["serve", "--addr", "127.0.0.1:0", "--db", `sqlite://${path.join(dir, "e2e.db")}`, "--bot-delay-ms", "0", "--tables-per-minute-per-address", "0", "--max-open-tables-per-address", "0", "--reviews-per-minute-per-address", "0", "--review-playouts", "300"];
  if (process.env.RUMI_WEB_DIR) args.push("--web-dir", path.resolve(process.env.RUMI_WEB_DIR));
  const started = spawn(bin, args, { cwd: repo, stdio: ["ignore", "pipe", "ignore"] });
  child = started;
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the server printed no listening line")), 30_000);
    started.stdout!.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ""));
      }
    });
  });
});

test.afterAll(async () => {
  child?.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const api: Api = apiOf(() => url);

/** A bots-only table, played to its end. */
async function finished(body: unknown): Promise<string> {
  const made = await api("POST", "/api/tables", body);
  await expect.poll(async () => (await api("GET", `/api/tables/${made.id}`)).over, { message: "the bots' game ends", timeout: 120_000, intervals: [200] }).toBe(true);
  return made.id;
}

async function stepShown(page: import("@playwright/test").Page): Promise<number> {
  return Number(await page.locator(tid("replay-step")).getAttribute("data-index"));
}

test("rummikub: the review shows the summary, a chart per player and the turns side by side", async ({ page }) => {
  const id = await finished({ game: "rummikub", rummikub: { rules: "current", turn_seconds: null, rounds: 1 }, seats: [{ kind: "bot", bot: "greedy" }, { kind: "bot", bot: "random" }], seed: 21 });
  await page.goto(`${url}/replay/${id}`);
  // Offered, not started, until asked for.
  await page.locator(tid("review-start")).click();
  await waitAttr(page, "review-section", "data-status", (s) => s === "ready", 120_000, "(the review is ready)");
  const review = await api("GET", `/api/tables/${id}/review`);
  await expect(page.locator(`${tid("review-summary")} tbody tr`), "a summary line per player").toHaveCount(2);
  const scroller = page.locator(`${tid("review-section")} .table-scroll`).first();
  await expect(scroller, "the players' table scrolls by keyboard too").toHaveAttribute("tabindex", "0");
  await expect(scroller).toHaveAttribute("aria-label", "The players");
  for (const p of review.players) {
    await expect(page.locator(`${tid(`review-player-${p.seat}`)} td.num`).first(), `player ${p.seat}: tiles laid of possible`).toHaveAttribute("data-possible", String(p.rummikub.tiles_possible));
    await expect(page.locator(tid(`review-chart-${p.seat}`)), `player ${p.seat}'s chart`).toBeVisible();
  }
  await expect(page.locator(`${tid("review-turns")} > li > details`), "every turn listed").toHaveCount(review.turns.length);
  // A turn where a better play was possible, else the first: opened, both tables side by side.
  const at = Math.max(0, review.turns.findIndex((t: any) => t.rummikub.tiles_missed > 0 || t.rummikub.drew_with_play));
  const turn = review.turns[at];
  await page.locator(`${tid(`review-turn-${at}`)} > summary`).click();
  const sides = page.locator(tid(`review-sides-${at}`));
  await expect(sides).toBeVisible();
  const played = page.locator(`${tid(`review-played-${at}-table`)} .tile`);
  await expect(played, "the played table drawn as tiles").toHaveCount(turn.rummikub.played.table.flat().length);
  if (turn.rummikub.best_tiles) {
    await expect(page.locator(`${tid(`review-best-${at}-table`)} .tile`), "the best table drawn as tiles").toHaveCount(turn.rummikub.best_tiles.table.flat().length);
    await expect(page.locator(`${tid(`review-best-${at}-table`)} .tile.laid`), "the best play's tiles marked").toHaveCount(turn.rummikub.best_tiles.placed.length);
  }
  // Side by side on a desktop.
  const [a, b] = [await page.locator(tid(`review-played-${at}`)).boundingBox(), await page.locator(tid(`review-best-${at}`)).boundingBox()];
  expect(a && b && Math.abs(a.y - b.y) < 4 && b.x > a.x, "the played and the best table side by side").toBe(true);
  expect(await stepShown(page), "the replay shows the position before the turn").toBe(Number(turn.version) - 1);
  await axeCheck(page, "a Rummikub review");
  await shot(page, "review-rummikub.png");
  log(`rummikub review: ${review.turns.length} turns; turn ${at + 1} opened side by side`);
});

test("rumis: the win-chance chart; a point jumps there and shows the better move as a ghost", async ({ page, pageDe, phone }) => {
  const id = await finished({ game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "bot", bot: "greedy" }, { kind: "bot", bot: "random" }], seed: 22 });
  // As the end panel's link opens it: started at once.
  await page.goto(`${url}/replay/${id}?review=1`);
  await waitAttr(page, "review-section", "data-status", (s) => s === "ready", 120_000, "(the review is ready)");
  const review = await api("GET", `/api/tables/${id}/review`);
  await expect(page.locator(tid("review-chart")), "the win-chance chart").toBeVisible();
  await expect(page.locator(`${tid("review-chart")} polyline`), "a line per player").toHaveCount(2);
  await expect(page.locator(tid("review-method")), "the budget and thresholds stated").toContainText("300");
  // A point of a move the bot would have played otherwise (else any searched move).
  const turns = review.turns;
  let n = turns.findIndex((t: any) => t.rumis.best && t.rumis.best.move !== t.rumis.move);
  if (n < 0) n = turns.findIndex((t: any) => t.rumis.best);
  const turn = turns[n];
  // The point of move n is the position after it (the start is point 0).
  await page.locator(tid(`review-chart-point-${n + 1}`)).click();
  await expect(page.locator(tid("review-ghost")), "the better move named").toHaveAttribute("data-move", turn.rumis.best.move);
  expect(await stepShown(page), "the replay jumped to the position before the move").toBe(Number(turn.version) - 1);
  const key = [...turn.rumis.best.cells].sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]).map((c: number[]) => c.join(",")).join(";");
  await expect(page.locator(tid("rumis-viewport")), "the better move as the board's ghost").toHaveAttribute("data-review-ghost", key);
  // The next step clears it.
  await page.click(tid("replay-next"));
  await expect(page.locator(tid("rumis-viewport"))).not.toHaveAttribute("data-review-ghost", key);
  // The move list does the same.
  await page.locator(tid(`review-move-${n}`)).click();
  await expect(page.locator(tid("rumis-viewport"))).toHaveAttribute("data-review-ghost", key);
  await axeCheck(page, "a Rumis review");
  await shot(page, "review-rumis.png");

  // In German.
  await pageDe.goto(`${url}/replay/${id}?review=1`);
  await waitAttr(pageDe, "review-section", "data-status", (s) => s === "ready", 30_000);
  await expect(pageDe.locator("#review-title")).toHaveText("Spielanalyse");
  // On a phone: everything within the screen's width.
  await phone.goto(`${url}/replay/${id}?review=1`);
  await waitAttr(phone, "review-section", "data-status", (s) => s === "ready", 30_000);
  await phone.locator(tid(`review-move-${n}`)).click();
  await expect(phone.locator(tid("review-ghost"))).toHaveAttribute("data-move", turn.rumis.best.move);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "no sideways scrolling on a phone").toBeLessThanOrEqual(1);
  await shot(phone, "review-rumis-phone.png");
  log(`rumis review: ${turns.length} moves; move ${n + 1}'s better move ${turn.rumis.best.move} shown as a ghost`);
});

test("end panel: a player's finished table offers the review", async ({ page }) => {
  const made = await api("POST", "/api/tables", { game: "rummikub", rummikub: { rules: "current", turn_seconds: null, rounds: 1 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 23 });
  await api("POST", `/api/tables/${made.id}/seats/0/bot`, { bot: "greedy" }, made.you.token);
  await expect.poll(async () => (await api("GET", `/api/tables/${made.id}`)).over, { timeout: 120_000, intervals: [200] }).toBe(true);
  await page.goto(`${url}/t/${made.id}#token=${made.you.token}`);
  const link = page.locator(tid("review-link"));
  await expect(link).toBeVisible({ timeout: 20_000 });
  await link.click();
  await waitAttr(page, "review-section", "data-status", (s) => s === "pending" || s === "ready", 30_000, "(the review started)");
});

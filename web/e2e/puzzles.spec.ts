// The Rummikub puzzles (issue #48, point 5), /puzzles:
// - English on the desktop, reached from the lobby's Rummikub card: a wrong table (a
//   rack tile alone in a new set) is refused by the engine with its reason and rule;
//   then the daily puzzle is solved on the board by moving tiles (click a tile, click
//   where it goes; the plan is read from the API's solution, so that the test knows what
//   to build) and "Check": solved; the list marks it, and a reload remembers it; the
//   solution revealed; axe; screenshot docs/screenshots/puzzles-en.png.
// - German on a 390×844 touch phone: an older puzzle from the list, tiles tapped into a
//   set the engine refuses, the solution revealed, nothing wider than the screen;
//   screenshot.
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, PHONE } from "./fixtures";
import { axeCheck, DOCS_SHOTS, log, shot, tid, waitAttr } from "./helpers";

const feedback = (page: Page) => page.locator(tid("puzzle-feedback"));

/** Waits for the board of a puzzle (its id) to be drawn. */
async function boardReady(page: Page, id: string): Promise<void> {
  await expect(page.locator(tid("puzzle-board"))).toHaveAttribute("data-id", id);
  await waitAttr(page, "puzzle-board", "data-ready", (v) => !!v, 20_000, "(the puzzle's board)");
}

/** The id (date) of the puzzle the page shows, once its board is drawn: the test
 * follows the page, whichever day it is and should the day turn during the test. */
async function shownPuzzle(page: Page): Promise<string> {
  await waitAttr(page, "puzzle-board", "data-ready", (v) => !!v, 20_000, "(the puzzle's board)");
  return (await page.locator(tid("puzzle-board")).getAttribute("data-id"))!;
}

/** "Check": the table goes to the server's engine. */
async function check(page: Page, id: string): Promise<void> {
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/puzzles/rummikub/${id}/check`) && r.request().method() === "POST");
  await page.locator(tid("end-turn")).click();
  expect((await answer).status()).toBe(200);
}

/** Click-to-move by the board's tile ids: tile `from`, then the set holding tile
 * `to` (or a new set). */
async function move(page: Page, from: number, to: number | "new"): Promise<void> {
  await page.locator(`[data-testid="puzzle-board"] [data-id="${from}"]`).click();
  const target = to === "new" ? page.locator(tid("new-set")) : page.locator(`[data-testid^="set-"]:has([data-id="${to}"])`);
  // (the set's edge, not one of its tiles: a tile there would take the place before it)
  await target.click({ position: { x: 4, y: 4 } });
}

type Puzzle = { id: string; table: string[][]; rack: string[]; goal: number };

/** The moves that turn the puzzle's table into its solution: the board numbers the
 * table's tiles from 0 in order, then the rack's. Old sets that the solution keeps are
 * left alone; every other set of the solution is built anew from the changed sets'
 * tiles and the rack's. */
function plan(p: Puzzle, solution: string[][]): { build: number[][] } {
  const ids: { code: string; id: number; set: number | null }[] = [];
  let n = 0;
  p.table.forEach((s, i) => s.forEach((code) => ids.push({ code, id: n++, set: i })));
  p.rack.forEach((code) => ids.push({ code, id: n++, set: null }));
  const key = (s: string[]) => [...s].sort().join(" ");
  const kept = new Set<number>();
  const build: string[][] = [];
  for (const s of solution) {
    const old = p.table.findIndex((t, i) => !kept.has(i) && key(t) === key(s));
    if (old >= 0) kept.add(old);
    else build.push(s);
  }
  const free = ids.filter((x) => x.set === null || !kept.has(x.set));
  // A table tile first: every tile of a changed set must find a new place.
  const take = (code: string): number => {
    let i = free.findIndex((x) => x.code === code && x.set !== null);
    if (i < 0) i = free.findIndex((x) => x.code === code);
    if (i < 0) throw new Error(`the solution's ${code} is neither on a changed set nor on the rack`);
    return free.splice(i, 1)[0].id;
  };
  return { build: build.map((s) => s.map(take)) };
}

test("puzzles: the daily puzzle solved in English on the desktop, and a wrong table refused", async ({ page, base, api }) => {
  await page.goto(base + "/");
  await page.locator(tid("card-puzzles")).click();
  await expect(page).toHaveURL(/\/puzzles$/);
  await expect(page.locator("h1")).toHaveText("Rummikub puzzles");
  // Today's puzzle, whichever it is: the test builds its tables from the puzzle's own
  // tiles and the server's solution.
  const p: Puzzle = await api("GET", `/api/puzzles/rummikub/${await shownPuzzle(page)}`);
  await expect(page.locator(tid("puzzle-heading"))).toContainText("Puzzle of the day");
  await expect(page.locator(tid("puzzle-goal"))).toHaveAttribute("data-goal", String(p.goal));
  await expect(page.locator(tid("end-turn"))).toHaveText("Check");
  await expect(page.locator(`${tid("table")} [data-testid^="set-"][data-tiles]`)).toHaveCount(p.table.length);
  await expect(page.locator(tid("rack"))).toHaveAttribute("data-count", String(p.rack.length));

  // A wrong table on any puzzle: one rack tile alone is no set (K3); every other set is
  // the puzzle's own.
  const rackStart = p.table.flat().length;
  await move(page, rackStart, "new");
  await check(page, p.id);
  await expect(feedback(page)).toHaveAttribute("data-state", "refused");
  const said = (await feedback(page).innerText()).replace(/\s+/g, " ");
  expect(said).toContain("Not solved:");
  expect(said).toContain("a set needs at least 3");
  await expect(page.locator(tid("puzzle-why"))).toHaveText("Why? K3");
  log(`refused: ${said}`);

  // The solution, built tile by tile on the board.
  await page.locator(tid("puzzle-reset")).click();
  await boardReady(page, p.id);
  await expect(feedback(page)).toHaveAttribute("data-state", "idle");
  const solution = await api("GET", `/api/puzzles/rummikub/${p.id}/solution`);
  const { build } = plan(p, solution.table);
  for (const set of build) {
    await move(page, set[0], "new");
    for (const id of set.slice(1)) await move(page, id, set[0]);
  }
  await expect(page.locator(`${tid("table")} [data-valid="false"]`)).toHaveCount(0);
  await check(page, p.id);
  await expect(feedback(page)).toHaveAttribute("data-state", "solved");
  await expect(feedback(page)).toContainText(`Solved! Your table lays ${p.goal} tiles.`);
  await expect(page.locator(tid(`puzzle-link-${p.id}`))).toHaveAttribute("data-solved", "true");
  await page.screenshot({ path: path.join(DOCS_SHOTS, "puzzles-en.png"), fullPage: true });
  await axeCheck(page, "the puzzles page solved (en, desktop)");

  // Remembered in this browser over a reload (of the puzzle by its date: the day may
  // turn meanwhile); the solution revealed.
  await page.goto(`${base}/puzzles#${p.id}`);
  await page.reload();
  await boardReady(page, p.id);
  await expect(page.locator(tid("puzzle-solved-before"))).toBeVisible();
  await page.locator(tid("puzzle-show-solution")).click();
  await expect(page.locator(`${tid("puzzle-solution-sets")} .puzzle-set`)).toHaveCount(solution.table.length);
  await expect(page.locator(`${tid("puzzle-solution-sets")} .puzzle-set.changed`)).toHaveCount(build.length);
  await shot(page, "puzzles-solution-en.png");
  log(`the daily puzzle ${p.id} solved through the board (${build.length} sets built)`);
});

test("puzzles: an older puzzle in German on a phone", async ({ open, base, api }) => {
  const phone = await open({ ...PHONE, locale: "de-DE", name: "phone-de" });
  await phone.goto(base + "/puzzles");
  await shownPuzzle(phone);
  await expect(phone.locator("h1")).toHaveText("Rummikub-Rätsel");
  await expect(phone.locator(tid("end-turn"))).toHaveText("Prüfen");

  // Yesterday's puzzle, the second of the page's list (newest first).
  const second = phone.locator(`${tid("puzzle-list")} [data-testid^="puzzle-link-"]`).nth(1);
  const older = ((await second.getAttribute("data-testid", { timeout: 10_000 })) ?? "").replace("puzzle-link-", "");
  await phone.locator(tid(`puzzle-link-${older}`)).click();
  await boardReady(phone, older);
  await expect(phone).toHaveURL(new RegExp(`/puzzles#${older}$`));
  await expect(phone.locator(tid("puzzle-heading"))).toContainText("Rätsel vom");
  const p: Puzzle = await api("GET", `/api/puzzles/rummikub/${older}`);

  // Two rack tiles tapped into a new set, refused on any puzzle (a rack holds at least
  // three tiles; a set of two is none), said in German.
  const rackStart = p.table.flat().length;
  await move(phone, rackStart, "new");
  await move(phone, rackStart + 1, rackStart);
  await check(phone, older);
  await expect(feedback(phone)).toHaveAttribute("data-state", "refused");
  await expect(feedback(phone)).toContainText("Nicht gelöst:");

  await phone.locator(tid("puzzle-show-solution")).click();
  await expect(phone.locator(tid("puzzle-solution"))).toBeVisible();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  expect(width, "nothing wider than the phone").toBeLessThanOrEqual(390);
  await axeCheck(phone, "the puzzles page (de, phone)");
  await shot(phone, "puzzles-de-phone.png");
  log(`the puzzle of ${older} on a phone in German`);
});

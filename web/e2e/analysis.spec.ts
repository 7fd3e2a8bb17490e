// The analysis board (issue #48, point 6):
// - Rummikub on the desktop, reached from the lobby's footer: a table and a rack set up
//   by clicking tiles, the exact solver's best plays (by tiles and by value) shown as
//   tiles with the changed sets marked; a rack with a tile that does not exist refused
//   with its reason.
// - Rumis on a 390×844 phone: a finished game of two bots opened from its replay
//   ("Open in the analysis board"), stepped back, and the strongest bot's best moves at
//   that point listed with their win chances.
import { test, expect, PHONE } from "./fixtures";
import { shot, tid } from "./helpers";

test("Rummikub: a position clicked together gets the solver's best plays; a bad rack is refused", async ({ page, base }) => {
  await page.goto(base + "/");
  await page.locator(tid("footer-analysis")).click();
  await expect(page).toHaveURL(/\/analysis$/);
  const board = page.locator(tid("analysis-rummikub"));
  await expect(board).toBeVisible();
  // A run r1 r2 r3 on the table; r4 and b9 on the rack.
  await board.locator(tid("rk-analysis-new-set")).click();
  const palette = board.locator(tid("rk-palette"));
  for (const code of ["r1", "r2", "r3"]) await palette.locator(`[data-code="${code}"]`).click();
  await expect(board.locator(tid("rk-analysis-table"))).toHaveValue("[r1 r2 r3]");
  await board.locator(tid("rk-analysis-rack-line")).getByRole("button").click();
  for (const code of ["r4", "b9"]) await palette.locator(`[data-code="${code}"]`).click();
  await expect(board.locator(tid("rk-analysis-rack"))).toHaveValue("r4 b9");
  // A tile clicked on the rack goes away again.
  await palette.locator(`[data-code="o5"]`).click();
  await board.locator(tid("rk-analysis-rack-line")).locator(`[data-code="o5"]`).click();
  await expect(board.locator(tid("rk-analysis-rack"))).toHaveValue("r4 b9");

  await board.locator(tid("rk-analysis-solve")).click();
  const byTiles = board.locator(tid("rk-analysis-tiles"));
  await expect(byTiles).toHaveAttribute("data-tiles", "1");
  await expect(byTiles.locator(tid("rk-analysis-tiles-placed")).locator("[data-code]")).toHaveCount(1);
  await expect(byTiles.locator(tid("rk-analysis-tiles-placed")).locator('[data-code="r4"]')).toBeVisible();
  await expect(byTiles.locator(".rk-play-set.changed")).toHaveCount(1);
  await expect(board.locator(tid("rk-analysis-value"))).toHaveAttribute("data-tiles", "1");
  await shot(page, "analysis-rummikub.png");

  // Typed notation works too; a tile that does not exist is refused with its reason.
  await board.locator(tid("rk-analysis-rack")).fill("r4 x9");
  await board.locator(tid("rk-analysis-solve")).click();
  await expect(board.locator(tid("rk-analysis-error"))).toContainText("rack");
  await expect(byTiles).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ ...PHONE });

  test("Rumis: a finished game opened from its replay, stepped back, and the bot's best moves there", async ({ page, base, api }) => {
    const created = await api("POST", "/api/tables", {
      game: "rumis",
      rumis: { scenario: "chullpa", players: 2, variant: "standard" },
      seats: [{ kind: "bot", bot: "random" }, { kind: "bot", bot: "random" }],
    });
    const id: string = created.id;
    await expect.poll(async () => (await api("GET", `/api/tables/${id}`)).over, { timeout: 60_000 }).toBe(true);
    await page.goto(`${base}/replay/${id}`);
    await page.locator("summary").filter({ hasText: /record/i }).click();
    await page.locator(tid("replay-analyse")).click();
    await expect(page).toHaveURL(/\/analysis#rumis$/);
    const board = page.locator(tid("analysis-rumis"));
    await expect(board).toBeVisible();
    const step = board.locator(tid("rumis-analysis-step"));
    await expect(step).toHaveAttribute("data-index", /\d+/);
    const last = Number(await step.getAttribute("data-index"));
    expect(last).toBeGreaterThan(4);
    await board.locator(tid("rumis-analysis-prev")).click();
    await board.locator(tid("rumis-analysis-prev")).click();
    await expect(step).toHaveAttribute("data-index", String(last - 2));
    await board.locator(tid("rumis-analysis-ask")).click();
    const first = board.locator(tid("rumis-analysis-move-0"));
    await expect(first).toBeVisible({ timeout: 20_000 });
    await expect(board.locator(tid("rumis-analysis-win-0"))).toContainText("%");
    await first.click();
    await shot(page, "analysis-rumis-phone.png");
    // The board and the controls fit the phone's width.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});

// The analysis board (issue #48, point 6):
// - Rummikub on the desktop, reached from the lobby's footer: a table and a rack set up
//   by clicking tiles, the exact solver's best plays (by tiles and by value) shown as
//   tiles with the changed sets marked; a rack with a tile that does not exist refused
//   with its reason.
// - Rumis on a 390×844 phone: a finished game of two bots opened from its replay
//   ("Open in the analysis board"), stepped back, and the strongest bot's best moves at
//   that point listed with their win chances.
import { test, expect, PHONE } from "./fixtures";
import { columnPoint, shot, tid, waitAttr } from "./helpers";

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

// Issue #60, point 4: the Rumis board starts with a board (a scenario chosen, moves
// placed from the tray, undo, best moves), a broken record refused in the page's
// language, the sample record, the selected tab's contrast, one "Lobby" link.

/** The contrast ratio of two CSS colours (WCAG relative luminance). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? ["0", "0", "0"]).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Places the stone with the most places on its first marked column; waits for the move. */
async function placeOne(page: import("@playwright/test").Page, before: number): Promise<void> {
  const play = page.locator(tid("rumis-analysis-play"));
  const stones = await play.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as [string, number]));
  const [stone] = stones.sort((a, b) => b[1] - a[1])[0];
  await play.locator(tid(`tray-stone-${stone}`)).click();
  await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`);
  const [x, y] = (await page.locator(tid("rumis-viewport")).getAttribute("data-marks"))!.split(";")[0].split(",").map(Number);
  const p = await columnPoint(page, x, y);
  if (await page.evaluate(() => matchMedia("(pointer: coarse)").matches)) {
    await page.touchscreen.tap(p.x, p.y);
    await page.locator(tid("place-button")).tap();
  } else {
    await page.mouse.move(p.x, p.y);
    await page.mouse.click(p.x, p.y);
  }
  await expect(page.locator(tid("rumis-analysis-played"))).toHaveAttribute("data-n", String(before + 1));
}

for (const phone of [false, true]) {
  for (const de of [false, true]) {
    test.describe(`Rumis from a scenario's start (${phone ? "phone" : "desktop"}, ${de ? "German" : "English"})`, () => {
      if (phone) test.use({ ...PHONE });
      test("play, undo, best moves; a broken record refused in the page's language; the sample; the tab", async ({ page, base }) => {
        await page.addInitScript((l) => localStorage.setItem("rumi.lang", l), de ? "de" : "en");
        await page.goto(base + "/analysis#rumis");
        const board = page.locator(tid("analysis-rumis"));
        // The empty board at once: a scenario chosen, two players.
        await expect(board.locator(tid("rumis-analysis-played"))).toHaveAttribute("data-n", "0", { timeout: 20_000 });
        await placeOne(page, 0);
        await placeOne(page, 1);
        await board.locator(tid("rumis-analysis-undo")).click();
        await expect(board.locator(tid("rumis-analysis-played"))).toHaveAttribute("data-n", "1");
        await board.locator(tid("rumis-analysis-ask")).click();
        await expect(board.locator(tid("rumis-analysis-move-0"))).toBeVisible({ timeout: 20_000 });
        await expect(board.locator(tid("rumis-analysis-win-0"))).toContainText("%");
        // (the record's step controls only with a record)
        await expect(board.locator(tid("rumis-analysis-prev"))).toBeHidden();
        await shot(page, `analysis-rumis-play-${phone ? "phone" : "desktop"}-${de ? "de" : "en"}.png`);

        // No text about the command line; "tap" on a touch screen.
        const help = (await board.locator("p.muted").first().textContent()) ?? "";
        expect(help).not.toMatch(/rumi play|rumi solve/);
        expect(help).toMatch(phone ? (de ? /Tippe/ : /Tap/) : de ? /Klicke/ : /Click/);

        // A broken record: refused in the page's language.
        await board.locator(tid("rumis-analysis-loader")).locator("summary").click();
        await board.locator(tid("rumis-analysis-record")).fill("scenario: chullpa\nplayers: 2\n");
        await board.locator(tid("rumis-analysis-load")).click();
        const error = board.locator(tid("rumis-analysis-error"));
        await expect(error).toContainText(de ? "Kopfzeile" : "header line");
        if (de) await expect(error).not.toContainText("missing header");

        // The sample record loads and steps.
        await board.locator(tid("rumis-analysis-sample")).click();
        await expect(board.locator(tid("rumis-analysis-step"))).toHaveAttribute("data-index", "1");
        await expect(error).toBeHidden();

        // The selected tab reads well; one link to the lobby.
        const tab = page.locator(tid("analysis-tab-rumis"));
        await expect(tab).toHaveAttribute("aria-selected", "true");
        // (as after a click on it: the pointer rests on the tab)
        if (!phone) await tab.hover();
        const { color, background } = await tab.evaluate((e) => {
          const s = getComputedStyle(e);
          return { color: s.color, background: s.backgroundColor };
        });
        expect(contrast(color, background), `${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
        await expect(page.locator('a[href="/"]').filter({ hasText: de ? /Lobby|Übersicht/ : /Lobby/ })).toHaveCount(1);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(phone ? 390 : 1400);
      });
    });
  }
}

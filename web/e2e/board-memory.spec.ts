// The Rumis board's GPU memory (issue #57, point 8): the scene makes its geometries,
// materials and textures once and reuses them, and disposes them with the board.
// - at a table: the ghost moved over every column again and again (green on the marks,
//   red off the footprint) leaves the renderer's geometries and textures and the board's
//   materials where the first pass left them; the table left and opened again starts
//   from the same counts.
// - the solo cube, whose board is made and torn down in the same page: left, nothing of
//   the board is held any more; opened again, the same counts as the first time.
import type { Page } from "@playwright/test";
import { test, expect } from "./fixtures";
import { columnPoint, openSeat, practiceTable, tid, waitAttr } from "./helpers";

type Counts = { geometries: number; textures: number; materials: number };
type Memory = Counts & { live: { geometries: number; textures: number; materials: number } };

/** The board's counts once the frames asked for are drawn. */
async function memory(page: Page): Promise<Memory> {
  return page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return (window as any).__rumis.memory();
  });
}

/** What every board of the page still holds. */
async function live(page: Page): Promise<Memory["live"]> {
  return page.evaluate(() => (window as any).__rumisLive());
}

/** Hovers every column of the board once; returns how many showed a green ghost. */
async function hoverAll(page: Page, width: number, depth: number): Promise<number> {
  let green = 0;
  for (let y = 0; y < depth; y++) {
    for (let x = 0; x < width; x++) {
      const p = await columnPoint(page, x, y);
      await page.mouse.move(p.x, p.y);
      // (the ghost follows the pointer: its move names the hovered stone's cells)
      await waitAttr(page, "ghost-status", "data-move", (m) => !!m, 5_000, `(a ghost on ${x},${y})`);
      if ((await page.locator(tid("ghost-status")).getAttribute("data-legal")) === "true") green++;
    }
  }
  return green;
}

test("Rumis table: the ghost moved many times and the table opened again leave the board's memory flat", async ({ page, base, api }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const t = await practiceTable(api, { game: "rumis", rumis: { scenario: "huaca", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 21 });
  await openSeat(page, base, t.id, t.token);
  await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(Ana to move)");
  const { width, depth } = (await api("GET", `/api/tables/${t.id}`, undefined, t.token)).rumis.scenario;
  // From above every column can be pointed at.
  await page.click(tid("top-view"));
  const opened = await memory(page);
  expect(opened.geometries).toBeGreaterThan(0);
  expect(opened.textures).toBeGreaterThan(0);
  expect(opened.materials).toBeGreaterThan(0);

  // The stone with the most places, its marks shown.
  const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as [string, number]));
  const [stone] = stones.sort((a, b) => b[1] - a[1])[0];
  await page.locator(tid(`tray-stone-${stone}`)).click();
  await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`);

  // The first pass makes what the ghost needs: green and red.
  const green = await hoverAll(page, width, depth);
  expect(green, "no column showed a green ghost").toBeGreaterThan(0);
  expect(green, "no column showed a red ghost").toBeLessThan(width * depth);
  const warm = await memory(page);
  // Four more passes: nothing new.
  for (let pass = 0; pass < 4; pass++) await hoverAll(page, width, depth);
  const after = await memory(page);
  expect({ geometries: after.geometries, textures: after.textures, materials: after.materials }).toEqual({ geometries: warm.geometries, textures: warm.textures, materials: warm.materials });
  expect(after.live).toEqual(warm.live);

  // Away to the lobby and back: the table starts from the same counts.
  await page.goto(base + "/");
  await openSeat(page, base, t.id, t.token);
  await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(Ana to move again)");
  await page.click(tid("top-view"));
  const again = await memory(page);
  expect({ geometries: again.geometries, textures: again.textures, materials: again.materials }).toEqual({ geometries: opened.geometries, textures: opened.textures, materials: opened.materials });
});

test("solo cube: a board left is disposed, and the next one holds what the first did", async ({ page, base }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(base + "/solo#3-1-free");
  await expect(page.locator(tid("solo-title"))).toContainText("Edge 3", { timeout: 30_000 });
  await waitAttr(page, "tray", "data-colour", (c) => !!c, 10_000, "(the tray)");
  const first = await memory(page);
  expect(first.materials).toBeGreaterThan(0);
  expect(first.live.geometries).toBeGreaterThan(0);

  // Back to the levels: the board's geometries, materials and textures are all disposed.
  await page.locator(tid("solo-back")).click();
  await expect(page.locator(tid("solo-levels"))).toBeVisible();
  expect(await live(page)).toEqual({ geometries: 0, materials: 0, textures: 0 });
  expect(await page.evaluate(() => (window as any).__rumis === undefined), "the left board's test hook is still there").toBe(true);

  // The same level again, in the same page: the same counts as the first time.
  for (let round = 0; round < 3; round++) {
    await page.locator(tid("solo-open-3-1-free")).click();
    await waitAttr(page, "tray", "data-colour", (c) => !!c, 10_000, "(the tray again)");
    const again = await memory(page);
    expect(again).toEqual(first);
    await page.locator(tid("solo-back")).click();
    await expect(page.locator(tid("solo-levels"))).toBeVisible();
  }
  expect(await live(page)).toEqual({ geometries: 0, materials: 0, textures: 0 });
});

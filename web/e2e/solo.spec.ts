// The solo cube, /solo (issue #48 point 4):
// - desktop, English, from the lobby's Rumis card: the level list (impossible levels
//   with their reason), edge 3 with one colour; a stone placed by hand with the mouse
//   on a marked column, undone; a hint placed, then the build restarted; "can this
//   still be finished?" answered; the cube finished by pressing Hint until done; the
//   finished panel with the time and the stones, a new best, shown in the list after.
// - a 390×844 phone: the board, the tray and the controls on the screen.
import { test, expect, PHONE } from "./fixtures";
import { axeCheck, columnPoint, shot, tid, waitAttr } from "./helpers";

test("solo: an edge-3 cube of one colour, by hand and finished with hints", async ({ page, base }) => {
  await page.goto(base + "/");
  await page.locator(tid("card-solo")).click();
  await expect(page).toHaveURL(/\/solo$/);
  // (the server decides the levels when it starts: a slow machine may still be at it)
  await expect(page.locator(tid("solo-levels")).locator("section")).toHaveCount(3, { timeout: 30_000 });
  // The playable levels are buttons with their rule; the solver's verdicts are shown
  // honestly, folded below them: the levels without a full cube, each with its reason.
  const levels = page.locator(tid("solo-levels"));
  expect(await levels.locator("[data-solvable=no] button").count()).toBe(0);
  await expect(page.locator(tid("solo-level-5-4-rules"))).toHaveAttribute("data-solvable", "yes");
  await expect(page.locator(tid("solo-open-3-1-rules"))).toContainText("each stone touches its own colour face to face");
  const noCube = page.locator(tid("solo-level-4-1-free"));
  await expect(noCube).toHaveAttribute("data-solvable", "no");
  await expect(noCube).toBeHidden();
  await page.locator(tid("solo-impossible-4")).locator("summary").click();
  await expect(noCube).toBeVisible();
  await expect(noCube).toContainText("64 cells, but the colours hold only 40 cubes");
  await page.locator(tid("solo-impossible-3")).locator("summary").click();
  await expect(page.locator(tid("solo-level-3-2-alternate"))).toContainText("no full cube");
  await expect(page.locator(tid("solo-impossible-3")).locator("summary")).toHaveText(/^\d+ levels have no full cube$/);
  await shot(page, "solo-levels.png");
  await axeCheck(page, "the solo level list");

  await page.locator(tid("solo-open-3-1-free")).click();
  await expect(page).toHaveURL(/\/solo#3-1-free$/);
  // The level's goal and rule stand above its board.
  await expect(page.locator(tid("solo-goal"))).toHaveText("Fill all 27 cells of the edge-3 cube. Any stone may go anywhere it fits.");
  await expect(page.locator(tid("solo-stones"))).toHaveAttribute("data-n", "0");

  // One stone by hand: the tray stone with the most places, a marked column, a click.
  const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as [string, number]));
  const [stone] = stones.filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])[0];
  await page.locator(tid(`tray-stone-${stone}`)).click();
  const marks = await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`);
  const [mx, my] = marks!.split(";")[0].split(",").map(Number);
  const p = await columnPoint(page, mx, my);
  await page.mouse.move(p.x, p.y);
  await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, `(a green ghost on ${mx},${my})`);
  await page.mouse.click(p.x, p.y);
  await expect(page.locator(tid("solo-stones"))).toHaveAttribute("data-n", "1");
  await expect(page.locator(tid("history")).locator("li")).toHaveCount(1);

  // Undo takes it back; a hint places one; restart empties the cube.
  await page.locator(tid("solo-undo")).click();
  await expect(page.locator(tid("solo-stones"))).toHaveAttribute("data-n", "0");
  await page.locator(tid("solo-hint")).click();
  await expect(page.locator(tid("solo-stones"))).toHaveAttribute("data-n", "1");
  await expect(page.locator(tid("solo-answer"))).toHaveAttribute("data-kind", "hint");
  await page.locator(tid("solo-finishable")).click();
  await expect(page.locator(tid("solo-answer"))).toHaveAttribute("data-kind", "yes");
  await expect(page.locator(tid("solo-answer"))).toContainText("can still become a full cube");
  await page.locator(tid("solo-restart")).click();
  await expect(page.locator(tid("solo-stones"))).toHaveAttribute("data-n", "0");
  await expect(page.locator(tid("history")).locator("li")).toHaveCount(0);

  // Hint after hint until the cube is full.
  for (let n = 1; n <= 13 && !(await page.locator(tid("solo-finished")).isVisible()); n++) {
    await page.locator(tid("solo-hint")).click();
    await expect(page.locator(tid("solo-stones"))).toHaveAttribute("data-n", String(n));
  }
  const finished = page.locator(tid("solo-finished"));
  await expect(finished).toBeVisible();
  const used = Number(await page.locator(tid("solo-stones")).getAttribute("data-n"));
  expect(used).toBeGreaterThanOrEqual(7);
  await expect(page.locator(tid("solo-done"))).toContainText(new RegExp(`Cube finished in \\d+:\\d\\d\\.\\d with ${used} stones`));
  await expect(page.locator(tid("solo-best"))).toHaveText("New best time!");
  await expect(finished).toHaveAttribute("data-best", "true");
  await expect(page.locator(tid("solo-hint"))).toBeDisabled();
  await shot(page, "solo-finished.png");
  const millis = Number(await finished.getAttribute("data-millis"));
  expect(millis).toBeGreaterThan(0);
  // Every cell of the 3-cube is filled.
  const cubes = await page.locator(tid("history")).locator("li").count();
  expect(cubes).toBe(used);

  // The list shows the best time.
  await page.locator(tid("solo-levels-again")).click();
  await expect(page.locator(tid("solo-level-3-1-free"))).toHaveAttribute("data-best", String(millis));
});

test("solo: the phone shows the board and the controls", async ({ open, base }) => {
  const page = await open({ ...PHONE, name: "solo-phone" });
  await page.goto(base + "/solo#3-2-rules");
  await expect(page.locator(tid("solo-title"))).toContainText("Edge 3", { timeout: 30_000 });
  await expect(page.locator(tid("solo-colour-red"))).toHaveAttribute("aria-pressed", "true");
  await waitAttr(page, "tray", "data-colour", (c) => c === "red");
  const screen = { width: 390, height: 844 };
  for (const id of ["rumis-canvas", "solo-hint", "solo-undo", "solo-finishable", "tray"]) {
    const box = await page.locator(tid(id)).boundingBox();
    expect(box, id).not.toBeNull();
    expect(box!.x, id).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, id).toBeLessThanOrEqual(screen.width + 1);
  }
  const canvas = (await page.locator(tid("rumis-canvas")).boundingBox())!;
  expect(canvas.height).toBeGreaterThan(150);
  // A hint under the rules places red's stone; blue is to move.
  await page.locator(tid("solo-hint")).tap();
  await expect(page.locator(tid("solo-stones"))).toHaveAttribute("data-n", "1");
  await expect(page.locator(tid("solo-colour-blue"))).toHaveAttribute("aria-pressed", "true");
  // The goal and the level's rule are on the phone's screen, above the board.
  const goal = (await page.locator(tid("solo-goal")).boundingBox())!;
  await expect(page.locator(tid("solo-goal"))).toContainText("Fill all 27 cells of the edge-3 cube. The colours place in turn");
  expect(goal.y + goal.height).toBeLessThanOrEqual(canvas.y);
  await expect(page.locator(tid("solo-intro"))).toBeHidden();
  await shot(page, "solo-phone.png");
  await axeCheck(page, "a solo cube on a phone");
});

test("solo: on a phone in German, the level list says what to do and reads as a choice", async ({ open, base }) => {
  const page = await open({ ...PHONE, name: "solo-levels-de", locale: "de-DE" });
  await page.goto(base + "/solo");
  await expect(page.locator(tid("solo-levels")).locator("section")).toHaveCount(3, { timeout: 30_000 });
  // The goal is on the screen, in German, before any level.
  const intro = page.locator(tid("solo-intro"));
  await expect(intro).toBeInViewport();
  await expect(intro).toContainText("Fülle allein einen Würfel mit Rumis-Steinen");
  // The first levels are buttons in view, each with its rule, a thumb's height, and
  // nothing is wider than the phone.
  const first = page.locator(tid("solo-open-3-1-free"));
  await expect(first).toBeInViewport();
  await expect(first).toContainText("1 Farbe · frei");
  await expect(first).toContainText("Jeder Stein darf überall hin, wo er passt.");
  expect((await first.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  // No "impossible" in the list until one asks why.
  for (const edge of [3, 4, 5]) {
    await expect(page.locator(tid(`solo-impossible-${edge}`)).locator("ul")).toBeHidden();
  }
  await expect(page.locator(tid("solo-impossible-4")).locator("summary")).toHaveText(/^\d+ Stufen haben keinen vollen Würfel$/);
  await shot(page, "solo-levels-phone-de.png");
  await axeCheck(page, "the solo levels on a phone in German");
});

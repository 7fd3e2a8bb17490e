// The tutorials (issue #46, "a first game that teaches"):
// - Rumis in German on a 390×844 touch phone, reached from the lobby's card: every step
//   played through on the game's own board (stones tapped in the tray, a marked column
//   tapped, Place; typed moves where a step asks for one exact placement), the engine's
//   refusals shown with their rule (the step's wrong try, a hole, a stone too high), a
//   legal move that misses the goal, the last move of a game scored; axe; screenshot
//   docs/screenshots/tutorial-rumis-de.png.
// - Rummikub in English on the desktop, reached from the rules page: every step made by
//   moving tiles (click a tile, click where it goes) and ending the turn, each check
//   asked of the server; a group with a colour twice, a run with a gap and a meld of 29
//   refused by the engine with their rules, a table tile moved to split a run, the
//   joker freed; axe; screenshot docs/screenshots/tutorial-rummikub-en.png.
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, PHONE } from "./fixtures";
import { axeCheck, columnPoint, DOCS_SHOTS, log, shot, tid, waitAttr } from "./helpers";

const feedback = (page: Page) => page.locator(tid("tutorial-feedback"));

/** Waits for the engine's answer in the feedback box: its state (and rule). */
async function answered(page: Page, state: "refused" | "missed" | "done", rule?: string): Promise<string> {
  await expect(feedback(page)).toHaveAttribute("data-state", state);
  if (rule) await expect(feedback(page)).toHaveAttribute("data-rule", rule);
  return (await feedback(page).innerText()).replace(/\s+/g, " ");
}

/** "Next step" after a step is done. */
async function next(page: Page, n: number): Promise<void> {
  await page.locator(tid("tutorial-next")).click();
  await expect(page.locator(tid("tutorial-board"))).toHaveAttribute("data-step", String(n));
  await expect(page.locator(tid("tutorial-heading"))).toContainText(` ${n} `);
}

/** The step's typical wrong try, sent to the engine by its button: refused (or missed). */
async function showWrong(page: Page, state: "refused" | "missed", rule?: string): Promise<string> {
  const check = page.waitForResponse((r) => /\/api\/tutorial\/\w+\/\d+\/check$/.test(r.url()) && r.request().method() === "POST");
  await page.locator(tid("tutorial-wrong")).click();
  expect((await check).status()).toBe(200);
  return answered(page, state, rule);
}

// ---- Rumis ----------------------------------------------------------------------------

/** Taps the tray stone that fits in the most places, a marked column, then Place. */
async function tapAStone(page: Page): Promise<void> {
  const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as [string, number]));
  const [stone] = stones.filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])[0];
  await page.locator(tid(`tray-stone-${stone}`)).tap();
  const marks = await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`);
  const [mx, my] = marks!.split(";")[0].split(",").map(Number);
  await page.locator(tid("rumis-canvas")).scrollIntoViewIfNeeded();
  const p = await columnPoint(page, mx, my);
  await page.touchscreen.tap(p.x, p.y);
  await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, `(a green ghost on ${mx},${my})`);
  await page.locator(tid("place-button")).tap();
}

/** Types a move into the board's move box (opened if folded) and plays it. */
async function typeMove(page: Page, move: string): Promise<void> {
  const input = page.locator(tid("move-input"));
  if (!(await input.isVisible())) await page.locator(".typed summary").tap();
  await input.fill(move);
  await page.locator(tid("move-submit")).tap();
}

test("rumis: the tutorial in German on a phone, from the lobby's card", async ({ open, base }) => {
  const page = await open({ ...PHONE, locale: "de-DE", name: "rumis-de" });
  await page.goto(base + "/");
  await page.locator(tid("card-learn-rumis")).tap();
  await expect(page).toHaveURL(/\/learn\/rumis#1$/);
  await waitAttr(page, "tutorial-board", "data-ready", (v) => v !== null);
  await expect(page.locator("h1")).toHaveText("Rumis lernen");
  await expect(page.locator(tid("tutorial-steps")).locator("a")).toHaveCount(6);

  // 1. The first stone: the wrong try lies outside the board (R4); then any stone.
  await expect(page.locator(tid("tutorial-heading"))).toHaveText("Schritt 1 von 6: Der erste Stein");
  await expect(page.locator(tid("tutorial-colour"))).toHaveText("Du spielst rot.");
  let said = await showWrong(page, "refused", "R4");
  expect(said).toContain("Nicht erlaubt: Feld E4, Ebene 1 liegt außerhalb der Baufläche");
  await tapAStone(page);
  said = await answered(page, "done");
  expect(said).toContain("Gut gemacht!");
  await expect(page.locator(tid("cube-count"))).toHaveAttribute("data-count", /^[2-4]$/);
  await expect(page.locator(tid("tutorial-step-1"))).toHaveAttribute("data-done", "true");

  // 2. Blue's first stone: not touching (R6) is refused; then a marked place.
  await next(page, 2);
  await expect(page.locator(tid("tutorial-colour"))).toHaveText("Du spielst blau.");
  said = await showWrong(page, "refused", "R6");
  expect(said).toContain("muss einen liegenden Stein mit einer Fläche berühren");
  await tapAStone(page);
  await answered(page, "done");

  // 3. Red's own colour by a face (R7): an edge only is refused, typed; then a marked place.
  await next(page, 3);
  await typeMove(page, "D2 d2:1 d3:1");
  said = await answered(page, "refused", "R7");
  expect(said).toContain("Nicht erlaubt: der Stein muss einen Stein der Farbe rot mit einer Fläche berühren");
  await tapAStone(page);
  await answered(page, "done");

  // 4. No hole (R3): the square over the gap is refused, then built up right.
  await next(page, 4);
  await typeMove(page, "O4 c2:2 d2:2 c3:2 d3:2");
  said = await answered(page, "refused", "R3");
  expect(said).toContain("Hohlraum");
  await page.locator(tid("tutorial-board")).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(DOCS_SHOTS, "tutorial-rumis-de.png"), fullPage: true });
  await axeCheck(page, "the Rumis tutorial with a refusal (de, phone)");
  await typeMove(page, "O4 c1:2 d1:2 c2:2 d2:2");
  await answered(page, "done");

  // 5. The height (R4): level 5 is refused, level 3 misses the goal, level 4 is it.
  await next(page, 5);
  await typeMove(page, "I4 d1:3 d1:4 d1:5 d1:6");
  said = await answered(page, "refused", "R4");
  expect(said).toContain("zu hoch");
  await typeMove(page, "L3 c1:3 d1:3 c2:3");
  said = await answered(page, "missed");
  expect(said).toContain("Erlaubt, aber nicht das, was dieser Schritt verlangt.");
  await typeMove(page, "L3 c1:3 d1:3 d1:4");
  await answered(page, "done");

  // 6. The last move: covering an own square loses 8 to 9; covering blue wins 10 to 7.
  await next(page, 6);
  said = await showWrong(page, "missed");
  expect(said).toContain("Spielende. Punkte: du 8, der andere Spieler 9.");
  await typeMove(page, "D2 a5:4 b5:4");
  said = await answered(page, "done");
  expect(said).toContain("Spielende. Punkte: du 10, der andere Spieler 7.");
  await expect(page.locator(tid("tutorial-finished"))).toBeVisible();
  await expect(page.locator(tid("tutorial-next"))).toBeHidden();
  for (let n = 1; n <= 6; n++) await expect(page.locator(tid(`tutorial-step-${n}`))).toHaveAttribute("data-done", "true");
  await axeCheck(page, "the Rumis tutorial finished (de, phone)");
  // The steps done are remembered: a new visit opens the first (all are done).
  await page.goto(base + "/learn/rumis");
  await waitAttr(page, "tutorial-board", "data-ready", (v) => v !== null);
  await expect(page.locator(tid("tutorial-step-6"))).toHaveAttribute("data-done", "true");
  log("the Rumis tutorial played through in German on a phone");
});

// ---- Rummikub -------------------------------------------------------------------------

/** Click-to-move: a tile (by code, the first of its kind in `where`), then its place. */
async function moveTile(page: Page, where: "rack" | "table", code: string, to: string): Promise<void> {
  await page.locator(tid(`tile-${where}-${code}`)).first().click();
  await page.locator(tid(to)).click();
}

/** Ends the turn: the play goes to the step's engine. */
async function endTurn(page: Page): Promise<void> {
  const check = page.waitForResponse((r) => /\/api\/tutorial\/rummikub\/\d+\/check$/.test(r.url()));
  await page.locator(tid("end-turn")).click();
  expect((await check).status()).toBe(200);
}

test("rummikub: the tutorial in English on the desktop, from the rules page", async ({ page, base }) => {
  await page.goto(base + "/rules/rummikub");
  await page.locator(tid("rules-learn-rummikub")).click();
  await expect(page).toHaveURL(/\/learn\/rummikub#1$/);
  await waitAttr(page, "tutorial-board", "data-ready", (v) => v !== null);
  await expect(page.locator("h1")).toHaveText("Learn Rummikub");

  // 1. A group: two red 7s are refused (K3); red, blue and black 7 are a group.
  await expect(page.locator(tid("tutorial-heading"))).toHaveText("Step 1 of 6: A group");
  let said = await showWrong(page, "refused", "K3");
  expect(said).toContain("is neither a run nor a group");
  await moveTile(page, "rack", "r7", "new-set");
  await moveTile(page, "rack", "b7", "set-1");
  await moveTile(page, "rack", "k7", "set-1");
  await expect(page.locator(tid("set-1"))).toHaveAttribute("data-tiles", /^(?=.*r7)(?=.*b7)(?=.*k7).{8}$/);
  await expect(page.locator(tid("set-1"))).toHaveAttribute("data-valid", "true");
  await endTurn(page);
  said = await answered(page, "done");
  expect(said).toContain("Groups and runs are the two kinds of sets.");
  await expect(page.locator(tid("rack"))).toHaveAttribute("data-count", "3");

  // 2. A run: with a gap it is refused; reset, then 4, 5, 6.
  await next(page, 2);
  for (const code of ["b4", "b5", "b6", "b8"]) await moveTile(page, "rack", code, code === "b4" ? "new-set" : "set-1");
  await endTurn(page);
  said = await answered(page, "refused", "K3");
  expect(said).toContain("Not allowed: set 2");
  expect(said).toContain("is neither a run nor a group");
  await expect(feedback(page).locator(`${tid("tutorial-verdict")} [data-tiles="b4 b5 b6 b8"] .tile`), "the set's tiles drawn in the refusal").toHaveCount(4);
  await page.locator(tid("reset-turn")).click();
  for (const code of ["b4", "b5", "b6"]) await moveTile(page, "rack", code, code === "b4" ? "new-set" : "set-1");
  await endTurn(page);
  await answered(page, "done");

  // 3. The initial meld: 29 is refused (K4); one more tile makes 35.
  await next(page, 3);
  for (const code of ["r2", "r3", "r4", "r5"]) await moveTile(page, "rack", code, code === "r2" ? "new-set" : "set-1");
  for (const code of ["b5", "k5", "o5"]) await moveTile(page, "rack", code, code === "b5" ? "new-set" : "set-2");
  await expect(page.locator(tid("meld-value"))).toHaveAttribute("data-value", "29");
  await endTurn(page);
  said = await answered(page, "refused", "K4");
  expect(said).toContain("Not allowed: the initial meld is worth 29, it needs 30");
  await page.screenshot({ path: path.join(DOCS_SHOTS, "tutorial-rummikub-en.png"), fullPage: true });
  await axeCheck(page, "the Rummikub tutorial with a refusal (en, desktop)");
  await moveTile(page, "rack", "r6", "set-1");
  await expect(page.locator(tid("meld-value"))).toHaveAttribute("data-value", "35");
  await endTurn(page);
  await answered(page, "done");

  // 4. Adding to a set of the table.
  await next(page, 4);
  said = await showWrong(page, "refused", "K3");
  await moveTile(page, "rack", "b12", "set-0");
  await endTurn(page);
  await answered(page, "done");

  // 5. Rearranging: the blue run split in two with the rack's blue 5.
  await next(page, 5);
  said = await showWrong(page, "refused", "K3");
  expect(said).toContain("has only 1 tile; a set needs at least 3");
  await moveTile(page, "table", "b6", "new-set");
  await moveTile(page, "table", "b7", "set-2");
  await moveTile(page, "rack", "b5", "set-2");
  await expect(page.locator(tid("set-2"))).toHaveAttribute("data-tiles", "b5 b6 b7");
  await endTurn(page);
  await answered(page, "done");

  // 6. The joker: taking it to the rack is refused (K5); freed by the red 6 and played
  //    with the 12s.
  await next(page, 6);
  said = await showWrong(page, "refused", "K5");
  expect(said).toContain("left the table");
  await expect(feedback(page).locator(`${tid("tutorial-verdict")} .tile.joker`), "the joker drawn in the refusal").toHaveCount(1);
  await moveTile(page, "rack", "r6", "set-0");
  await moveTile(page, "table", "J", "new-set");
  await moveTile(page, "rack", "k12", "set-2");
  await moveTile(page, "rack", "o12", "set-2");
  await endTurn(page);
  said = await answered(page, "done");
  expect(said).toContain("costs 50 points");
  await expect(page.locator(tid("tutorial-finished"))).toBeVisible();
  await axeCheck(page, "the Rummikub tutorial finished (en, desktop)");
  await shot(page, "tutorial-rummikub-finished-en.png");
  log("the Rummikub tutorial played through in English on the desktop");
});

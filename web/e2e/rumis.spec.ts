// Rumis at the table:
// - rumis: a whole practice game against the greedy bot through the UI (tray, keys and
//   buttons, the green ghost clicked in the 3D view, a red ghost with the server's reason,
//   typed moves), a reload mid-game, `rumi verify` on the replay, a cold load of the
//   table, the replay page.
// - phone: a whole game on a 390×844 touch screen by taps on the finder's marks.
// - dismantle: the dismantling game's removal gesture (R16).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import type { Browser } from "@playwright/test";
import { test, expect, bin } from "./fixtures";
import { axeCheck, cellsKey, columnPoint, drop, errorText, heights, isThree, log, normalise, notation, openForm, openSeat, practiceTable, recordRequests, shapeKey, shot, submitCreate, tid, viewWhen, waitAttr, waitError } from "./helpers";

/** Time to the first drawn board on a cold load of a table (a fresh browser context). */
async function coldLoad(browser: Browser, base: string, id: string) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await ctx.newPage();
    const t0 = Date.now();
    await page.goto(`${base}/t/${id}`);
    const ms = await waitAttr(page, "rumis-canvas", "data-first-frame-ms", (x) => !!x, 20_000, "(first frame)");
    log(`cold load of a Rumis table: first board drawn ${ms} ms after navigation start (${Date.now() - t0} ms wall clock)`);
    // A spectator gets no stones and no move box.
    await expect(page.locator(tid("move-form")), "a spectator is offered a move box").toHaveCount(0);
    await expect(page.locator(tid("tray")), "a spectator is offered a tray").toHaveCount(0);
    await axeCheck(page, "a Rumis table as a spectator");
    return Number(ms);
  } finally {
    await ctx.close();
  }
}

test("rumis: a whole practice game against the bot through the UI", async ({ page, browser, base, api }) => {
  const requests = recordRequests(page);
  await page.setViewportSize({ width: 1280, height: 900 });
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
  expect(requests.filter(isThree), "the lobby loaded three.js").toEqual([]);
  const { id, token } = await submitCreate(page);
  expect(token, "creating the table left a seat token in sessionStorage").toBeTruthy();
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
  await page.locator(tid("rumis-viewport")).waitFor({ timeout: 20_000 });
  await expect(page.locator(tid("webgl-error")), "the 3D view did not start (WebGL unavailable)").toHaveCount(0);
  expect(requests.some(isThree), "the Rumis page loaded three.js").toBe(true);
  // Rumis deals nothing (issue #46): no seed, commitment or proof on the page; the
  // server still commits to the seed (checked with rumi verify below).
  await expect(page.locator(tid("fairness")), "a Rumis table shows a proof of a deal").toHaveCount(0);
  await expect(page.locator(tid("practice-seed")), "a Rumis table shows a proof of a deal").toHaveCount(0);

  const view = () => api("GET", `/api/tables/${id}`, undefined, token);
  const committed = (await view()).fairness.commitment;
  let humanMoves = 0;
  let typed = 0;
  let ghosted = 0;
  let sawRed = false;
  let reloaded = false;
  await page.click(tid("top-view")); // click-placing from above: every column is visible
  // (a bound on the loop's rounds, each a move or a wait for one, not on the time)
  for (let round = 0; round < 300; round++) {
    // (the page's turn: a view at which it is mine, or the end)
    const state = await waitAttr(page, "turn-status", "data-my-turn", () => true);
    if ((await page.locator(tid("turn-status")).getAttribute("data-over")) === "true") break;
    if (state !== "true") {
      await page.locator(`${tid("turn-status")}[data-my-turn="true"], ${tid("turn-status")}[data-over="true"]`).waitFor({ timeout: 20_000 });
      continue;
    }
    const v = await view();
    if (v.over) break;
    if (v.to_move !== v.you) continue;
    expect(Array.isArray(v.rumis.legal) && v.rumis.legal.length > 0, `my turn but no legal moves in the view (version ${v.version})`).toBe(true);
    const version = v.version;
    // The biggest stone first, as a person would.
    const legal = [...v.rumis.legal].sort((a, b) => b.stone.localeCompare(a.stone) || 0);
    const move = legal.find((m: any) => m.stone.endsWith("4")) ?? legal[0];
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
        expect(before !== after || (await page.locator(tid("orientation")).getAttribute("data-index")) !== null, "turning the stone changed nothing").toBe(true);
      }
      for (let i = 0; i < 30; i++) {
        if ((await page.locator(tid("orientation")).getAttribute("data-key")) === targetKey) break;
        await page.click(tid("next-orientation"));
      }
      await expect(page.locator(tid("orientation")), `${move.stone} turned to ${targetKey}`).toHaveAttribute("data-key", targetKey, { timeout: 1_000 });
      const orientation = normalise(move.cells);
      if (!sawRed) {
        // A column where this stone may not go: the ghost turns red with the server's reason.
        const { width, depth } = v.rumis.scenario;
        const legalKeys = new Set(v.rumis.legal.map((m: any) => `${m.stone}|${cellsKey(m.cells)}`));
        let bad: { x: number; y: number; cells: number[][] } | null = null;
        for (let y = 0; y < depth && !bad; y++)
          for (let x = 0; x < width && !bad; x++) {
            const cells = drop(orientation, x, y, hm);
            // (the ghost snaps to a legal placement covering the pointed column: avoid those)
            const covered = v.rumis.legal.some((m: any) => m.stone === move.stone && shapeKey(m.cells) === targetKey && m.cells.some(([cx, cy]: number[]) => cx === x && cy === y));
            if (!covered && cells.every(([cx, cy]) => cx >= 0 && cy >= 0 && cx < width && cy < depth) && !legalKeys.has(`${move.stone}|${cellsKey(cells)}`)) bad = { x, y, cells };
          }
        if (bad) {
          const p = await columnPoint(page, bad.x, bad.y);
          await page.mouse.move(p.x, p.y);
          await expect(page.locator(tid("ghost-status")), "a red ghost").toHaveAttribute("data-legal", "false");
          const reason = await waitAttr(page, "ghost-status", "data-reason", (r) => !!r, 10_000, "(reason)");
          const whyCode = await page.locator(tid("ghost-status")).getAttribute("data-why");
          const checked = await api("POST", `/api/tables/${id}/check`, { type: "rumis_place", stone: move.stone, cells: bad.cells }, token);
          expect(whyCode, "the red ghost's reason code").toBeTruthy();
          expect(checked.why?.code, "the check endpoint's reason is the red ghost's").toBe(whyCode);
          const ghostRule = await page.locator(tid("ghost-status")).getAttribute("data-rule");
          expect(ghostRule, "the red ghost links the reason's rule").toBe(checked.why?.rule ?? "");
          log(`red ghost at ${notation(move.stone, bad.cells)}: ${reason} (${whyCode}, ${ghostRule})`);
          await shot(page, "rumis-red-ghost.png");
          await page.mouse.click(p.x, p.y); // refused on the client, with the reason
          const said = await waitError(page, (t) => /Cannot place/.test(t), 3_000);
          expect(said ?? "", "clicking a red ghost shows a message").toMatch(/Cannot place/);
          sawRed = true;
        }
      }
      // The ghost hangs from its anchor: the first cube of the lowest layer (as sorted by level, row, column).
      const anchorCell = [...move.cells].sort((a: number[], b: number[]) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0])[0];
      const p = await columnPoint(page, anchorCell[0], anchorCell[1]);
      await page.mouse.move(p.x - 3, p.y - 3);
      await page.mouse.move(p.x, p.y);
      const want = notation(move.stone, move.cells);
      await expect(page.locator(tid("ghost-status")), `the ghost at ${want}`).toHaveAttribute("data-move", want);
      await expect(page.locator(tid("ghost-status")), "a green ghost").toHaveAttribute("data-legal", "true");
      if (ghosted === 1) {
        await shot(page, "rumis-green-ghost.png");
        // The same ghost in the 3D view, then back to the top view to click.
        await page.keyboard.press("t");
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await shot(page, "rumis-green-ghost-3d.png");
        await page.keyboard.press("t");
        await page.mouse.move(p.x + 2, p.y + 2);
        await page.mouse.move(p.x, p.y);
        await expect(page.locator(tid("ghost-status")), `the ghost at ${want} again`).toHaveAttribute("data-move", want);
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
      expect(after, "the history's moves after the reload").toBeGreaterThanOrEqual(history);
      await expect(page.locator(tid("tray")), "a tray after the reload").toHaveCount(1);
      log(`reload mid-game restored ${cubes}+ cubes and ${after} moves`);
      reloaded = true;
      await page.click(tid("top-view"));
    }
  }
  const final = await view();
  expect(final.over, "the Rumis game ended").toBe(true);
  await page.locator(tid("result-text")).waitFor({ timeout: 10_000 });
  const resultText = (await page.locator(tid("result-text")).textContent()) ?? "";
  expect(resultText.length, "a result text").toBeGreaterThan(0);
  expect(sawRed, "saw a red ghost with a reason").toBe(true);
  expect(ghosted >= 3 && typed >= 1, `expected moves by ghost and typed, got ${ghosted} and ${typed}`).toBe(true);
  log(`Rumis game over after ${humanMoves} human moves (${ghosted} by the 3D ghost, ${typed} typed): ${resultText}`);
  // The seed revealed by the server (the page shows no proof for Rumis; the browser's
  // check of a revealed deal is in the hand-end scenario, on a Rummikub table).
  expect(String(final.fairness.seed), "the revealed seed is the practice seed").toBe("7");
  await expect(page.locator(tid("check-deal")), "a finished Rumis game shows a proof of a deal").toHaveCount(0);
  log("fairness: seed 7 revealed by the server; no proof shown for Rumis");
  // `rumi verify --commitment` on the replay, with the commitment of the first view.
  {
    const href = `/api/tables/${encodeURIComponent(id)}/replay`;
    const file = path.join(os.tmpdir(), `rumi-e2e-replay-${id}.json`);
    fs.writeFileSync(file, await (await fetch(base + href)).text());
    const verified = spawnSync(bin, ["verify", "--commitment", committed, file], { encoding: "utf8" });
    fs.rmSync(file, { force: true });
    expect(verified.status, `rumi verify on the downloaded replay failed: ${verified.stdout}${verified.stderr}`).toBe(0);
    log(`rumi verify: ${verified.stdout.trim().split("\n")[0]}`);
  }
  await shot(page, "rumis-final-top.png");
  await page.click(tid("top-view"));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await shot(page, "rumis-final-3d.png");

  // Time to the first drawn board on a cold load of this table (a fresh browser context).
  await coldLoad(browser, base, id);

  // The replay steps through the finished game.
  await page.goto(`${base}/replay/${id}`);
  await page.locator(tid("replay-step")).waitFor();
  await page.click(tid("replay-next"));
  await page.click(tid("replay-next"));
  await expect(page.locator(tid("replay-step")), "the replay's step after two steps").toHaveAttribute("data-index", "2");
  await page.click(tid("replay-last"));
  await page.locator(tid("fairness")).waitFor({ timeout: 5_000 });
  await shot(page, "rumis-replay.png");
});

test("phone: a whole Rumis game by taps on the finder's marks", async ({ phone: page, base, api }) => {
  const t1 = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 11 });
  await openSeat(page, base, t1.id, t1.token);
  await page.locator(tid("rumis-canvas")).waitFor();
  await page.locator(tid("top-view")).tap();
  // Buttons are at least 44 px on a touch screen.
  const small = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLButtonElement>("button")].filter((b) => b.offsetParent && (b.getBoundingClientRect().height < 43.5 || b.getBoundingClientRect().width < 43.5)).map((b) => b.dataset.testid || b.textContent),
  );
  expect(small, "buttons under 44 px on a phone").toEqual([]);
  let moves = 0;
  let secondTaps = 0;
  let placeButtons = 0;
  const status = page.locator(tid("turn-status"));
  // (a bound on the loop's rounds, each a move or a wait for one, not on the time)
  for (let round = 0; round < 300; round++) {
    if ((await status.getAttribute("data-over")) === "true") break;
    if ((await status.getAttribute("data-my-turn")) !== "true") {
      await page.locator(`${tid("turn-status")}[data-my-turn="true"], ${tid("turn-status")}[data-over="true"]`).waitFor({ timeout: 20_000 });
      continue;
    }
    const version = Number(await status.getAttribute("data-version"));
    // The stone that fits in the most places, read from the tray.
    const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as const));
    const fitting = stones.filter(([, n]) => n > 0).sort((a, b) => b[0].localeCompare(a[0]));
    if (fitting.length === 0) {
      // (the tray of this view is not drawn yet)
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="tray"] [data-legal]:not([data-legal="0"])').length > 0 || document.querySelector('[data-testid="turn-status"]')?.getAttribute("data-my-turn") !== "true", null, { timeout: 10_000 });
      continue;
    }
    const stone = fitting[0][0];
    await page.locator(tid(`tray-stone-${stone}`)).tap();
    await expect(page.locator(tid("orientation")), `the first orientation offered for ${stone} fits somewhere`).toHaveAttribute("data-fits", "true", { timeout: 5_000 });
    const marks = (await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`))!;
    const [mx, my] = marks.split(";")[0].split(",").map(Number);
    await page.locator(tid("rumis-canvas")).scrollIntoViewIfNeeded();
    const p = await columnPoint(page, mx, my);
    await page.touchscreen.tap(p.x, p.y);
    await expect(page.locator(tid("ghost-status")), `a green ghost after the first tap on ${mx},${my}`).toHaveAttribute("data-legal", "true", { timeout: 5_000 });
    expect(Number(await status.getAttribute("data-version")), "the first tap placed the stone").toBe(version);
    if (moves === 0) await shot(page, "rumis-phone-ghost.png");
    if (moves % 2 === 0) {
      // (the screenshot may have scrolled the page: the point again)
      await page.locator(tid("rumis-canvas")).scrollIntoViewIfNeeded();
      const q = await columnPoint(page, mx, my);
      await page.touchscreen.tap(q.x, q.y);
      secondTaps++;
    } else {
      await page.locator(tid("place-button")).tap();
      placeButtons++;
    }
    moves++;
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(move ${moves} placed; error: ${await errorText(page)})`);
  }
  const v = await api("GET", `/api/tables/${t1.id}`, undefined, t1.token);
  expect(v.over, `the phone game ended (${moves} moves)`).toBe(true);
  expect(secondTaps > 0 && placeButtons > 0, `placed by second tap ${secondTaps}, by Place ${placeButtons}`).toBe(true);
  // The move list names colour and player; the last move of each colour is marked.
  const first = (await page.locator(tid("history-0")).textContent()) ?? "";
  expect(first, "the move list names the colour").toMatch(/red|blue|green|yellow/);
  expect(first, "the move list names the player").toMatch(/Ana|greedy|bot/i);
  expect(await page.locator(`${tid("history")} li.last-move`).count(), "the last moves marked in the list").toBeGreaterThanOrEqual(2);
  await expect(page.locator(tid("score-note")), "the score line explains −11").toHaveText(/−11|-11/);
  await shot(page, "rumis-phone-over.png");
  log(`phone: a whole Rumis game, ${moves} moves by taps on the finder's marks (${secondTaps} second taps, ${placeButtons} Place): ${v.result?.text}`);
});

test("dismantle: a marked stone taken off by pointing and Place, and placed again", async ({ page, base, api }) => {
  const t1 = await practiceTable(api, { game: "rumis", rumis: { scenario: "colca", players: 2, variant: "dismantle" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 4 });
  // The build phase over the API (first legal placement), until I am to take a stone off
  // (a bound on my moves, not on the time the bot takes).
  let v: any = null;
  for (let moves = 0; moves < 200; moves++) {
    v = await viewWhen(api, t1.id, t1.token, (w) => w.over || (w.to_move === 0 && (w.rumis.removing || w.rumis.legal.length > 0)), "my turn");
    if (v.over || v.rumis.removing) break;
    const m = v.rumis.legal[0];
    await api("POST", `/api/tables/${t1.id}/actions`, { version: v.version, action: { type: "rumis_place", stone: m.stone, cells: m.cells } }, t1.token).catch(() => {});
  }
  expect(v && !v.over && v.rumis.removing, "the dismantling phase came to my turn").toBeTruthy();
  await openSeat(page, base, t1.id, t1.token);
  await page.click(tid("top-view"));
  await page.locator(tid("remove-note")).waitFor({ timeout: 10_000 });
  // Take a stone off: click one of the marked stones, then Place.
  const marks = (await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 10_000, "(removable stones marked)"))!;
  const [mx, my] = marks.split(";")[0].split(",").map(Number);
  // (the view may still be fitting its canvas: point again until the ghost shows)
  await expect
    .poll(
      async () => {
        const p = await columnPoint(page, mx, my);
        await page.mouse.move(p.x + 2, p.y + 2);
        await page.mouse.move(p.x, p.y);
        return page.locator(tid("ghost-status")).getAttribute("data-legal");
      },
      { message: "the stone to take off shown", timeout: 10_000, intervals: [200] },
    )
    .toBe("true");
  await shot(page, "rumis-dismantle-remove.png");
  const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
  await page.click(tid("place-button"));
  await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(taken off; error: ${await errorText(page)})`);
  const after = await api("GET", `/api/tables/${t1.id}`, undefined, t1.token);
  // R16: the stone taken off is in hand, or, when it fits nowhere outside the red line,
  // set aside at once and my colour is out (the bots play by their own random seed, so
  // which case comes differs from run to run).
  const setAside = !after.rumis.stone_in_hand && after.rumis.colours.some((c: any) => c.owner === 0 && c.out);
  expect(after.rumis.stone_in_hand || setAside, "a stone in hand after taking one off, or one set aside").toBeTruthy();
  // The stone in hand is selected; place it on a marked column outside the red line.
  if (after.rumis.stone_in_hand && after.to_move === 0 && after.rumis.legal.length) {
    await expect(page.locator(tid("orientation")), "the stone in hand selected").toHaveAttribute("data-stone", after.rumis.stone_in_hand, { timeout: 5_000 });
    const marks2 = (await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, "(where it fits)"))!;
    const [x2, y2] = marks2.split(";")[0].split(",").map(Number);
    const p = await columnPoint(page, x2, y2);
    await page.mouse.move(p.x, p.y);
    await expect(page.locator(tid("ghost-status")), "a green ghost for the rebuilt stone").toHaveAttribute("data-legal", "true", { timeout: 5_000 });
    await page.mouse.click(p.x, p.y);
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > after.version, 10_000, async () => `(rebuilt; error: ${await errorText(page)})`);
    log(`dismantling: took the ${after.rumis.stone_in_hand} off by clicking it and placed it again`);
  } else log("dismantling: took a stone off by clicking it (it fits nowhere: set aside)");
});


// Pictures instead of codes (issue #60 point 2): on a 390×844 phone and a desktop, in
// English and in German, the pages that show tiles and moves are visited in states
// that show them — the hints and a refusal at a Rumis and at a Rummikub table, the
// last move and the move list, a tutorial step's wrong move, a puzzle's solution, the
// replay with the reviews of a Rumis and a Rummikub game, the analysis board's best
// moves — and no visible text outside `[data-notation]` holds a tile code (`r6`, `J`)
// or a move of the notation (`I4 a3:1 …`). Where the notation is asked for (the record,
// the typed-move box) it is still there, marked. Screenshots of every state go to
// target/screenshots/notation-*.png.
//
// A server of this spec's own: a small review budget, so that a Rumis review takes
// seconds; bots move at once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, apiOf, Server, DESKTOP, PHONE, type Api } from "./fixtures";
import { describe, visibleCodes } from "./codes";
import { log, shot, tid, waitAttr } from "./helpers";

let server: Server | null = null;
let url = "";
let dir = "";
const api: Api = apiOf(() => url);
/** Finished games (bots only), reviewed before the tests open them. */
let rumisGame = "";
let rummikubGame = "";

async function finished(body: unknown): Promise<string> {
  const made = await api("POST", "/api/tables", body);
  await expect.poll(async () => (await api("GET", `/api/tables/${made.id}`)).over, { message: "the bots' game ends", timeout: 120_000, intervals: [200] }).toBe(true);
  return made.id;
}

async function reviewed(id: string): Promise<void> {
  await expect.poll(async () => (await api("GET", `/api/tables/${id}/review`)).status, { message: `the review of ${id}`, timeout: 180_000, intervals: [1000] }).toBe("ready");
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rumi-e2e-notation-"));
  server = new Server(dir, 0, null, false, ["--reviews-per-minute-per-address", "0", "--review-playouts", "300"]);
  await server.start();
  url = server.url;
  rumisGame = await finished({ game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "bot", bot: "greedy" }, { kind: "bot", bot: "random" }], seed: 22 });
  rummikubGame = await finished({ game: "rummikub", rummikub: { rules: "current", turn_seconds: null, rounds: 1 }, seats: [{ kind: "bot", bot: "greedy" }, { kind: "bot", bot: "random" }], seed: 21 });
  await reviewed(rumisGame);
  await reviewed(rummikubGame);
});

test.afterAll(async () => {
  await server?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Fails with every code found on the page, after the screenshot of the state. */
async function noCodes(page: Page, state: string, shotName: string): Promise<void> {
  await shot(page, `notation-${shotName}.png`);
  const found = await visibleCodes(page);
  expect(found, `codes shown (${state}):\n${describe(found)}`).toEqual([]);
}

const SHAPES = [
  { name: "desktop-en", options: { ...DESKTOP, locale: "en-US" } },
  { name: "desktop-de", options: { ...DESKTOP, locale: "de-DE" } },
  { name: "phone-en", options: { ...PHONE, locale: "en-US" } },
  { name: "phone-de", options: { ...PHONE, locale: "de-DE" } },
];

for (const shape of SHAPES) {
  test(`${shape.name}: tables, tutorials, puzzles, reviews and the analysis board show no codes`, async ({ open }) => {
    test.setTimeout(300_000);
    const page = await open({ ...shape.options, name: shape.name });
    const at = (s: string) => `${shape.name}-${s}`;

    // Rumis at a practice table: the ghost, a refusal of a typed move, the hints, the
    // bot's last move and the move list.
    {
      const made = await api("POST", "/api/tables", { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 21 });
      await page.goto(`${url}/t/${made.id}#token=${made.you.token}`);
      const turn = page.locator(tid("turn-status"));
      await expect(turn).toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
      // Two moves each, so that the list and the last move hold moves of both.
      for (let k = 0; k < 2; k++) {
        const before = Number(await turn.getAttribute("data-version"));
        const view = await api("GET", `/api/tables/${made.id}`, undefined, made.you.token);
        const p = view.rumis.legal[0];
        await api("POST", `/api/tables/${made.id}/actions`, { version: view.version, action: { type: "rumis_place", stone: p.stone, cells: p.cells } }, made.you.token);
        await waitAttr(page, "turn-status", "data-version", (v) => Number(v) > before + 1, 20_000, "(my move and the bot's)");
        await expect(turn).toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
      }
      await expect(page.locator(tid("last-move"))).toHaveAttribute("data-move", /\S/);
      // A stone picked and the ghost on its first legal place (by the keyboard).
      const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as const));
      const stone = stones.find(([, n]) => n > 0)![0];
      await page.click(tid(`tray-stone-${stone}`));
      await page.focus(tid("rumis-canvas"));
      await page.keyboard.press("ArrowDown");
      await expect(page.locator(tid("ghost-status"))).toHaveAttribute("data-legal", "true", { timeout: 5_000 });
      await noCodes(page, "Rumis: a legal ghost, the last move, the move list", at("rumis-ghost"));
      // A typed move the rules refuse: a stone of the supply with all its cubes in one cell.
      const typed = page.locator(tid("move-input"));
      if (!(await typed.isVisible())) await page.locator("details.typed > summary").click();
      await typed.fill(`${stone} ${Array(Number(stone[1])).fill("b1:1").join(" ")}`);
      await page.click(tid("move-submit"));
      await expect(page.locator(tid("error"))).toHaveAttribute("data-why", /\w/, { timeout: 10_000 });
      await expect(page.locator(tid("move-form")), "the typed-move box is notation").toHaveCount(1);
      expect(await page.locator(`[data-notation] ${tid("move-input")}`).count(), "the typed-move box marked data-notation").toBe(1);
      await noCodes(page, "Rumis: a refusal", at("rumis-refusal"));
      // The strongest bot's suggestions: drawn, and shown on the board when pointed at.
      await page.click(tid("rumis-hint"));
      await page.locator(tid("rumis-hint-0")).waitFor({ timeout: 30_000 });
      const hint = page.locator(tid("rumis-hint-0"));
      await expect(hint.locator("svg"), "the hint's stone drawn").toHaveCount(1);
      await hint.click();
      await expect(page.locator(tid("ghost-status")), "the hint shown as the ghost").toHaveAttribute("data-move", (await hint.getAttribute("data-move"))!);
      await noCodes(page, "Rumis: the hints", at("rumis-hints"));
    }

    // Rummikub at a practice table: the hint and a refused end of turn.
    {
      const made = await api("POST", "/api/tables", { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 2 });
      await page.goto(`${url}/t/${made.id}#token=${made.you.token}`);
      await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
      await page.click(tid("hint-button"));
      await page.locator(tid("hint-text")).waitFor({ timeout: 20_000 });
      // (this deal's best play lays six tiles with the joker: drawn, the joker by its face)
      await expect(page.locator(`${tid("hint-text")} .tile`), "the hint's tiles drawn").toHaveCount(6);
      await expect(page.locator(`${tid("hint-text")} .tile.joker`)).toHaveText("☺");
      await noCodes(page, "Rummikub: the hint", at("rummikub-hint"));
      // One tile as a set of its own, and the turn ended: refused (a set of one tile).
      const first = page.locator(`${tid("rack")} .tile`).first();
      await first.click();
      await page.click(tid("new-set"));
      await page.click(tid("end-turn"));
      await expect(page.locator(tid("error"))).toHaveAttribute("data-why", /\w/, { timeout: 10_000 });
      await noCodes(page, "Rummikub: a refusal", at("rummikub-refusal"));
    }

    // The tutorials: a step's wrong move with the engine's refusal.
    for (const game of ["rumis", "rummikub"]) {
      await page.goto(`${url}/learn/${game}`);
      await waitAttr(page, "tutorial-board", "data-ready", (v) => !!v, 20_000, "(the step's board)");
      await page.click(tid("tutorial-wrong"));
      await page.locator(tid("tutorial-shown")).waitFor({ timeout: 10_000 });
      await noCodes(page, `the ${game} tutorial's wrong move`, at(`tutorial-${game}`));
    }

    // Today's puzzle and its solution.
    {
      await page.goto(`${url}/puzzles`);
      await waitAttr(page, "puzzle-board", "data-ready", (v) => !!v, 20_000, "(the puzzle's board)");
      await page.click(tid("puzzle-show-solution"));
      await page.locator(tid("puzzle-solution-sets")).waitFor({ timeout: 20_000 });
      await noCodes(page, "a puzzle's solution", at("puzzle-solution"));
    }

    // A finished Rumis game: its replay with the review, a move of the list shown.
    {
      await page.goto(`${url}/replay/${rumisGame}?review=1`);
      await waitAttr(page, "review-section", "data-status", (s) => s === "ready", 60_000, "(the review)");
      await page.click(tid("review-move-3"));
      await expect(page.locator(tid("review-ghost"))).toHaveAttribute("data-index", "3");
      await noCodes(page, "a Rumis review", at("review-rumis"));
      // The record is the notation: there when opened, and marked.
      await page.locator("summary").filter({ hasText: /^(Protokoll|Record)$/ }).first().click();
      await expect(page.locator(`[data-notation] ${tid("record")}`), "the record marked data-notation").toBeVisible();
      await noCodes(page, "a Rumis replay with the record open", at("replay-record"));
      // The analysis board from there: the strongest bot's best moves, one shown.
      await page.click(tid("replay-analyse"));
      const board = page.locator(tid("analysis-rumis"));
      await expect(board).toBeVisible();
      await board.locator(tid("rumis-analysis-prev")).click();
      await board.locator(tid("rumis-analysis-ask")).click();
      await board.locator(tid("rumis-analysis-move-0")).waitFor({ timeout: 30_000 });
      await board.locator(tid("rumis-analysis-move-0")).click();
      await noCodes(page, "the Rumis analysis board's best moves", at("analysis-rumis"));
    }

    // A finished Rummikub game: its replay with the review, a turn opened.
    {
      await page.goto(`${url}/replay/${rummikubGame}?review=1`);
      await waitAttr(page, "review-section", "data-status", (s) => s === "ready", 60_000, "(the review)");
      await page.locator(`${tid("review-turn-0")} > summary`).click();
      await noCodes(page, "a Rummikub review", at("review-rummikub"));
    }

    // The Rummikub analysis board: a position clicked together and solved.
    {
      await page.goto(`${url}/analysis`);
      const board = page.locator(tid("analysis-rummikub"));
      await board.locator(tid("rk-analysis-new-set")).click();
      const palette = board.locator(tid("rk-palette"));
      for (const code of ["r1", "r2", "r3"]) await palette.locator(`[data-code="${code}"]`).click();
      await board.locator(tid("rk-analysis-rack-line")).getByRole("button").click();
      for (const code of ["r4", "J", "b9"]) await palette.locator(`[data-code="${code}"]`).click();
      await board.locator(tid("rk-analysis-solve")).click();
      await expect(board.locator(tid("rk-analysis-tiles"))).toHaveAttribute("data-tiles", /\d/, { timeout: 20_000 });
      await noCodes(page, "the Rummikub analysis board", at("analysis-rummikub"));
    }
    log(`${shape.name}: no codes outside the notation`);
  });
}

test("the check finds codes: a tile code, a move, and nothing inside data-notation", async ({ page, base }) => {
  await page.goto(base + "/");
  await page.evaluate(() => {
    const box = document.createElement("div");
    box.id = "codes-probe";
    box.innerHTML = `<p>set 1 [r6] has only 1 tile</p><p>Legal: I4 a3:1 a3:2 a3:3 a3:4</p><p>Joker: J</p><p data-notation>k9 k10 k11 and L4 b1:1</p><p hidden>o5 hidden</p><details><summary>x</summary>b7 in a closed box</details><p>straight four on A3 B3, level 1; red 6</p>`;
    document.body.append(box);
  });
  const found = await visibleCodes(page, "#codes-probe");
  expect(found.map((f) => [f.kind, f.text])).toEqual([
    ["tile", "set 1 [r6] has only 1 tile"],
    ["move", "Legal: I4 a3:1 a3:2 a3:3 a3:4"],
    ["tile", "Joker: J"],
  ]);
});

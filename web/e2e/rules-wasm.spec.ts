// The browser's set checks come from the rules crate compiled to WebAssembly
// (crates/rules-wasm, web/src/wasm/rules.ts): at the table a two-tile set is marked too
// short, a run with a joker is valid (arranged and counted as the rules read it), a
// mixed set is neither, each problem in the player's language. The module is fetched
// from the site (application/wasm, compiled under the site's Content-Security-Policy).
import type { Page } from "@playwright/test";
import { test, expect, type Api } from "./fixtures";
import { dragTile, openSeat, practiceTable, tid } from "./helpers";

/** Seed 5: I start, and my rack is r13 r13 b1 b3 b4 b8 b12 k9 o3 o4 o4 o9 o13 J
 * (`rumi rummikub deal --seed 5`). */
const SEED = 5;

const TEXTS = {
  en: { tooShort: "has only 2 tiles; a set needs at least 3", neither: "is neither a run nor a group" },
  de: { tooShort: "hat nur 2 Steine; eine Serie braucht mindestens 3", neither: "ist weder eine Reihe noch eine Gruppe" },
};

async function setsAreChecked(page: Page, base: string, api: Api, lang: "en" | "de"): Promise<void> {
  const modules: { url: string; status: number; type: string | undefined }[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith(".wasm")) modules.push({ url: r.url(), status: r.status(), type: r.headers()["content-type"] });
  });
  const table = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: SEED });
  const v = await api("GET", `/api/tables/${table.id}`, undefined, table.token);
  expect([v.to_move, [...v.rummikub.rack].sort().join(" ")], `seed ${SEED}: my first turn and my rack`).toEqual([0, "J b1 b12 b3 b4 b8 k9 o13 o3 o4 o4 o9 r13 r13"]);
  await openSeat(page, base, table.id, table.token);
  await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true");
  const rackTile = (code: string) => `${tid("rack")} [data-tile="${code}"]`;

  // The joker and b4: two tiles, too short.
  await dragTile(page, rackTile("J"), tid("new-set"));
  await dragTile(page, rackTile("b4"), tid("set-0"));
  await expect(page.locator(tid("set-0")), "a two-tile set").toHaveAttribute("data-valid", "false");
  await expect(page.locator(tid("set-problem-0"))).toHaveText(TEXTS[lang].tooShort);
  // b3 makes it a run, read at its best as 3-4-5: the joker goes to the top end, and
  // the meld counts it as the 5 it stands for.
  await dragTile(page, rackTile("b3"), tid("set-0"));
  await expect(page.locator(tid("set-0")), "a run with a joker").toHaveAttribute("data-valid", "true");
  await expect(page.locator(tid("set-0")), "the run in reading order").toHaveAttribute("data-tiles", "b3 b4 J");
  await expect(page.locator(tid("set-problem-0"))).toHaveCount(0);
  await expect(page.locator(tid("meld-value")), "b3 b4 J is worth 3 + 4 + 5").toHaveAttribute("data-value", "12");

  // o3 o4 b8: three tiles, neither a run nor a group.
  await dragTile(page, rackTile("o3"), tid("new-set"));
  await dragTile(page, rackTile("o4"), tid("set-1"));
  await dragTile(page, rackTile("b8"), tid("set-1"));
  await expect(page.locator(tid("set-1")), "a mixed set").toHaveAttribute("data-valid", "false");
  await expect(page.locator(tid("set-problem-1"))).toHaveText(TEXTS[lang].neither);
  await expect(page.locator(tid("meld-value")), "an invalid set counts nothing").toHaveAttribute("data-value", "12");

  expect(modules.length, "the rules module was fetched once").toBe(1);
  expect(modules[0], "the rules module").toMatchObject({ status: 200, type: "application/wasm" });
}

test("rules from WebAssembly: sets checked by the rules crate, in English", async ({ page, base, api }) => {
  await setsAreChecked(page, base, api, "en");
});

test("rules from WebAssembly: sets checked by the rules crate, in German", async ({ pageDe, base, api }) => {
  await setsAreChecked(pageDe, base, api, "de");
});

// Colours anyone can tell apart (issue #60 point 6), on a 390×844 phone:
// - in the top view (the one that scores) each column's height stands in its cell's
//   corner, beside the stone's symbol, never on it, and the symbol is large enough to
//   read;
// - the high-contrast setting in the table's menu gives the stones bold patterns at
//   once, and stays for the next visit; in German too.
// (That the six colours stay apart under simulated protanopia, deuteranopia and
// tritanopia is checked by `npm run build`: scripts/check-palette.mjs.)
import type { Page } from "@playwright/test";
import { test, expect, PHONE } from "./fixtures";
import { axeCheck, heights, practiceTable, shot, tid, viewWhen, waitAttr } from "./helpers";

/** A finished Rumis game of two bots, and its final view. */
async function finishedBotGame(api: Parameters<typeof practiceTable>[0]): Promise<{ id: string; view: any }> {
  const t = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2 }, seats: [{ kind: "bot", bot: "random" }, { kind: "bot", bot: "random" }] });
  const view = await viewWhen(api, t.id, null, (v) => v.over === true, "the bots finish");
  return { id: t.id, view };
}

async function openTopView(page: Page, base: string, id: string): Promise<void> {
  await page.goto(`${base}/t/${id}`);
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
  await page.locator(tid("top-view")).tap();
  await expect(page.locator(tid("top-view"))).toHaveAttribute("data-on", "true");
}

const overlap = (a: DOMRect, b: DOMRect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("colours: heights beside the symbols in the top view; the high-contrast setting, kept", async ({ open, base, api }) => {
  const { id, view } = await finishedBotGame(api);
  const page = await open({ ...PHONE, name: "colours-phone" });
  await openTopView(page, base, id);
  const hm = heights(view);
  let columns = 0;
  for (let y = 0; y < hm.length; y++)
    for (let x = 0; x < hm[y].length; x++) {
      if (hm[y][x] <= 0) continue;
      columns++;
      const boxes = await page.evaluate(([x, y]) => {
        const b = (window as any).__rumis.topViewBoxes(x, y) as { label: DOMRect; symbol: DOMRect };
        const plain = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
        return { label: plain(b.label), symbol: plain(b.symbol) };
      }, [x, y]);
      expect(overlap(boxes.label as DOMRect, boxes.symbol as DOMRect), `column ${x},${y}: the height covers the symbol ${JSON.stringify(boxes)}`).toBe(false);
      expect(boxes.symbol.width, `column ${x},${y}: the symbol is large enough to read on a phone`).toBeGreaterThanOrEqual(12);
    }
  expect(columns, "the bots built something").toBeGreaterThan(0);
  await shot(page, "colours-top-view-phone.png");

  // High contrast, from the table's menu: the board changes at once.
  const canvas = page.locator(tid("rumis-canvas"));
  const before = await canvas.screenshot();
  await page.locator(tid("table-menu-button")).tap();
  const toggle = page.locator(tid("high-contrast"));
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(page.locator("html")).toHaveAttribute("data-contrast", "high");
  await canvas.scrollIntoViewIfNeeded();
  await expect.poll(async () => Buffer.compare(await canvas.screenshot(), before) !== 0, { message: "the stones redrawn in high contrast" }).toBe(true);
  await shot(page, "colours-high-contrast-phone.png");
  // … and it stays for the next visit.
  await openTopView(page, base, id);
  await expect(page.locator("html")).toHaveAttribute("data-contrast", "high");
  await expect(page.locator(tid("high-contrast"))).toBeChecked();
  await page.locator(tid("high-contrast")).uncheck();
  await expect(page.locator("html")).toHaveAttribute("data-contrast", "normal");
});

test("colours: the high-contrast setting in German, only at Rumis tables", async ({ open, base, api }) => {
  const { id } = await finishedBotGame(api);
  const page = await open({ ...PHONE, locale: "de-DE", name: "colours-de" });
  await openTopView(page, base, id);
  await page.locator(tid("table-menu-button")).tap();
  const label = page.locator(".contrast-toggle");
  await expect(label).toHaveText("Hoher Kontrast (deutliche Muster auf den Steinen)");
  await expect(label).toBeVisible();
  const box = (await label.boundingBox())!;
  expect(box.height, "a thumb's target").toBeGreaterThanOrEqual(24);
  await axeCheck(page, "the table menu with the high-contrast setting (de)");
  // A Rummikub table's tiles carry their numbers: no such setting there.
  const rk = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }] });
  await page.goto(`${base}/t/${rk.id}#token=${rk.token}`);
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
  await expect(page.locator(tid("high-contrast"))).toBeHidden();
});

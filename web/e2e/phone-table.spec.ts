// The board is the screen (issue #60, point 1), on a 390×844 touch phone and a 1366×768
// desktop, in English and German, both games, measured at the start of my turn with
// getBoundingClientRect of `[data-area=board]` and `[data-area=rack]`:
// - board-screen rumis: the build at least 55 % of the screen's height, the tray in view
//   (and on the phone the turn buttons and Place), only the one-line player strip above
//   the build, no sideways scrolling, board actions at least 44 px on the phone and
//   every control at least 24 px; after the bot's move the line under the build draws
//   its stone with its colour and owner, and the build lights it up (`data-flashes`); the
//   ☰ button scrolls to the menu, where my seat's hand-over says what it is; a refused
//   typed move (desktop) is said over the build's lower edge.
// - board-screen rummikub: four players (three bots, seed 2), my draws over the API
//   until the table holds sets; my draw by the button, then the last bot's play said
//   under the table with its tiles drawn as tiles and lit on the table; then with six
//   sets and again with twelve or more: every set inside the table's box, the table at
//   least 40 % of the screen, the rack and the turn's buttons fully on it (also on a
//   phone held sideways, the rack beside the table); no keyboard help on the phone; a
//   refused play is said just above the rack.
// Screenshots in target/screenshots/board-screen/.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContextOptions, Page } from "@playwright/test";
import { test, expect, PHONE, PHONE_LANDSCAPE, type Api } from "./fixtures";
import { axeCheck, log, openSeat, practiceTable, SHOTS, tid, waitAttr } from "./helpers";

const DESKTOP_1366: BrowserContextOptions = { viewport: { width: 1366, height: 768 } };
const DIR = path.join(SHOTS, "board-screen");

type Box = { top: number; bottom: number; left: number; right: number; width: number; height: number };
type Measure = { board: Box | null; rack: Box | null; strip: Box | null; sets: Box[]; w: number; h: number; scrollWidth: number; scrollY: number; scale: string | null; wide: string[] };

async function measure(page: Page): Promise<Measure> {
  return page.evaluate(() => {
    const box = (e: Element | null) => {
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
    };
    const board = document.querySelector("[data-area=board]");
    return {
      board: box(board),
      rack: box(document.querySelector("[data-area=rack]")),
      strip: box(document.querySelector('[data-testid="table-strip"]')),
      sets: [...document.querySelectorAll("[data-area=board] .set")].map((e) => box(e)!),
      w: window.innerWidth,
      h: window.innerHeight,
      scrollWidth: document.scrollingElement!.scrollWidth,
      scrollY: window.scrollY,
      scale: (board as HTMLElement | null)?.dataset.scale ?? null,
      // (what sticks out sideways, when something does)
      wide: [...document.body.querySelectorAll<HTMLElement>("*")]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(-4)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}[${e.dataset.testid ?? ""}] ${Math.round(e.getBoundingClientRect().right)}`),
    };
  });
}

/** The layout once two looks 150 ms apart agree (the board fits itself after its first frames). */
async function settled(page: Page): Promise<Measure> {
  let last = "";
  let now: Measure | null = null;
  await expect
    .poll(
      async () => {
        now = await measure(page);
        const same = JSON.stringify(now) === last;
        last = JSON.stringify(now);
        return same;
      },
      { message: "the layout settles", timeout: 10_000, intervals: [150] },
    )
    .toBe(true);
  return now!;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

function inView(b: Box | null, m: Measure, what: string): void {
  expect(b, `${what} is missing`).toBeTruthy();
  expect(b!.top >= -1 && b!.bottom <= m.h + 1 && b!.left >= -1 && b!.right <= m.w + 1, `${what} (${Math.round(b!.left)},${Math.round(b!.top)}–${Math.round(b!.right)},${Math.round(b!.bottom)}) is not inside the ${m.w}×${m.h} screen`).toBe(true);
}

/** What every table shows: the board's share, only the player strip above it, the rack in
 * view, no sideways scrolling. */
function checkScreen(m: Measure, what: string, minShare: number, screen: { width: number; height: number }): void {
  expect(m.board, `${what}: no [data-area=board]`).toBeTruthy();
  expect(m.scrollY, `${what}: the page opened scrolled`).toBe(0);
  const share = m.board!.height / m.h;
  expect(share, `${what}: the board is ${pct(share)} of the screen's height`).toBeGreaterThanOrEqual(minShare);
  inView(m.board, m, `${what}: the board`);
  inView(m.rack, m, `${what}: the rack`);
  const overlap = m.rack!.left < m.board!.right - 1 && m.rack!.right > m.board!.left + 1 && m.rack!.top < m.board!.bottom - 1 && m.rack!.bottom > m.board!.top + 1;
  expect(overlap, `${what}: the rack covers the board`).toBe(false);
  expect(m.scrollWidth, `${what}: the page scrolls sideways (${m.wide.join(", ")})`).toBeLessThanOrEqual(m.w);
  // (a phone's page wider than its screen is zoomed out: the screen's size no longer holds)
  expect([m.w, m.h], `${what}: the page is wider than the screen (${m.wide.join(", ")})`).toEqual([screen.width, screen.height]);
  expect(m.strip, `${what}: no player strip`).toBeTruthy();
  expect(m.strip!.height, `${what}: the player strip is more than one line`).toBeLessThanOrEqual(56);
  expect(m.board!.top - m.strip!.bottom, `${what}: something stands between the player strip and the board`).toBeLessThanOrEqual(10);
  if (m.w < 700 || m.h < 500) expect(m.strip!.top, `${what}: something stands above the player strip on the phone`).toBeLessThanOrEqual(10);
}

/** Visible controls matching `selector` smaller than `min` px either way. */
async function smaller(page: Page, selector: string, min: number): Promise<string[]> {
  return page.evaluate(
    ([sel, min]) =>
      [...document.querySelectorAll<HTMLElement>(sel as string)]
        .filter((e) => e.checkVisibility({ visibilityProperty: true } as any) && e.getBoundingClientRect().width > 1)
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width < (min as number) - 0.5 || r.height < (min as number) - 0.5;
        })
        .map((e) => {
          const r = e.getBoundingClientRect();
          return `${e.dataset.testid ?? e.className ?? e.tagName} ${Math.round(r.width)}×${Math.round(r.height)}`;
        }),
    [selector, min],
  );
}

const BOARD_ACTIONS = ["[data-area=board] button", "[data-area=rack] button", "[data-area=rack] [role=button]", ".view-controls button", ".turn-controls button", ".place-row button", ".hint-row > button", ".rk-controls button", ".new-set", ".table-strip button"].join(", ");

async function checkTargets(page: Page, what: string, phone: boolean): Promise<void> {
  if (phone) expect(await smaller(page, BOARD_ACTIONS, 44), `${what}: board actions under 44 px on the phone`).toEqual([]);
  // WCAG 2.2 (2.5.8): 24 px everywhere.
  expect(await smaller(page, "button, select, input:not([type=hidden]), summary, [role=button]", 24), `${what}: controls under 24 px`).toEqual([]);
}

/** The shown refusal lies over the board's lower edge, above the rack. */
async function nextTo(page: Page, what: string): Promise<void> {
  const r = await page.evaluate(() => {
    const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
    const e = [...document.querySelectorAll<HTMLElement>('[data-testid="error"]')].find((x) => !x.hidden)!.getBoundingClientRect();
    return { error: { top: e.top, bottom: e.bottom, left: e.left, right: e.right }, board: box("[data-area=board]"), rack: box("[data-area=rack]") };
  });
  const { error: e, board: b } = r;
  expect(e.left >= b.left - 1 && e.right <= b.right + 1 && e.top >= b.top && e.bottom <= b.bottom + 40, `${what}: the refusal (${Math.round(e.top)}–${Math.round(e.bottom)}) is not by the board (${Math.round(b.top)}–${Math.round(b.bottom)})`).toBe(true);
}

async function myTurn(page: Page, after = -1): Promise<number> {
  await expect(page.locator(tid("turn-status")), "my turn").toHaveAttribute("data-my-turn", "true", { timeout: 30_000 });
  return Number(await waitAttr(page, "turn-status", "data-version", (v) => Number(v) > after, 30_000, "(my turn's view)"));
}

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(DIR, { recursive: true });
  await page.screenshot({ path: path.join(DIR, name) });
}

/** The seat's view over the API once it is this seat's turn again. */
async function apiTurn(api: Api, id: string, token: string): Promise<any> {
  let v: any = null;
  await expect
    .poll(
      async () => {
        v = await api("GET", `/api/tables/${id}`, undefined, token);
        return v.over || (v.to_move === v.you && !v.rummikub?.round_over);
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBe(true);
  return v;
}

async function openBoth(open: (o: BrowserContextOptions & { name?: string }) => Promise<Page>, locale: string, tag: string) {
  const phone = await open({ ...PHONE, locale, name: `phone-${tag}` });
  const desk = await open({ ...DESKTOP_1366, locale, name: `desktop-${tag}` });
  return { phone, desk };
}

for (const locale of ["en-US", "de-DE"]) {
  const lang = locale.slice(0, 2);

  test(`board-screen rumis (${lang}): the build fills the phone and the desktop, the last move drawn and lit`, async ({ open, base, api }) => {
    const t = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 21 });
    // Two moves each, so that both colours stand on the board.
    for (let i = 0; i < 2; i++) {
      const v = await apiTurn(api, t.id, t.token);
      const p = v.rumis.legal[Math.floor(v.rumis.legal.length / 2)];
      await api("POST", `/api/tables/${t.id}/actions`, { version: v.version, action: { type: "rumis_place", stone: p.stone, cells: p.cells } }, t.token);
    }
    await apiTurn(api, t.id, t.token);
    const { phone, desk } = await openBoth(open, locale, `rumis-${lang}`);
    for (const [page, name] of [[phone, "phone"], [desk, "desktop"]] as const) {
      await openSeat(page, base, t.id, t.token);
      await page.locator(tid("rumis-canvas")).waitFor();
      await myTurn(page);
      const m = await settled(page);
      const what = `Rumis, ${name}, ${lang}`;
      log(`${what}: the build ${Math.round(m.board!.height)} px of ${m.h} (${pct(m.board!.height / m.h)}), the tray ${Math.round(m.rack!.top)}–${Math.round(m.rack!.bottom)}`);
      checkScreen(m, what, 0.55, page.viewportSize()!);
      const l = await page.evaluate(() => {
        const r = (s: string) => document.querySelector(s)?.getBoundingClientRect() ?? null;
        return { place: r('[data-testid="place-button"]'), turn: r('[data-testid="turn-controls"]'), stone: r('[data-area="rack"] .tray-stone') };
      });
      for (const [k, b] of Object.entries(l)) inView(b as Box | null, m, `${what}: ${k}`);
      await checkTargets(page, what, name === "phone");
      if (name === "phone") {
        expect(await page.locator(tid("view-help")).textContent(), "no mouse or keys in the touch help").not.toMatch(/wheel|Mausrad|Enter|arrow|Pfeil/i);
        await axeCheck(page, what);
      } else {
        // A refusal is said by the build (over its lower edge), not at the page's top.
        await page.fill(tid("move-input"), "L4 a1:9 b1:9 c1:9 a2:9");
        await page.click(tid("move-submit"));
        await waitAttr(page, "error", "hidden", (x) => x === null, 5_000, "(the refusal shown)");
        await nextTo(page, what);
      }
      await shot(page, `rumis-${name}-${lang}.png`);
      if (name === "phone") {
        // The menu: sound, notifications, my seat to a bot (not my level), below the board.
        await page.locator(tid("table-menu-button")).tap();
        await expect(page.locator("#table-menu-title"), "the menu's heading focused").toBeFocused();
        await expect(page.locator(tid("hand-own")), "my seat's hand-over says what it is").toContainText(lang === "de" ? "Ein Bot kann deinen Platz spielen" : "A bot can play your seat");
        const menu = await page.evaluate(() => {
          const r = (s: string) => document.querySelector(s)!.getBoundingClientRect();
          return { title: r("#table-menu-title").top, hand: r('[data-testid="hand-own"]').bottom, h: innerHeight };
        });
        expect(menu.title >= 0 && menu.hand <= menu.h, `the menu scrolled into sight (${JSON.stringify(menu)})`).toBe(true);
        await shot(page, `rumis-phone-menu-${lang}.png`);
        await page.evaluate(() => window.scrollTo(0, 0));
      }
    }
    // My move (over the API); the bot answers: the line under the build says it, drawn.
    const before = Number(await phone.locator(tid("turn-status")).getAttribute("data-version"));
    const flashes = Number((await phone.locator(tid("rumis-viewport")).getAttribute("data-flashes")) ?? 0);
    const v = await apiTurn(api, t.id, t.token);
    const p = v.rumis.legal[0];
    await api("POST", `/api/tables/${t.id}/actions`, { version: v.version, action: { type: "rumis_place", stone: p.stone, cells: p.cells } }, t.token);
    await myTurn(phone, before + 1);
    const after = await api("GET", `/api/tables/${t.id}`, undefined, t.token);
    const botColour = after.rumis.colours.find((c: any) => c.owner === 1).colour;
    const lastMove = after.rumis.history[after.rumis.history.length - 1];
    const line = phone.locator(tid("last-move"));
    await expect(line, "the last move is the bot's").toHaveAttribute("data-move", lastMove);
    await expect(line).toHaveAttribute("data-colour", botColour);
    await expect(line, "the bot named in the last move").toContainText("Inti");
    await expect(line, "the stone by its name and where, by the board's labels").toContainText(new RegExp(`[a-zäöü]{3,} ${lang === "de" ? "auf" : "on"} [A-Z]\\d`, "i"));
    await expect(line.locator("svg"), "the stone drawn").toHaveCount(1);
    await expect(line.locator(`.chip[data-colour="${botColour}"]`), "the bot's colour").toHaveCount(1);
    const lb = (await line.boundingBox())!;
    expect(lb.height, "the last move is one line").toBeLessThanOrEqual(34);
    const board = (await phone.locator("[data-area=board]").boundingBox())!;
    expect(lb.y - (board.y + board.height), "the last move right under the build").toBeLessThanOrEqual(8);
    await expect.poll(async () => Number(await phone.locator(tid("rumis-viewport")).getAttribute("data-flashes")), { message: "the build lit the bot's stone up" }).toBeGreaterThan(flashes);
    await shot(phone, `rumis-phone-last-move-${lang}.png`);
    log(`Rumis ${lang}: the bot's move said under the build: "${(await line.textContent())?.trim()}"`);
  });

  test(`board-screen rummikub (${lang}): every set in sight over the docked rack, the bot's play drawn`, async ({ open, base, api }) => {
    const t = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }, { kind: "bot", bot: "greedy" }, { kind: "bot", bot: "greedy" }], seed: 2 });
    // (seed 2: after my third draw the bots have laid one set; after my fourth, six)
    for (let i = 0; i < 3; i++) {
      const v = await apiTurn(api, t.id, t.token);
      await api("POST", `/api/tables/${t.id}/actions`, { version: v.version, action: { type: "draw" } }, t.token);
    }
    await apiTurn(api, t.id, t.token);
    const { phone, desk } = await openBoth(open, locale, `rummikub-${lang}`);
    for (const page of [phone, desk]) await openSeat(page, base, t.id, t.token);
    // My draw by the button; the bots play: the last one's play said and drawn.
    const v0 = await myTurn(phone);
    await myTurn(desk);
    await phone.locator(tid("draw")).tap();
    await myTurn(phone, v0 + 1);
    const after = await api("GET", `/api/tables/${t.id}`, undefined, t.token);
    const event = after.rummikub.last_event;
    expect(event.code, "seed 2: the last bot laid tiles").toMatch(/played|melded/);
    const tiles: string[] = event.params.tiles;
    const line = phone.locator(tid("last"));
    await expect(line).toHaveAttribute("data-tiles", tiles.join(" "));
    await expect(line.locator(".tile"), "the bot's tiles drawn as tiles").toHaveCount(tiles.length);
    await expect(line, "the bot named").toContainText(/Inti|Killa|Wayra/);
    expect((await line.boundingBox())!.height, "the last turn is one line").toBeLessThanOrEqual(36);
    expect(await phone.locator("[data-area=board] .tile.laid").count(), "the laid tiles lit on the table").toBeGreaterThan(0);
    log(`Rummikub ${lang}: the bot's play said under the table: "${(await line.textContent())?.trim()}" with ${tiles.length} tiles drawn`);
    await myTurn(desk, v0 + 1);
    const sets = after.rummikub.table.length;
    expect(sets, "sets on the table at the start of my turn").toBeGreaterThanOrEqual(4);
    for (const [page, name] of [[phone, "phone"], [desk, "desktop"]] as const) {
      const m = await settled(page);
      const what = `Rummikub, ${name}, ${lang}, ${sets} sets`;
      log(`${what}: the table ${Math.round(m.board!.height)} px of ${m.h} (${pct(m.board!.height / m.h)}), tiles at ${m.scale}, the rack ${Math.round(m.rack!.top)}–${Math.round(m.rack!.bottom)}`);
      checkScreen(m, what, 0.4, page.viewportSize()!);
      expect(m.sets.length, `${what}: sets drawn`).toBeGreaterThanOrEqual(sets);
      for (const [i, s] of m.sets.entries()) expect(s.top >= m.board!.top - 1 && s.bottom <= m.board!.bottom + 1 && s.left >= m.board!.left - 1 && s.right <= m.board!.right + 1, `${what}: set ${i} (${Math.round(s.top)}–${Math.round(s.bottom)}) is outside the table (${Math.round(m.board!.top)}–${Math.round(m.board!.bottom)})`).toBe(true);
      inView(await page.locator(tid("draw")).boundingBox().then((b) => b && { top: b.y, bottom: b.y + b.height, left: b.x, right: b.x + b.width, width: b.width, height: b.height }), m, `${what}: the draw button`);
      await checkTargets(page, what, name === "phone");
      await shot(page, `rummikub-${name}-${lang}.png`);
      if (name === "phone") {
        await expect(page.locator(tid("key-help")), "no keyboard help on a touch screen").toBeHidden();
        await axeCheck(page, what);
        // A refused play (a set of one tile) is said just above the rack.
        await page.locator(`[data-area=rack] [data-tile]`).first().tap();
        await page.locator(tid("new-set")).tap();
        await page.locator(tid("end-turn")).tap();
        await waitAttr(page, "error", "hidden", (x) => x === null, 5_000, "(the refusal shown)");
        await nextTo(page, what);
        await shot(page, `rummikub-phone-refused-${lang}.png`);
        await page.locator(tid("reset-turn")).tap();
      }
    }
    {
      // A phone held sideways: the rack and its buttons beside the table.
      const side = await open({ ...PHONE_LANDSCAPE, locale, name: `landscape-rummikub-${lang}` });
      await openSeat(side, base, t.id, t.token);
      await myTurn(side);
      const m = await settled(side);
      const what = `Rummikub, phone sideways, ${lang}, ${sets} sets`;
      log(`${what}: the table ${Math.round(m.board!.height)} px of ${m.h} (${pct(m.board!.height / m.h)}), tiles at ${m.scale}`);
      checkScreen(m, what, 0.4, side.viewportSize()!);
      for (const [i, s] of m.sets.entries()) expect(s.bottom <= m.board!.bottom + 1 && s.right <= m.board!.right + 1, `${what}: set ${i} is outside the table`).toBe(true);
      const draw = (await side.locator(tid("draw")).boundingBox())!;
      inView({ top: draw.y, bottom: draw.y + draw.height, left: draw.x, right: draw.x + draw.width, width: draw.width, height: draw.height }, m, `${what}: the draw button`);
      await shot(side, `rummikub-phone-sideways-${lang}.png`);
    }
    // Many sets: the tiles shrink until every one is in sight.
    let v = after;
    while (v.rummikub.table.length < 12 && !v.over) {
      await api("POST", `/api/tables/${t.id}/actions`, { version: v.version, action: { type: "draw" } }, t.token);
      v = await apiTurn(api, t.id, t.token);
    }
    expect(v.rummikub.table.length, "seed 2 reaches twelve sets").toBeGreaterThanOrEqual(12);
    await myTurn(phone, v.version - 1);
    await waitAttr(phone, "turn-status", "data-version", (x) => Number(x) === v.version);
    const m = await settled(phone);
    const what = `Rummikub, phone, ${lang}, ${v.rummikub.table.length} sets`;
    log(`${what}: the table ${Math.round(m.board!.height)} px (${pct(m.board!.height / m.h)}), tiles at ${m.scale}`);
    checkScreen(m, what, 0.4, phone.viewportSize()!);
    for (const [i, s] of m.sets.entries()) expect(s.top >= m.board!.top - 1 && s.bottom <= m.board!.bottom + 1 && s.right <= m.board!.right + 1, `${what}: set ${i} is outside the table`).toBe(true);
    await checkTargets(phone, what, true);
    await shot(phone, `rummikub-phone-many-${lang}.png`);
  });
}

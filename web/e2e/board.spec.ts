// At the table (issue #46, points 3, 4, 5, 8 and 12):
// - board-palette: the six Rumis colours stay apart under simulated protanopia,
//   deuteranopia and tritanopia (scripts/check-palette.mjs: Machado et al. 2009 in
//   linear RGB, CIEDE2000 ≥ 10 for every pair), and the page marks each colour with its
//   symbol in the score table, the move list and the seat pills.
// - board-phone: Rumis on a 390×844 touch screen, in English and German: the build and
//   the tray on one screen without scrolling (portrait, then landscape 844×390), no
//   control out of its card, the touch help speaks of fingers, pinch zooms and two
//   fingers turn the view, tap a stone, tap a mark, confirm; screenshots (also under
//   simulated deuteranopia) in docs/screenshots/.
// - board-towers: a mark hidden behind a tower is picked by pointing at it; a refusal
//   does not move the board.
// - board-log: the Rummikub move log (a bot's turn with its tiles drawn as tiles, your
//   draw, a time-out), in English and German, the rack under the table on a phone.
// - board-replay: a click on a move of the Rumis replay's list jumps there; a finished
//   Rummikub game's replay shows every rack at every step.
import fs from "node:fs";
import path from "node:path";
import type { CDPSession, Page } from "@playwright/test";
import { test, expect, repo, DESKTOP, PHONE, PHONE_LANDSCAPE, type Api } from "./fixtures";
// @ts-expect-error (a plain .mjs script of the build, without types)
import { check as checkPalette, MIN_DE2000 } from "../scripts/check-palette.mjs";
import { axeCheck, columnPoint, DOCS_SHOTS, log, openSeat, practiceTable, SHOTS, tid, viewWhen, waitAttr } from "./helpers";

const palette = JSON.parse(fs.readFileSync(path.join(repo, "web/src/rumis/palette.json"), "utf8")).colours;

/** Deuteranopia (Machado 2009, severity 1.0) as an SVG colour matrix in linear RGB. */
const DEUTERANOPIA = "0.367322 0.860646 -0.227968 0 0 0.280085 0.672501 0.047413 0 0 -0.011820 0.042940 0.968881 0 0 0 0 0 1 0";

/** A screenshot of what is on the screen, for the docs (and the run's own folder). */
async function docShot(page: Page, name: string) {
  fs.mkdirSync(DOCS_SHOTS, { recursive: true });
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(DOCS_SHOTS, name) });
  fs.copyFileSync(path.join(DOCS_SHOTS, name), path.join(SHOTS, name));
}

/** Controls that stick out of the card they sit in, or out of the screen's width. */
async function outOfCard(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cards = [".seat", ".rk-player", ".tray-stone", ".place-row", ".turn-controls", ".view-controls", ".rk-controls", ".rk-dock", ".fairness", ".table-head", ".hint-row", ".typed", ".move-form", ".rumis-side", ".rumis-main", ".rk-main", ".rk-aside", ".result", ".waiting", ".take-back", ".my-link", ".turn-signal", "main"].join(",");
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    const scrolls = (e: Element) => {
      const cs = getComputedStyle(e);
      return (/(auto|scroll|hidden)/.test(cs.overflowX) && e.scrollWidth > e.clientWidth + 1) || (/(auto|scroll|hidden)/.test(cs.overflowY) && e.scrollHeight > e.clientHeight + 1);
    };
    for (const el of document.querySelectorAll<HTMLElement>("button, select, input, a, summary, [role=button]")) {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2 || !el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true } as any)) continue;
      const name = `${el.tagName.toLowerCase()}[${el.dataset.testid ?? (el.textContent ?? "").trim().slice(0, 20)}]`;
      const card = el.parentElement?.closest(cards);
      if (!card) continue;
      // (inside a scroller, the control is clipped on purpose: the scroller is the card)
      let inScroller = false;
      for (let p: Element | null = el.parentElement; p && p !== card.parentElement; p = p.parentElement) if (scrolls(p)) inScroller = true;
      if (inScroller) continue;
      const c = card.getBoundingClientRect();
      if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1)
        out.push(`${name} (${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}) out of ${card.className || card.tagName} (${Math.round(c.left)},${Math.round(c.top)}–${Math.round(c.right)},${Math.round(c.bottom)})`);
      if (r.right > vw + 1 || r.left < -1) out.push(`${name} out of the screen's width`);
    }
    if (document.documentElement.scrollWidth > vw + 1) out.push(`the page is ${document.documentElement.scrollWidth} px wide on a ${vw} px screen`);
    return out;
  });
}

type Rect = { top: number; bottom: number; left: number; right: number; height: number } | null;
type Layout = { canvas: Rect; tray: Rect; stone: Rect; place: Rect; turn: Rect; scrollY: number; w: number; h: number };

/** The rectangles of the build, the tray, the turn buttons and Place, with the screen. */
async function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const rect = (sel: string) => {
      const e = document.querySelector(sel);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
    };
    return {
      canvas: rect('[data-testid="rumis-canvas"]'),
      tray: rect('[data-testid="tray"]'),
      stone: rect('[data-testid="tray"] .tray-stone'),
      place: rect('[data-testid="place-button"]'),
      turn: rect('[data-testid="turn-controls"]'),
      scrollY: window.scrollY,
      w: window.innerWidth,
      h: window.innerHeight,
    };
  });
}

/** The layout once it no longer changes between two looks (the view fits its canvas after its first frames). */
async function settledLayout(page: Page): Promise<Layout> {
  let last = "";
  let now: Layout | null = null;
  await expect
    .poll(
      async () => {
        now = await layout(page);
        const same = JSON.stringify(now) === last;
        last = JSON.stringify(now);
        return same;
      },
      { message: "the layout settles", timeout: 10_000, intervals: [100] },
    )
    .toBe(true);
  return now!;
}

function inside(r: Rect, l: Layout, what: string) {
  expect(r, `${what} is missing`).toBeTruthy();
  expect(r!.top >= -1 && r!.bottom <= l.h + 1 && r!.left >= -1 && r!.right <= l.w + 1, `${what} (${Math.round(r!.top)}–${Math.round(r!.bottom)} px) is not on the ${l.w}×${l.h} screen`).toBe(true);
}

async function myTurn(page: Page) {
  await expect(page.locator(tid("turn-status")), "my turn").toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
}

/** Two fingers on the build through the DevTools protocol: `from` and `to` give each
 * finger's offset from the canvas's centre at the start and the end. */
async function twoFingers(page: Page, cdp: CDPSession, from: number[][], to: number[][], steps = 10) {
  const c = (await page.locator(tid("rumis-canvas")).boundingBox())!;
  const cx = c.x + c.width / 2;
  const cy = c.y + c.height / 2;
  const at = (k: number) => [0, 1].map((f) => ({ x: cx + from[f][0] + ((to[f][0] - from[f][0]) * k) / steps, y: cy + from[f][1] + ((to[f][1] - from[f][1]) * k) / steps, id: f }));
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
  for (let k = 1; k <= steps; k++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(k) });
    await page.waitForTimeout(16); // (a finger moves over frames)
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const camera = (page: Page) => page.evaluate(() => (window as any).__rumis.cameraState() as { distance: number; azimuth: number });
const hiddenColumn = (page: Page, x: number, y: number) => page.evaluate(([a, b]) => (window as any).__rumis.hiddenColumn(a, b) as boolean, [x, y]);

// ---- point 5: the palette ------------------------------------------------------------

test("board-palette: the six colours apart for colour-blind eyes, each with its symbol", async ({ page, base, api }) => {
  const { rows, bad } = checkPalette();
  expect(bad, "the Rumis colours that are too close").toEqual([]);
  log(`palette: every pair of the 6 colours ΔE2000 ≥ ${MIN_DE2000} under simulated colour blindness (${rows.join("; ")})`);
  // The score table, the seat pills and the move list carry each colour's symbol.
  // Six players (Huaca): all six colours on one page.
  const t = await practiceTable(api, { game: "rumis", rumis: { scenario: "huaca", players: 6, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, ...Array.from({ length: 5 }, () => ({ kind: "bot", bot: "greedy" }))], seed: 3 });
  await openSeat(page, base, t.id, t.token);
  await myTurn(page);
  const v = await api("GET", `/api/tables/${t.id}`, undefined, t.token);
  const p = v.rumis.legal[0];
  await api("POST", `/api/tables/${t.id}/actions`, { version: v.version, action: { type: "rumis_place", stone: p.stone, cells: p.cells } }, t.token);
  await page.locator(tid("history-5")).waitFor({ timeout: 20_000 });
  const seen = await page.evaluate(() => {
    const chips = (sel: string) => [...document.querySelectorAll<HTMLElement>(`${sel} .chip`)].map((c) => [c.dataset.colour!, c.dataset.symbol!, getComputedStyle(c).backgroundColor, getComputedStyle(c, "::before").content]);
    return { scores: chips('[data-testid="rumis-scores"]'), seats: chips('[data-testid="seat-list"]'), history: chips('[data-testid="history"]'), turn: chips('[data-testid="turn-status"]') };
  });
  const rgb = (hex: string) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;
  for (const [where, list] of Object.entries(seen)) {
    if (where === "turn" && list.length === 0) continue; // (between turns)
    expect(list.length, `colour markers in the ${where}`).toBeGreaterThan(0);
    for (const [colour, symbol, bg, content] of list) {
      const want = palette[colour];
      expect(want && symbol === want.symbol && bg === rgb(want.hex) && content.includes(want.symbol), `the ${where} marks ${colour} with ${symbol} on ${bg} (${content}), not ${want?.symbol} on ${want?.hex}`).toBe(true);
    }
  }
  expect(new Set(seen.scores.map(([c]) => c)).size, "colours in the score table").toBe(6);
  expect(new Set(seen.scores.map(([, sym]) => sym)).size, "symbols in the score table").toBe(6);
  await page.screenshot({ path: path.join(SHOTS, "rumis-six-colours.png") });
  const owners = v.rumis.colours.filter((c: any) => c.owner !== null);
  for (const c of owners) expect(seen.seats.some(([colour]) => colour === c.colour), `seat ${c.owner}'s pill lacks ${c.colour}`).toBe(true);
  log(`palette: symbols on ${seen.scores.length} score rows, ${seen.seats.length} seat pills, ${seen.history.length} moves`);
});

// ---- point 3: Rumis on a phone -------------------------------------------------------

for (const locale of ["en-US", "de-DE"]) {
  test(`board-phone (${locale}): the build, tray and buttons on one phone screen, pinch and turn`, async ({ open, base, api }) => {
    const de = locale.startsWith("de");
    const page = await open({ ...PHONE, locale, name: `phone-${locale}` });
    const t = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 21 });
    // A few moves each first, so that both colours stand on the board.
    await playMoves(api, t.id, t.token, 3);
    await openSeat(page, base, t.id, t.token);
    await page.locator(tid("rumis-canvas")).waitFor();
    await myTurn(page);
    // The touch help speaks of fingers, not of the mouse wheel.
    const help = (await page.locator(tid("view-help")).textContent()) ?? "";
    expect(help, "the touch help").toMatch(/Finger/i);
    expect(help, "the touch help").not.toMatch(/wheel|Mausrad|right-drag|rechts ziehen/i);
    let l = await settledLayout(page);
    expect(l.scrollY, "the page opened scrolled").toBe(0);
    inside(l.canvas, l, "the build");
    inside(l.tray, l, "the tray");
    inside(l.stone, l, "the first stone of the tray");
    inside(l.place, l, "the Place button");
    inside(l.turn, l, "the turn buttons");
    expect(l.canvas!.height, "the build's height").toBeGreaterThanOrEqual(180);
    expect(await outOfCard(page), "controls out of their cards on a phone").toEqual([]);
    // Tap a stone, tap a mark, confirm with Place: no scrolling on the way.
    const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as const));
    const [stone] = stones.filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])[0];
    await page.locator(tid(`tray-stone-${stone}`)).tap();
    const marks = (await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`))!;
    const [mx, my] = marks.split(";")[0].split(",").map(Number);
    const p = await columnPoint(page, mx, my);
    await page.touchscreen.tap(p.x, p.y);
    await expect(page.locator(tid("ghost-status")), "a green ghost after tapping a mark").toHaveAttribute("data-legal", "true", { timeout: 5_000 });
    l = await layout(page);
    expect(l.scrollY, "tapping a stone and a mark scrolled the page").toBe(0);
    inside(l.place, l, "the Place button with a ghost shown");
    await docShot(page, `rumis-phone-${de ? "de" : "en"}.png`);
    await axeCheck(page, `a Rumis table on a phone (${locale})`);
    {
      // The same screen as someone with deuteranopia sees it.
      await page.evaluate((m) => {
        document.body.insertAdjacentHTML("beforeend", `<svg aria-hidden="true" width="0" height="0" style="position:absolute"><filter id="cvd-deuteranopia" color-interpolation-filters="linearRGB"><feColorMatrix type="matrix" values="${m}"/></filter></svg>`);
        document.documentElement.style.filter = "url(#cvd-deuteranopia)";
      }, DEUTERANOPIA);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await docShot(page, `rumis-phone-deuteranopia-${de ? "de" : "en"}.png`);
      await page.evaluate(() => (document.documentElement.style.filter = ""));
    }
    await page.locator(tid("place-button")).tap();
    await waitAttr(page, "turn-status", "data-version", (v) => Number(v) > version, 10_000, "(the tapped stone placed)");
    log(`phone ${locale}: ${stone} placed by tap on the stone, tap on the mark ${mx},${my}, tap on Place, without scrolling`);
    // Pinch to zoom in, then two fingers moved together turn the view.
    const cdp = await page.context().newCDPSession(page);
    const c0 = await camera(page);
    await twoFingers(page, cdp, [[-40, 0], [40, 0]], [[-70, 0], [70, 0]]);
    const c1 = await camera(page);
    expect(c1.distance, `a pinch did not zoom in (distance ${c0.distance.toFixed(2)} → ${c1.distance.toFixed(2)})`).toBeLessThan(c0.distance * 0.9);
    await twoFingers(page, cdp, [[-60, 0], [60, 0]], [[-30, 0], [90, 0]]);
    const c2 = await camera(page);
    expect(Math.abs(c2.azimuth - c1.azimuth), `two fingers did not turn the view (azimuth ${c1.azimuth.toFixed(2)} → ${c2.azimuth.toFixed(2)})`).toBeGreaterThan(0.1);
    log(`phone ${locale}: pinch ${c0.distance.toFixed(1)} → ${c1.distance.toFixed(1)}, two-finger turn ${c1.azimuth.toFixed(2)} → ${c2.azimuth.toFixed(2)} rad`);
    // Landscape: the same table turned sideways.
    const lp = await open({ ...PHONE_LANDSCAPE, locale, name: `landscape-${locale}` });
    await openSeat(lp, base, t.id, t.token);
    await lp.locator(tid("rumis-canvas")).waitFor();
    await myTurn(lp);
    const ll = await settledLayout(lp);
    expect(ll.scrollY, "the landscape page opened scrolled").toBe(0);
    inside(ll.canvas, ll, "the build (landscape)");
    inside(ll.tray, ll, "the tray (landscape)");
    inside(ll.stone, ll, "the first stone (landscape)");
    inside(ll.place, ll, "the Place button (landscape)");
    expect(ll.canvas!.height, "the build's height in landscape").toBeGreaterThanOrEqual(140);
    expect(await outOfCard(lp), "controls out of their cards in landscape").toEqual([]);
    await docShot(lp, `rumis-phone-landscape-${de ? "de" : "en"}.png`);
    log(`phone ${locale}: portrait build ${Math.round(l.canvas!.height)} px + tray, landscape build ${Math.round(ll.canvas!.height)} px + tray, all on screen`);
  });
}

// ---- point 4: pointing through towers -----------------------------------------------

test("board-towers: a mark behind a tower is picked; a refusal moves nothing", async ({ page, base, api }) => {
  // Two people, both played over the API until a mark hides behind a tower; Ana's page watches.
  const made = await api("POST", "/api/tables", { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "human", name: "Bo" }] });
  const invite = new URLSearchParams(made.seats[1].invite.split("#")[1]).get("token");
  const tokens = [made.you.token, (await api("POST", `/api/tables/${made.id}/claim`, {}, invite)).token];
  await openSeat(page, base, made.id, tokens[0]);
  await page.locator(tid("rumis-canvas")).waitFor();
  let found: { stone: string; mx: number; my: number; version: number } | null = null;
  for (let turn = 0; turn < 40 && !found; turn++) {
    const v = await api("GET", `/api/tables/${made.id}`, undefined, tokens[0]);
    if (v.over) break;
    if (v.to_move === 0) {
      await waitAttr(page, "turn-status", "data-version", (x) => Number(x) === v.version, 10_000, "(the page at the API's version)");
      // Each stone of the tray in turn: a mark whose column is hidden behind a cube?
      const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.filter((e) => Number((e as HTMLElement).dataset.legal) > 0).map((e) => (e as HTMLElement).dataset.testid!.replace("tray-stone-", "")));
      for (const stone of stones) {
        await page.click(tid(`tray-stone-${stone}`));
        const marks = (await page.locator(tid("rumis-viewport")).getAttribute("data-marks")) ?? "";
        for (const m of marks.split(";").filter(Boolean)) {
          const [mx, my] = m.split(",").map(Number);
          if (await hiddenColumn(page, mx, my)) {
            found = { stone, mx, my, version: v.version };
            break;
          }
        }
        if (found) break;
        await page.click(tid(`tray-stone-${stone}`)); // (put it back)
      }
      if (found) break;
    }
    // Build high: the placement with the highest cube.
    const seat = v.to_move;
    const mine = await api("GET", `/api/tables/${made.id}`, undefined, tokens[seat]);
    const top = (m: any) => Math.max(...m.cells.map((c: number[]) => c[2]));
    const best = [...mine.rumis.legal].sort((a, b) => top(b) - top(a) || b.cells.length - a.cells.length)[0];
    await api("POST", `/api/tables/${made.id}/actions`, { version: mine.version, action: { type: "rumis_place", stone: best.stone, cells: best.cells } }, tokens[seat]);
  }
  expect(found, "no mark was ever hidden behind a tower in 40 turns").toBeTruthy();
  const f = found!;
  expect(await outOfCard(page), "controls out of their cards at a Rumis table on a desktop").toEqual([]);
  const before = await layout(page);
  const p = await columnPoint(page, f.mx, f.my);
  await page.mouse.move(p.x, p.y);
  await expect(page.locator(tid("ghost-status")), `pointing at the hidden mark ${f.mx},${f.my} gives a green ghost`).toHaveAttribute("data-legal", "true", { timeout: 5_000 });
  const said = (await page.locator(tid("ghost-status")).getAttribute("data-move")) ?? "";
  const cells = [...said.matchAll(/([a-z])(\d+):(\d+)/g)].map((m) => [m[1].charCodeAt(0) - 97, Number(m[2]) - 1]);
  expect(cells.some(([cx, cy]) => cx === f.mx && cy === f.my), `pointing at the mark ${f.mx},${f.my} behind a tower shows ${said}`).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, "rumis-mark-behind-tower.png") });
  // A refusal: the board and the tray stay where they were.
  await page.fill(tid("move-input"), "L4 a1:9 b1:9 c1:9 a2:9");
  await page.click(tid("move-submit"));
  await waitAttr(page, "error", "hidden", (hd) => hd === null, 5_000, "(the refusal shown)");
  const after = await layout(page);
  expect(Math.abs(after.canvas!.top - before.canvas!.top) < 0.5 && Math.abs(after.tray!.top - before.tray!.top) < 0.5, `a refusal moved the board (${before.canvas!.top} → ${after.canvas!.top}) or the tray (${before.tray!.top} → ${after.tray!.top})`).toBe(true);
  // A red ghost with its reason: the same.
  const marked = new Set(((await page.locator(tid("rumis-viewport")).getAttribute("data-marks")) ?? "").split(";"));
  const v0 = await api("GET", `/api/tables/${made.id}`, undefined, tokens[0]);
  let red: [number, number] | null = null;
  for (let y = 0; y < v0.rumis.scenario.depth && !red; y++) for (let x = 0; x < v0.rumis.scenario.width && !red; x++) if (!marked.has(`${x},${y}`) && !(await hiddenColumn(page, x, y))) red = [x, y];
  if (red) {
    const q = await columnPoint(page, red[0], red[1]);
    await page.mouse.move(q.x, q.y);
    await expect(page.locator(tid("ghost-status")), `a red ghost on ${red}`).toHaveAttribute("data-legal", "false", { timeout: 5_000 });
    const refused = await layout(page);
    expect(Math.abs(refused.canvas!.top - before.canvas!.top) < 0.5 && Math.abs(refused.tray!.top - before.tray!.top) < 0.5 && Math.abs(refused.place!.top - before.place!.top) < 0.5, "a red ghost's reason moved the board, the tray or Place").toBe(true);
    log(`towers: a red ghost on ${red} ("${await page.locator(tid("ghost-status")).textContent()}") moved nothing`);
    await page.mouse.move(p.x, p.y);
    await expect(page.locator(tid("ghost-status")), "back on the hidden mark").toHaveAttribute("data-legal", "true", { timeout: 5_000 });
  }
  await page.mouse.click(p.x, p.y);
  await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > f.version, 10_000, "(the stone placed on the hidden mark)");
  const placed = await api("GET", `/api/tables/${made.id}`, undefined, tokens[0]);
  const last = placed.rumis.history[placed.rumis.history.length - 1];
  expect(last, "the click on the hidden mark placed the stone").toMatch(new RegExp(`^${f.stone}`));
  await axeCheck(page, "a Rumis table with a refusal shown");
  log(`towers: the mark ${f.mx},${f.my} behind a tower was picked (${last}); a refusal left the board at ${Math.round(after.canvas!.top)} px`);
});

// ---- point 8: the Rummikub move log -----------------------------------------------------

const CODE = /\b[rbko]\d{1,2}\b/;

type LogLine = { kind: string; player: string; tiles: string; n: number; changed: number; fresh: boolean; text: string; shown: number; labels: (string | null)[] };

async function logLines(page: Page): Promise<LogLine[]> {
  return page.locator(`${tid("rk-log")} li.log-line`).evaluateAll((els) =>
    els.map((e) => {
      const d = (e as HTMLElement).dataset;
      return { kind: d.kind!, player: d.player!, tiles: d.tiles!, n: Number(d.n), changed: Number(d.changed), fresh: e.classList.contains("fresh"), text: e.textContent ?? "", shown: e.querySelectorAll(".tile").length, labels: [...e.querySelectorAll(".tile")].map((t) => t.getAttribute("aria-label")) };
    }),
  );
}

for (const locale of ["en-US", "de-DE"]) {
  test(`board-log (${locale}): the bot's turn with its tiles, my draw, changed sets`, async ({ open, base, api }) => {
    const de = locale.startsWith("de");
    const page = await open({ ...DESKTOP, locale, name: `log-${locale}` });
    const t = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 8 });
    await openSeat(page, base, t.id, t.token);
    let botLine: LogLine | null = null;
    let ownDraw: LogLine | null = null;
    let changedLine: LogLine | null = null;
    for (let turn = 0; turn < 40 && !(botLine && ownDraw && changedLine); turn++) {
      await myTurn(page);
      const lines = await logLines(page);
      botLine ??= lines.find((l) => l.player === "1" && (l.kind === "laid" || l.kind === "melded") && l.n > 0) ?? null;
      ownDraw ??= lines.find((l) => l.player === "0" && l.kind === "drew") ?? null;
      changedLine ??= lines.find((l) => l.changed > 0) ?? null;
      if (botLine && ownDraw && changedLine) break;
      // The bot's lines since my last action are marked new and stay until I act.
      const fresh = lines.filter((l) => l.fresh);
      expect(fresh.filter((l) => l.player === "0"), "my own turn is marked new to me").toEqual([]);
      const rack = Number(await page.locator(tid("rack")).getAttribute("data-count"));
      await page.click(tid("draw"));
      await waitAttr(page, "rack", "data-count", (c) => Number(c) !== rack, 10_000, "(my draw)");
    }
    expect(botLine, "the bot never laid tiles in 40 turns").toBeTruthy();
    expect(ownDraw, "my draw has no line").toBeTruthy();
    const bot = botLine!;
    const own = ownDraw!;
    // The bot's line: its name, the count, its tiles drawn as tiles named in my language.
    const botName = ((await page.locator(`${tid("seat-1")} .name`).textContent()) ?? "").trim();
    expect(bot.text, "the bot's line names the bot").toContain(botName);
    expect([bot.shown, bot.tiles.split(" ").length], `the bot's line shows its ${bot.n} tiles`).toEqual([bot.n, bot.n]);
    const colourWords = de ? /^(rot|blau|schwarz|orange|Joker) ?\d*$/ : /^(red|blue|black|orange|joker) ?\d*$/;
    expect(bot.labels.filter((a) => !colourWords.test(a ?? "")), "tiles not named in the language").toEqual([]);
    const want = de ? (bot.kind === "melded" ? /ist mit \d+ Steinen? herausgekommen/ : /hat \d+ Steine? gelegt/) : bot.kind === "melded" ? /came out with \d+ tiles?/ : /laid \d+ tiles?/;
    expect(bot.text, "the bot's line").toMatch(want);
    expect(own.shown, "my draw's line shows the tile").toBe(1);
    expect(own.text, "my draw's line").toMatch(de ? /Du hast gezogen/ : /You drew/);
    // No tile codes with English letters in the log or the event line.
    const logText = (await page.locator(tid("rk-log")).textContent()) ?? "";
    const lastText = (await page.locator(tid("last")).textContent()) ?? "";
    expect(logText.match(CODE)?.[0], "a tile code in the log").toBeUndefined();
    expect(lastText.match(CODE)?.[0], "a tile code in the event line").toBeUndefined();
    const lines = await logLines(page);
    expect(changedLine, "no turn that changed sets on the table in 40 turns").toBeTruthy();
    const changed = changedLine!;
    expect(changed.text, "a turn that changed sets").toMatch(de ? /und \d+ Serien? umgebaut/ : /and changed \d+ sets?/);
    expect(await outOfCard(page), "controls out of their cards at a Rummikub table on a desktop").toEqual([]);
    await page.locator(tid("rk-log")).scrollIntoViewIfNeeded();
    await docShot(page, `rummikub-log-${de ? "de" : "en"}.png`);
    await axeCheck(page, `a Rummikub table with its move log (${locale})`);
    log(`log ${locale}: ${lines.length} lines; the bot: "${bot.text}"; me: "${own.text}"; "${changed.text}"`);
  });
}

test("board-log: a time-out's line; on a phone the rack stays under the table", async ({ page, phone, base, api }) => {
  // A time-out has its line: "Ana ran out of time: 3 tiles".
  const t = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: 2 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 4 });
  await openSeat(page, base, t.id, t.token);
  let timeout: LogLine | null = null;
  await expect
    .poll(
      async () => {
        timeout = (await logLines(page)).find((l) => l.kind === "timeout" && l.player === "0") ?? null;
        return timeout !== null;
      },
      { message: "a time-out's line", timeout: 60_000, intervals: [100] },
    )
    .toBe(true);
  expect(timeout!.text, "the time-out's line").toMatch(/Ana ran out of time: 3 tiles/);
  log(`log: "${timeout!.text}"`);
  // A phone: the table above, the rack at the bottom of the screen.
  const t2 = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 8 });
  await openSeat(phone, base, t2.id, t2.token);
  await myTurn(phone);
  const box = await phone.evaluate(() => {
    const r = (s: string) => document.querySelector(s)!.getBoundingClientRect();
    return { table: r('[data-testid="table"]'), rack: r('[data-testid="rack"]'), dock: r('[data-testid="rk-dock"]'), h: innerHeight };
  });
  expect(box.table.top, "the rack is below the table on a phone").toBeLessThan(box.rack.top);
  expect(box.dock.bottom <= box.h + 1 && box.rack.top >= 0, `the rack (${Math.round(box.rack.top)}–${Math.round(box.rack.bottom)}) is not on the ${box.h} px screen`).toBe(true);
  expect(await outOfCard(phone), "controls out of their cards at a Rummikub table on a phone").toEqual([]);
  await axeCheck(phone, "a Rummikub table on a phone");
  await phone.screenshot({ path: path.join(SHOTS, "rummikub-phone.png") });
  log(`log: on a phone the rack stays on screen (${Math.round(box.rack.top)}–${Math.round(box.rack.bottom)} of ${box.h} px) under the table`);
});

// ---- point 12: replays -------------------------------------------------------------------

/** My turn with a placement to make, or the game over. */
const myRumisTurn = (v: any) => v.over || (v.to_move === v.you && v.rumis.legal.length > 0);

/** Plays `n` of this seat's moves over the API (the middle legal placement each), waiting for the others. */
async function playMoves(api: Api, id: string, token: string, n: number) {
  for (let played = 0; played < n; played++) {
    const v = await viewWhen(api, id, token, myRumisTurn, "my turn");
    if (v.over) return;
    const p = v.rumis.legal[Math.floor(v.rumis.legal.length / 2)];
    await api("POST", `/api/tables/${id}/actions`, { version: v.version, action: { type: "rumis_place", stone: p.stone, cells: p.cells } }, token);
  }
}

async function playRumisOut(api: Api, id: string, token: string) {
  // (a bound on my moves, not on the time the bot takes)
  for (let moves = 0; moves < 200; moves++) {
    const v = await viewWhen(api, id, token, myRumisTurn, "my turn or the end");
    if (v.over) return v;
    const p = v.rumis.legal[0];
    await api("POST", `/api/tables/${id}/actions`, { version: v.version, action: { type: "rumis_place", stone: p.stone, cells: p.cells } }, token).catch(() => null);
  }
  throw new Error("the Rumis game did not end in 200 of my moves");
}

test("board-replay: a click on a move jumps there; a finished Rummikub replay shows every rack", async ({ page, base, api }) => {
  const t = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 5 });
  const end = await playRumisOut(api, t.id, t.token);
  await page.goto(`${base}/replay/${t.id}`);
  await page.locator(tid("history-jump-0")).waitFor({ timeout: 15_000 });
  const moves = end.rumis.history.length;
  await expect(page.locator(`${tid("history")} li`), "the replay's list shows every move").toHaveCount(moves);
  const pick = Math.min(3, moves - 1);
  await page.click(tid(`history-jump-${pick}`));
  await expect(page.locator(tid(`history-${pick}`)), "the clicked move is the one on show").toHaveAttribute("aria-current", "step", { timeout: 5_000 });
  const step = Number(await page.locator(tid("replay-step")).getAttribute("data-index"));
  const replay = await api("GET", `/api/tables/${t.id}/replay`);
  expect(replay.steps[step].rumis.history.length, `clicking move ${pick + 1} showed step ${step}`).toBe(pick + 1);
  await expect(page.locator(tid("cube-count")), `the build's cubes at step ${step}`).toHaveAttribute("data-count", String(replay.steps[step].rumis.cubes.length));
  await axeCheck(page, "the Rumis replay after a click on a move");
  log(`replay: a click on move ${pick + 1} of ${moves} jumped to step ${step}`);
  // Rummikub: a finished game (Ana hands her seat to a bot at once), every rack at every step.
  const r = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null, rounds: 1 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 6 });
  await api("POST", `/api/tables/${r.id}/seats/0/bot`, { bot: "greedy" }, r.token);
  await expect.poll(async () => (await api("GET", `/api/tables/${r.id}`)).over, { message: "the bots' Rummikub game ends", timeout: 90_000, intervals: [200] }).toBe(true);
  const doc = await api("GET", `/api/tables/${r.id}/replay`);
  expect(Array.isArray(doc.racks) && doc.racks.length === doc.steps.length, "the finished game's replay has a rack for every step").toBe(true);
  expect(doc.racks[0].map((x: string[]) => x.length), "the first step's racks").toEqual([14, 14]);
  doc.steps.forEach((s: any, i: number) => expect(doc.racks[i].map((x: string[]) => x.length), `step ${i}: the racks match the rack sizes`).toEqual(s.rummikub.rack_sizes));
  await page.goto(`${base}/replay/${r.id}`);
  await page.locator(tid("replay-rack-0")).waitFor({ timeout: 15_000 });
  const at = Math.min(5, doc.steps.length - 1);
  await page.fill(tid("replay-slider"), String(at));
  for (const seat of [0, 1]) {
    await expect(page.locator(tid(`replay-rack-${seat}`)), `step ${at}: seat ${seat}'s rack`).toHaveAttribute("data-tiles", doc.racks[at][seat].join(" "));
    await expect(page.locator(`${tid(`replay-rack-${seat}`)} .tile`), "the rack's tiles drawn as tiles").toHaveCount(doc.racks[at][seat].length);
  }
  const logCount = await page.locator(`${tid("rk-log")} li.log-line`).count();
  expect(logCount, `the replay's log at step ${at}`).toBeGreaterThanOrEqual(Math.min(at, 1));
  await axeCheck(page, "the Rummikub replay with every rack");
  await page.screenshot({ path: path.join(SHOTS, "rummikub-replay-racks.png"), fullPage: true });
  log(`replay: Rummikub, ${doc.steps.length} steps, every rack shown (step ${at}: ${doc.racks[at].map((x: string[]) => x.length).join(" + ")} tiles), ${logCount} log lines`);
  // A running game has no replay, so no rack leaves the server.
  const running = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 7 });
  const res = await fetch(`${base}/api/tables/${running.id}/replay`);
  const body = await res.text();
  expect(res.ok, `a running game's replay answered ${res.status}`).toBe(false);
  expect(body, "a running game's replay").not.toContain("racks");
});

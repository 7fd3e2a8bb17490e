// Scenarios of issue #46 at the table (points 3, 4, 5, 8 and 12), run by run.mjs:
// - board-palette: the six Rumis colours stay apart under simulated protanopia,
//   deuteranopia and tritanopia (scripts/check-palette.mjs: Machado et al. 2009 in
//   linear RGB, CIEDE2000 ≥ 10 for every pair), and the page marks each colour with its
//   symbol in the score table, the move list and the seat pills.
// - board-phone: Rumis on a 390×844 touch screen, in English and German: the build and
//   the tray on one screen without scrolling (portrait, then landscape 844×390), no
//   control out of its card, the touch help speaks of fingers, pinch zooms and two
//   fingers turn the view, tap a stone, tap a mark, confirm; screenshots (also under
//   simulated deuteranopia).
// - board-towers: a mark hidden behind a tower is picked by pointing at it; a refusal
//   does not move the board.
// - board-log: the Rummikub move log (a bot's turn with its tiles drawn as tiles, your
//   draw, a time-out), in English and German, the rack under the table on a phone.
// - board-replay: a click on a move of the Rumis replay's list jumps there; a finished
//   Rummikub game's replay shows every rack at every step.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check as checkPalette, MIN_DE2000 } from "../scripts/check-palette.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const docs = path.join(repo, "docs/screenshots");
const targetShots = path.join(repo, "target/screenshots");
const palette = JSON.parse(fs.readFileSync(path.join(repo, "web/src/rumis/palette.json"), "utf8")).colours;

/** Deuteranopia (Machado 2009, severity 1.0) as an SVG colour matrix in linear RGB. */
const DEUTERANOPIA = "0.367322 0.860646 -0.227968 0 0 0.280085 0.672501 0.047413 0 0 -0.011820 0.042940 0.968881 0 0 0 0 0 1 0";

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const PHONE_LANDSCAPE = { viewport: { width: 844, height: 390 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export function boardScenarios(x) {
  const { check, log, tid, api, waitAttr, waitText, watchPage, axeCheck, practiceTable, openSeat, meldFrom } = x;

  /** A screenshot of what is on the screen, for the docs (and the run's own folder). */
  async function docShot(page, name) {
    fs.mkdirSync(docs, { recursive: true });
    fs.mkdirSync(targetShots, { recursive: true });
    await page.screenshot({ path: path.join(docs, name) });
    fs.copyFileSync(path.join(docs, name), path.join(targetShots, name));
    log(`screenshot docs/screenshots/${name}`);
  }

  /** Controls that stick out of the card they sit in, or out of the screen's width. */
  async function outOfCard(page) {
    return page.evaluate(() => {
      const cards = [".seat", ".rk-player", ".tray-stone", ".place-row", ".turn-controls", ".view-controls", ".rk-controls", ".rk-dock", ".fairness", ".table-head", ".hint-row", ".typed", ".move-form", ".rumis-side", ".rumis-main", ".rk-main", ".rk-aside", ".result", ".waiting", ".take-back", ".my-link", ".turn-signal", "main"].join(",");
      const out = [];
      const vw = document.documentElement.clientWidth;
      const scrolls = (e) => {
        const cs = getComputedStyle(e);
        return (/(auto|scroll|hidden)/.test(cs.overflowX) && e.scrollWidth > e.clientWidth + 1) || (/(auto|scroll|hidden)/.test(cs.overflowY) && e.scrollHeight > e.clientHeight + 1);
      };
      for (const el of document.querySelectorAll("button, select, input, a, summary, [role=button]")) {
        const r = el.getBoundingClientRect();
        if (r.width < 2 || r.height < 2 || !el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
        const name = `${el.tagName.toLowerCase()}[${el.dataset.testid ?? (el.textContent ?? "").trim().slice(0, 20)}]`;
        const card = el.parentElement?.closest(cards);
        if (!card) continue;
        // (inside a scroller, the control is clipped on purpose: the scroller is the card)
        let inScroller = false;
        for (let p = el.parentElement; p && p !== card.parentElement; p = p.parentElement) if (scrolls(p)) inScroller = true;
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

  /** The rectangles of the build, the tray, the turn buttons and Place, with the screen. */
  async function layout(page) {
    return page.evaluate(() => {
      const rect = (sel) => {
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

  function inside(r, l, what) {
    check(r, `${what} is missing`);
    check(r.top >= -1 && r.bottom <= l.h + 1 && r.left >= -1 && r.right <= l.w + 1, `${what} (${Math.round(r.top)}–${Math.round(r.bottom)} px) is not on the ${l.w}×${l.h} screen`);
  }

  async function myTurn(page) {
    await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(my turn)");
  }

  /** Two fingers on the build through the DevTools protocol: `from` and `to` give each
   * finger's offset from the canvas's centre at the start and the end. */
  async function twoFingers(page, cdp, from, to, steps = 10) {
    const c = await page.locator(tid("rumis-canvas")).boundingBox();
    const cx = c.x + c.width / 2;
    const cy = c.y + c.height / 2;
    const at = (k) => [0, 1].map((f) => ({ x: cx + from[f][0] + ((to[f][0] - from[f][0]) * k) / steps, y: cy + from[f][1] + ((to[f][1] - from[f][1]) * k) / steps, id: f }));
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at(0) });
    for (let k = 1; k <= steps; k++) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: at(k) });
      await page.waitForTimeout(16);
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForTimeout(100);
  }

  const camera = (page) => page.evaluate(() => window.__rumis.cameraState());

  // ---- point 5: the palette ------------------------------------------------------

  async function paletteScenario(browser, base, problems) {
    const { rows, bad } = checkPalette();
    check(bad.length === 0, `the Rumis colours are too close: ${bad.join("; ")}`);
    log(`palette: every pair of the 6 colours ΔE2000 ≥ ${MIN_DE2000} under simulated colour blindness (${rows.join("; ")})`);
    // The score table, the seat pills and the move list carry each colour's symbol.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const page = await ctx.newPage();
    watchPage(page, "palette", problems);
    // Six players (Huaca): all six colours on one page.
    const t = await practiceTable(base, { game: "rumis", rumis: { scenario: "huaca", players: 6, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, ...Array.from({ length: 5 }, () => ({ kind: "bot", bot: "greedy" }))], seed: 3 });
    await openSeat(page, base, t.id, t.token);
    await myTurn(page);
    const v = await api(base, "GET", `/api/tables/${t.id}`, undefined, t.token);
    const p = v.rumis.legal[0];
    await api(base, "POST", `/api/tables/${t.id}/actions`, { version: v.version, action: { stone: p.stone, cells: p.cells } }, t.token);
    await page.locator(tid("history-5")).waitFor({ timeout: 20_000 });
    const seen = await page.evaluate(() => {
      const chips = (sel) => [...document.querySelectorAll(`${sel} .chip`)].map((c) => [c.dataset.colour, c.dataset.symbol, getComputedStyle(c).backgroundColor, getComputedStyle(c, "::before").content]);
      return { scores: chips('[data-testid="rumis-scores"]'), seats: chips('[data-testid="seat-list"]'), history: chips('[data-testid="history"]'), turn: chips('[data-testid="turn-status"]') };
    });
    const rgb = (hex) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;
    for (const [where, list] of Object.entries(seen)) {
      if (where === "turn" && list.length === 0) continue; // (between turns)
      check(list.length > 0, `no colour marker in the ${where}`);
      for (const [colour, symbol, bg, content] of list) {
        const want = palette[colour];
        check(want && symbol === want.symbol && bg === rgb(want.hex) && content.includes(want.symbol), `the ${where} marks ${colour} with ${symbol} on ${bg} (${content}), not ${want?.symbol} on ${want?.hex}`);
      }
    }
    check(new Set(seen.scores.map(([c]) => c)).size === 6 && new Set(seen.scores.map(([, sym]) => sym)).size === 6, `the score table shows ${seen.scores.length} colours`);
    await page.screenshot({ path: path.join(targetShots, "rumis-six-colours.png") });
    const owners = v.rumis.colours.filter((c) => c.owner !== null);
    for (const c of owners) check(seen.seats.some(([colour]) => colour === c.colour), `seat ${c.owner}'s pill lacks ${c.colour}`);
    log(`palette: symbols on ${seen.scores.length} score rows, ${seen.seats.length} seat pills, ${seen.history.length} moves`);
    await ctx.close();
  }

  // ---- point 3: Rumis on a phone ------------------------------------------------------

  async function phoneOne(browser, base, problems, locale) {
    const de = locale.startsWith("de");
    const ctx = await browser.newContext({ ...PHONE, locale });
    const page = await ctx.newPage();
    watchPage(page, `phone-${locale}`, problems);
    const t = await practiceTable(base, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 21 });
    // A few moves each first, so that both colours stand on the board.
    await playMoves(base, t.id, t.token, 3);
    await openSeat(page, base, t.id, t.token);
    await page.locator(tid("rumis-canvas")).waitFor();
    await myTurn(page);
    await page.waitForTimeout(300);
    // The touch help speaks of fingers, not of the mouse wheel.
    const help = await page.locator(tid("view-help")).textContent();
    check(/Finger/i.test(help) && !/wheel|Mausrad|right-drag|rechts ziehen/i.test(help), `the touch help says "${help}"`);
    let l = await layout(page);
    check(l.scrollY === 0, "the page opened scrolled");
    inside(l.canvas, l, "the build");
    inside(l.tray, l, "the tray");
    inside(l.stone, l, "the first stone of the tray");
    inside(l.place, l, "the Place button");
    inside(l.turn, l, "the turn buttons");
    check(l.canvas.height >= 180, `the build is only ${Math.round(l.canvas.height)} px high`);
    const out = await outOfCard(page);
    check(out.length === 0, `controls out of their cards on a phone: ${out.join("; ")}`);
    // Tap a stone, tap a mark, confirm with Place: no scrolling on the way.
    const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [e.dataset.testid.replace("tray-stone-", ""), Number(e.dataset.legal)]));
    const [stone] = stones.filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])[0];
    await page.locator(tid(`tray-stone-${stone}`)).tap();
    const marks = await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, `(marks for ${stone})`);
    const [mx, my] = marks.split(";")[0].split(",").map(Number);
    const p = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [mx, my]);
    await page.touchscreen.tap(p.x, p.y);
    await waitAttr(page, "ghost-status", "data-legal", (v) => v === "true", 5_000, "(a green ghost after tapping a mark)");
    l = await layout(page);
    check(l.scrollY === 0, "tapping a stone and a mark scrolled the page");
    inside(l.place, l, "the Place button with a ghost shown");
    await docShot(page, `rumis-phone-${de ? "de" : "en"}.png`);
    await axeCheck(page, `a Rumis table on a phone (${locale})`);
    {
      // The same screen as someone with deuteranopia sees it.
      await page.evaluate((m) => {
        document.body.insertAdjacentHTML("beforeend", `<svg aria-hidden="true" width="0" height="0" style="position:absolute"><filter id="cvd-deuteranopia" color-interpolation-filters="linearRGB"><feColorMatrix type="matrix" values="${m}"/></filter></svg>`);
        document.documentElement.style.filter = "url(#cvd-deuteranopia)";
      }, DEUTERANOPIA);
      await page.waitForTimeout(200);
      await docShot(page, `rumis-phone-deuteranopia-${de ? "de" : "en"}.png`);
      await page.evaluate(() => (document.documentElement.style.filter = ""));
    }
    await page.locator(tid("place-button")).tap();
    await waitAttr(page, "turn-status", "data-version", (v) => Number(v) > version, 10_000, "(the tapped stone placed)");
    log(`phone ${locale}: ${stone} placed by tap on the stone, tap on the mark ${mx},${my}, tap on Place, without scrolling`);
    // Pinch to zoom in, then two fingers moved together turn the view.
    const cdp = await ctx.newCDPSession(page);
    const c0 = await camera(page);
    await twoFingers(page, cdp, [[-40, 0], [40, 0]], [[-70, 0], [70, 0]]);
    const c1 = await camera(page);
    check(c1.distance < c0.distance * 0.9, `a pinch did not zoom in (distance ${c0.distance.toFixed(2)} → ${c1.distance.toFixed(2)})`);
    await twoFingers(page, cdp, [[-60, 0], [60, 0]], [[-30, 0], [90, 0]]);
    const c2 = await camera(page);
    check(Math.abs(c2.azimuth - c1.azimuth) > 0.1, `two fingers did not turn the view (azimuth ${c1.azimuth.toFixed(2)} → ${c2.azimuth.toFixed(2)})`);
    log(`phone ${locale}: pinch ${c0.distance.toFixed(1)} → ${c1.distance.toFixed(1)}, two-finger turn ${c1.azimuth.toFixed(2)} → ${c2.azimuth.toFixed(2)} rad`);
    // Landscape: the same table turned sideways.
    const land = await browser.newContext({ ...PHONE_LANDSCAPE, locale });
    const lp = await land.newPage();
    watchPage(lp, `landscape-${locale}`, problems);
    await openSeat(lp, base, t.id, t.token);
    await lp.locator(tid("rumis-canvas")).waitFor();
    await myTurn(lp);
    await lp.waitForTimeout(300);
    const ll = await layout(lp);
    check(ll.scrollY === 0, "the landscape page opened scrolled");
    inside(ll.canvas, ll, "the build (landscape)");
    inside(ll.tray, ll, "the tray (landscape)");
    inside(ll.stone, ll, "the first stone (landscape)");
    inside(ll.place, ll, "the Place button (landscape)");
    check(ll.canvas.height >= 140, `the build is only ${Math.round(ll.canvas.height)} px high in landscape`);
    const outL = await outOfCard(lp);
    check(outL.length === 0, `controls out of their cards in landscape: ${outL.join("; ")}`);
    await docShot(lp, `rumis-phone-landscape-${de ? "de" : "en"}.png`);
    log(`phone ${locale}: portrait build ${Math.round(l.canvas.height)} px + tray, landscape build ${Math.round(ll.canvas.height)} px + tray, all on screen`);
    await land.close();
    await ctx.close();
  }

  async function phoneScenario(browser, base, problems) {
    await phoneOne(browser, base, problems, "en-US");
    await phoneOne(browser, base, problems, "de-DE");
  }

  // ---- point 4: pointing through towers ------------------------------------------

  async function towersScenario(browser, base, problems) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const page = await ctx.newPage();
    watchPage(page, "towers", problems);
    // Two people, both played over the API until a mark hides behind a tower; Ana's page watches.
    const made = await api(base, "POST", "/api/tables", { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "human", name: "Bo" }] });
    const invite = new URLSearchParams(made.seats[1].invite.split("#")[1]).get("token");
    const tokens = [made.you.token, (await api(base, "POST", `/api/tables/${made.id}/claim`, {}, invite)).token];
    await openSeat(page, base, made.id, tokens[0]);
    await page.locator(tid("rumis-canvas")).waitFor();
    let found = null;
    for (let turn = 0; turn < 40 && !found; turn++) {
      const v = await api(base, "GET", `/api/tables/${made.id}`, undefined, tokens[0]);
      if (v.over) break;
      if (v.to_move === 0) {
        await waitAttr(page, "turn-status", "data-version", (x) => Number(x) === v.version, 10_000, "(the page at the API's version)");
        // Each stone of the tray in turn: a mark whose column is hidden behind a cube?
        const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.filter((e) => Number(e.dataset.legal) > 0).map((e) => e.dataset.testid.replace("tray-stone-", "")));
        for (const stone of stones) {
          await page.click(tid(`tray-stone-${stone}`));
          const marks = (await page.locator(tid("rumis-viewport")).getAttribute("data-marks")) ?? "";
          for (const m of marks.split(";").filter(Boolean)) {
            const [mx, my] = m.split(",").map(Number);
            if (await page.evaluate(([a, b]) => window.__rumis.hiddenColumn(a, b), [mx, my])) {
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
      const mine = await api(base, "GET", `/api/tables/${made.id}`, undefined, tokens[seat]);
      const best = [...mine.rumis.legal].sort((a, b) => Math.max(...b.cells.map((c) => c[2])) - Math.max(...a.cells.map((c) => c[2])) || b.cells.length - a.cells.length)[0];
      await api(base, "POST", `/api/tables/${made.id}/actions`, { version: mine.version, action: { stone: best.stone, cells: best.cells } }, tokens[seat]);
    }
    check(found, "no mark was ever hidden behind a tower in 40 turns");
    const outDesk = await outOfCard(page);
    check(outDesk.length === 0, `controls out of their cards at a Rumis table on a desktop: ${outDesk.join("; ")}`);
    const before = await layout(page);
    const p = await page.evaluate(([a, b]) => window.__rumis.columnPoint(a, b), [found.mx, found.my]);
    await page.mouse.move(p.x, p.y);
    const move = await waitAttr(page, "ghost-status", "data-legal", (v) => v === "true", 5_000, `(pointing at the hidden mark ${found.mx},${found.my} gives a green ghost)`);
    const said = await page.locator(tid("ghost-status")).getAttribute("data-move");
    const cells = [...said.matchAll(/([a-z])(\d+):(\d+)/g)].map((m) => [m[1].charCodeAt(0) - 97, Number(m[2]) - 1]);
    check(move && cells.some(([cx, cy]) => cx === found.mx && cy === found.my), `pointing at the mark ${found.mx},${found.my} behind a tower shows ${said}`);
    await page.screenshot({ path: path.join(targetShots, "rumis-mark-behind-tower.png") });
    // A refusal: the board and the tray stay where they were.
    await page.fill(tid("move-input"), "L4 a1:9 b1:9 c1:9 a2:9");
    await page.click(tid("move-submit"));
    await waitAttr(page, "error", "hidden", (hd) => hd === null, 5_000, "(the refusal shown)");
    const after = await layout(page);
    check(Math.abs(after.canvas.top - before.canvas.top) < 0.5 && Math.abs(after.tray.top - before.tray.top) < 0.5, `a refusal moved the board (${before.canvas.top} → ${after.canvas.top}) or the tray (${before.tray.top} → ${after.tray.top})`);
    // A red ghost with its reason: the same.
    const marked = new Set(((await page.locator(tid("rumis-viewport")).getAttribute("data-marks")) ?? "").split(";"));
    const v0 = await api(base, "GET", `/api/tables/${made.id}`, undefined, tokens[0]);
    let red = null;
    for (let y = 0; y < v0.rumis.scenario.depth && !red; y++)
      for (let x = 0; x < v0.rumis.scenario.width && !red; x++) if (!marked.has(`${x},${y}`) && !(await page.evaluate(([a, b]) => window.__rumis.hiddenColumn(a, b), [x, y]))) red = [x, y];
    if (red) {
      const q = await page.evaluate(([a, b]) => window.__rumis.columnPoint(a, b), red);
      await page.mouse.move(q.x, q.y);
      await waitAttr(page, "ghost-status", "data-legal", (v) => v === "false", 5_000, `(a red ghost on ${red})`);
      const refused = await layout(page);
      check(Math.abs(refused.canvas.top - before.canvas.top) < 0.5 && Math.abs(refused.tray.top - before.tray.top) < 0.5 && Math.abs(refused.place.top - before.place.top) < 0.5, `a red ghost's reason moved the board, the tray or Place`);
      log(`towers: a red ghost on ${red} ("${await page.locator(tid("ghost-status")).textContent()}") moved nothing`);
      await page.mouse.move(p.x, p.y);
      await waitAttr(page, "ghost-status", "data-legal", (v) => v === "true", 5_000, "(back on the hidden mark)");
    }
    await page.mouse.click(p.x, p.y);
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > found.version, 10_000, "(the stone placed on the hidden mark)");
    const placed = await api(base, "GET", `/api/tables/${made.id}`, undefined, tokens[0]);
    const last = placed.rumis.history[placed.rumis.history.length - 1];
    check(last.startsWith(found.stone), `the click on the hidden mark placed ${last}, not ${found.stone}`);
    await axeCheck(page, "a Rumis table with a refusal shown");
    log(`towers: the mark ${found.mx},${found.my} behind a tower was picked (${last}); a refusal left the board at ${Math.round(after.canvas.top)} px`);
    await ctx.close();
  }

  // ---- point 8: the Rummikub move log ------------------------------------------------

  const CODE = /\b[rbko]\d{1,2}\b/;

  async function logLines(page) {
    return page.locator(`${tid("rk-log")} li.log-line`).evaluateAll((els) =>
      els.map((e) => ({ kind: e.dataset.kind, player: e.dataset.player, tiles: e.dataset.tiles, n: Number(e.dataset.n), changed: Number(e.dataset.changed), fresh: e.classList.contains("fresh"), text: e.textContent, shown: e.querySelectorAll(".tile").length, labels: [...e.querySelectorAll(".tile")].map((t) => t.getAttribute("aria-label")) })),
    );
  }

  async function logOne(browser, base, problems, locale, seed) {
    const de = locale.startsWith("de");
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
    const page = await ctx.newPage();
    watchPage(page, `log-${locale}`, problems);
    const t = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed });
    await openSeat(page, base, t.id, t.token);
    let botLine = null;
    let ownDraw = null;
    let changedLine = null;
    for (let turn = 0; turn < 40 && !(botLine && ownDraw && changedLine); turn++) {
      await myTurn(page);
      const lines = await logLines(page);
      botLine ??= lines.find((l) => l.player === "1" && (l.kind === "laid" || l.kind === "melded") && l.n > 0) ?? null;
      ownDraw ??= lines.find((l) => l.player === "0" && l.kind === "drew") ?? null;
      changedLine ??= lines.find((l) => l.changed > 0) ?? null;
      if (botLine && ownDraw && changedLine) break;
      // The bot's lines since my last action are marked new and stay until I act.
      const fresh = lines.filter((l) => l.fresh);
      check(fresh.every((l) => l.player !== "0"), "my own turn is marked new to me");
      const rack = Number(await page.locator(tid("rack")).getAttribute("data-count"));
      await page.click(tid("draw"));
      await waitAttr(page, "rack", "data-count", (c) => Number(c) !== rack, 10_000, "(my draw)");
    }
    check(botLine, "the bot never laid tiles in 30 turns");
    check(ownDraw, "my draw has no line");
    // The bot's line: its name, the count, its tiles drawn as tiles named in my language.
    const botName = (await page.locator(`${tid("seat-1")} .name`).textContent()).trim();
    check(botLine.text.includes(botName), `the bot's line "${botLine.text}" does not name ${botName}`);
    check(botLine.shown === botLine.n && botLine.tiles.split(" ").length === botLine.n, `the bot's line shows ${botLine.shown} tiles for ${botLine.n}`);
    const colourWords = de ? /^(rot|blau|schwarz|orange|Joker) ?\d*$/ : /^(red|blue|black|orange|joker) ?\d*$/;
    check(botLine.labels.every((a) => colourWords.test(a)), `the tiles are named ${botLine.labels.join(", ")}`);
    const want = de ? (botLine.kind === "melded" ? /ist mit \d+ Steinen? herausgekommen/ : /hat \d+ Steine? gelegt/) : botLine.kind === "melded" ? /came out with \d+ tiles?/ : /laid \d+ tiles?/;
    check(want.test(botLine.text), `the bot's line says "${botLine.text}"`);
    check(ownDraw.shown === 1 && (de ? /Du hast gezogen/ : /You drew/).test(ownDraw.text), `my draw is said as "${ownDraw.text}" with ${ownDraw.shown} tile`);
    // No tile codes with English letters in the log or the event line.
    const logText = await page.locator(tid("rk-log")).textContent();
    const lastText = await page.locator(tid("last")).textContent();
    check(!CODE.test(logText) && !CODE.test(lastText), `tile codes in the log or the event line: ${logText.match(CODE)?.[0] ?? lastText.match(CODE)?.[0]}`);
    const lines = await logLines(page);
    const changed = changedLine;
    check(changed, "no turn that changed sets on the table in 40 turns");
    check((de ? /und \d+ Serien? umgebaut/ : /and changed \d+ sets?/).test(changed.text), `a turn that changed sets says "${changed.text}"`);
    const outDesk = await outOfCard(page);
    check(outDesk.length === 0, `controls out of their cards at a Rummikub table on a desktop: ${outDesk.join("; ")}`);
    await page.locator(tid("rk-log")).scrollIntoViewIfNeeded();
    await docShot(page, `rummikub-log-${de ? "de" : "en"}.png`);
    await axeCheck(page, `a Rummikub table with its move log (${locale})`);
    log(`log ${locale}: ${lines.length} lines; the bot: "${botLine.text}"; me: "${ownDraw.text}"${changed ? `; "${changed.text}"` : ""}`);
    await ctx.close();
  }

  async function logScenario(browser, base, problems) {
    await logOne(browser, base, problems, "en-US", 8);
    await logOne(browser, base, problems, "de-DE", 8);
    // A time-out has its line: "Ana ran out of time: 3 tiles".
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const page = await ctx.newPage();
    watchPage(page, "log-timeout", problems);
    const t = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: 2 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 4 });
    await openSeat(page, base, t.id, t.token);
    const deadline = Date.now() + 20_000;
    let timeout = null;
    while (!timeout && Date.now() < deadline) {
      timeout = (await logLines(page)).find((l) => l.kind === "timeout" && l.player === "0") ?? null;
      if (!timeout) await page.waitForTimeout(100);
    }
    check(timeout && /Ana ran out of time: 3 tiles/.test(timeout.text), `the time-out's line says ${JSON.stringify(timeout?.text)}`);
    log(`log: "${timeout.text}"`);
    await ctx.close();
    // A phone: the table above, the rack at the bottom of the screen.
    const phone = await browser.newContext({ ...PHONE, locale: "en-US" });
    const pp = await phone.newPage();
    watchPage(pp, "log-phone", problems);
    const t2 = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 8 });
    await openSeat(pp, base, t2.id, t2.token);
    await myTurn(pp);
    const box = await pp.evaluate(() => {
      const r = (s) => document.querySelector(s).getBoundingClientRect();
      return { table: r('[data-testid="table"]'), rack: r('[data-testid="rack"]'), dock: r('[data-testid="rk-dock"]'), h: innerHeight };
    });
    check(box.table.top < box.rack.top, "the rack is not below the table on a phone");
    check(box.dock.bottom <= box.h + 1 && box.rack.top >= 0, `the rack (${Math.round(box.rack.top)}–${Math.round(box.rack.bottom)}) is not on the ${box.h} px screen`);
    const out = await outOfCard(pp);
    check(out.length === 0, `controls out of their cards at a Rummikub table on a phone: ${out.join("; ")}`);
    await axeCheck(pp, "a Rummikub table on a phone");
    await pp.screenshot({ path: path.join(targetShots, "rummikub-phone.png") });
    log(`log: on a phone the rack stays on screen (${Math.round(box.rack.top)}–${Math.round(box.rack.bottom)} of ${box.h} px) under the table`);
    await phone.close();
  }

  // ---- point 12: replays -----------------------------------------------------------

  /** Plays `n` of this seat's moves over the API (the first legal placement each), waiting for the others. */
  async function playMoves(base, id, token, n) {
    for (let played = 0; played < n; ) {
      const v = await api(base, "GET", `/api/tables/${id}`, undefined, token);
      if (v.over) return;
      if (v.to_move !== v.you || !v.rumis.legal.length) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const p = v.rumis.legal[Math.floor(v.rumis.legal.length / 2)];
      await api(base, "POST", `/api/tables/${id}/actions`, { version: v.version, action: { stone: p.stone, cells: p.cells } }, token);
      played++;
    }
  }

  async function playRumisOut(base, id, token) {
    for (let i = 0; i < 200; i++) {
      const v = await api(base, "GET", `/api/tables/${id}`, undefined, token);
      if (v.over) return v;
      if (v.to_move !== v.you || !v.rumis.legal.length) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const p = v.rumis.legal[0];
      await api(base, "POST", `/api/tables/${id}/actions`, { version: v.version, action: { stone: p.stone, cells: p.cells } }, token).catch(() => null);
    }
    throw new Error("the Rumis game did not end");
  }

  async function replayScenario(browser, base, problems) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const page = await ctx.newPage();
    watchPage(page, "replay", problems);
    const t = await practiceTable(base, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 5 });
    const end = await playRumisOut(base, t.id, t.token);
    await page.goto(`${base}/replay/${t.id}`);
    await page.locator(tid("history-jump-0")).waitFor({ timeout: 15_000 });
    const moves = end.rumis.history.length;
    check((await page.locator(`${tid("history")} li`).count()) === moves, "the replay's list does not show every move");
    const pick = Math.min(3, moves - 1);
    await page.click(tid(`history-jump-${pick}`));
    await waitAttr(page, "history-" + pick, "aria-current", (a) => a === "step", 5_000, "(the clicked move is the one on show)");
    const step = Number(await page.locator(tid("replay-step")).getAttribute("data-index"));
    const replay = await api(base, "GET", `/api/tables/${t.id}/replay`);
    check(replay.steps[step].rumis.history.length === pick + 1, `clicking move ${pick + 1} showed step ${step} with ${replay.steps[step].rumis.history.length} moves`);
    const cubes = Number(await page.locator(tid("cube-count")).getAttribute("data-count"));
    check(cubes === replay.steps[step].rumis.cubes.length, `the build shows ${cubes} cubes at step ${step}`);
    await axeCheck(page, "the Rumis replay after a click on a move");
    log(`replay: a click on move ${pick + 1} of ${moves} jumped to step ${step}`);
    // Rummikub: a finished game (Ana hands her seat to a bot at once), every rack at every step.
    const r = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null, rounds: 1 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 6 });
    await api(base, "POST", `/api/tables/${r.id}/seats/0/bot`, { bot: "greedy" }, r.token);
    const deadline = Date.now() + 90_000;
    let over = false;
    while (!over && Date.now() < deadline) {
      over = (await api(base, "GET", `/api/tables/${r.id}`)).over;
      if (!over) await new Promise((res) => setTimeout(res, 200));
    }
    check(over, "the bots' Rummikub game did not end in 90 s");
    const doc = await api(base, "GET", `/api/tables/${r.id}/replay`);
    check(Array.isArray(doc.racks) && doc.racks.length === doc.steps.length, "the finished game's replay has no rack for every step");
    check(doc.racks[0].every((rack) => rack.length === 14), `the first step's racks hold ${doc.racks[0].map((x) => x.length).join(", ")} tiles`);
    doc.steps.forEach((s, i) => check(doc.racks[i].every((rack, seat) => rack.length === s.rummikub.rack_sizes[seat]), `step ${i}: the racks do not match the rack sizes`));
    await page.goto(`${base}/replay/${r.id}`);
    await page.locator(tid("replay-rack-0")).waitFor({ timeout: 15_000 });
    const at = Math.min(5, doc.steps.length - 1);
    await page.fill(tid("replay-slider"), String(at));
    for (const seat of [0, 1]) {
      const shown = await page.locator(tid(`replay-rack-${seat}`)).getAttribute("data-tiles");
      check(shown === doc.racks[at][seat].join(" "), `step ${at}: seat ${seat}'s rack shows ${shown}`);
      check((await page.locator(`${tid(`replay-rack-${seat}`)} .tile`).count()) === doc.racks[at][seat].length, "the rack's tiles are not drawn as tiles");
    }
    const logCount = await page.locator(`${tid("rk-log")} li.log-line`).count();
    check(logCount >= Math.min(at, 1), `the replay's log shows ${logCount} lines at step ${at}`);
    await axeCheck(page, "the Rummikub replay with every rack");
    await page.screenshot({ path: path.join(targetShots, "rummikub-replay-racks.png"), fullPage: true });
    log(`replay: Rummikub, ${doc.steps.length} steps, every rack shown (step ${at}: ${doc.racks[at].map((x) => x.length).join(" + ")} tiles), ${logCount} log lines`);
    // A running game has no replay, so no rack leaves the server.
    const running = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 7 });
    const res = await fetch(`${base}/api/tables/${running.id}/replay`);
    const body = await res.text();
    check(!res.ok && !body.includes("racks"), `a running game's replay answered ${res.status}`);
    await ctx.close();
  }

  return { "board-palette": paletteScenario, "board-phone": phoneScenario, "board-towers": towersScenario, "board-log": logScenario, "board-replay": replayScenario };
}

// Scenarios of issue #46 (the lobby and the end of a game), run by run.mjs:
// - lobby: the two game cards (a line, a picture drawn by the game's own renderer, one
//   tap against the computer, play with friends, the form under "more options"), your
//   own seat "you", bots named as the table names them, titles that name the game and
//   the players (lobby lists, heading, tab title), the invite page saying who invites
//   you to what; English on the desktop, German on a 390×844 touch screen, axe on each
//   page.
// - lobby-picture: the lobby's static Rumis picture is the game's scene's render of the
//   build in rumis/picture.ts (RUMI_WRITE_PICTURE=1 writes it anew).
// - hand-end: handing a seat to a bot asks first and names the bot and its level; the
//   end panel (ranking, scores, new game with the same settings, replay), no live badge
//   nor move input; the deal's proof behind "check this deal" (Rummikub), none in Rumis;
//   English on the desktop, German on a 390×844 touch screen.
// - newcomer-taps: a newcomer lands on `/` and places a first legal Rumis stone against
//   the computer, counting taps and checking that the page never scrolls; desktop and the
//   390×844 touch viewport. Prints the figures (taps, seconds, the lobby's cold load).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PICTURE = path.join(repo, "web/public/pictures/rumis-build.png");
const SHOTS = path.join(repo, "target/screenshots");

export function lobbyScenarios(x) {
  const { check, log, tid, api, waitAttr, waitText, shot, watchPage, axeCheck, practiceTable, openSeat } = x;

  const text = (page, testid) => page.locator(tid(testid)).first().textContent();
  /** A screenshot: the whole page on the desktop, the screen on a phone (scrolled to
   * `testid`, if given). */
  async function screen(page, name, testid) {
    if ((page.viewportSize()?.width ?? 1280) > 700) return shot(page, name);
    if (testid) await page.locator(tid(testid)).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, name) });
    log(`screenshot target/screenshots/${name}`);
  }
  const title = (page) => page.evaluate(() => document.title);

  /** The table made by a click in the lobby: its id and this tab's token. */
  async function landed(page) {
    await page.waitForURL(/\/t\/[^/?#]+$/, { timeout: 15_000 });
    const id = decodeURIComponent(new URL(page.url()).pathname.split("/")[2]);
    const token = await page.evaluate((id) => sessionStorage.getItem(`rumi-token-${id}`), id);
    await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
    return { id, token };
  }

  async function lobbyScenario(browser, base, problems) {
    for (const lang of ["en", "de"]) {
      const en = lang === "en";
      // English on the desktop, German on a 390×844 touch screen.
      const ctx = await browser.newContext(en ? { viewport: { width: 1280, height: 900 }, locale: "en-US" } : { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "de-DE" });
      const page = await ctx.newPage();
      watchPage(page, `lobby-${lang}`, problems);
      const requests = [];
      page.on("request", (r) => requests.push(r.url()));
      await page.goto(base + "/");
      await page.locator(tid("play-bot-rumis")).waitFor();
      // Two cards: a line, a picture each, the two quick starts.
      for (const game of ["rumis", "rummikub"]) {
        const card = await text(page, `card-${game}`);
        check(card.includes(en ? "Play against the computer" : "Gegen den Computer spielen") && card.includes(en ? "Play with friends" : "Mit Freunden spielen"), `the ${game} card says ${card}`);
      }
      check((await text(page, "card-rumis")).includes(en ? "3D" : "3D") && (await text(page, "card-rummikub")).includes(en ? "runs and groups" : "Reihen und Gruppen"), "the cards do not say what the games are");
      await page.waitForFunction(() => document.querySelector('[data-testid="picture-rumis"]')?.naturalWidth > 0, null, { timeout: 10_000 });
      check((await page.locator(`${tid("picture-rummikub")} .tile`).count()) === 7, "the Rummikub picture is not 7 tiles as the table draws them");
      check(!requests.some((u) => /\/assets\/three-/.test(u)), "the lobby loaded three.js");
      // The bot is called as the table will call it.
      const note = await text(page, "play-bot-note-rumis");
      check(note === (en ? "Chullpa, two players, against Inti, intermediate bot" : "Chullpa, zwei Spieler, gegen Inti, Bot (Fortgeschritten)"), `the quick game's note says ${note}`);
      // The form waits under "more options"; your own seat reads "you", a bot its name.
      check(!(await page.locator(tid("more-options")).evaluate((d) => d.open)), "the full form is open on landing");
      check(!(await page.locator(tid("create")).isVisible()), "the create button shows before more options are asked for");
      await screen(page, `home-${lang}.png`);
      await axeCheck(page, `the lobby with its game cards (${lang})`);
      await page.click(tid("more-options-summary"));
      await page.locator(tid("create")).waitFor();
      const mine = await page.locator(`${tid("seat-kind-0")} option[value="human"]`).textContent();
      check(mine === (en ? "you" : "du"), `my own seat reads ${mine}`);
      const other = await page.locator(`${tid("seat-kind-1")} option[value="human"]`).textContent();
      check(other === (en ? "a person (invited)" : "eine Person (eingeladen)"), `another person's seat reads ${other}`);
      const botNote = await text(page, "seat-note-1");
      check(botNote === (en ? "Inti, casual bot" : "Inti, Bot (Gelegenheitsspieler)"), `the bot seat's note says ${botNote}`);
      await axeCheck(page, `the lobby with more options open (${lang})`);

      if (en) {
        // One tap: Rummikub against the computer, current rules, a relaxed clock.
        await page.evaluate(() => localStorage.setItem("rumi.name", "Ana"));
        await page.reload();
        await page.click(tid("play-bot-rummikub"));
        const rk = await landed(page);
        const v = await api(base, "GET", `/api/tables/${rk.id}`, undefined, rk.token);
        const bots = (await api(base, "GET", "/api/meta")).rummikub.bots;
        const level = bots.find((b) => b.name === v.seats[1].bot)?.level;
        check(v.you === 0 && v.seats[0].name === "Ana" && v.seats[1].kind === "bot" && level === 3, `the quick Rummikub table: you ${v.you}, seats ${JSON.stringify(v.seats.map((s) => [s.name, s.kind, s.bot]))}, level ${level}`);
        check(v.rummikub.rules.name === "current" && v.rummikub.rules.turn_seconds === 120 && v.seats.length === 2, `the quick Rummikub rules: ${JSON.stringify(v.rummikub.rules)}`);
        const heading = await waitText(page, "table-title", (t) => t.includes("Inti (bot, "), 10_000, "(the title names the players and the bot's level)");
        check(heading.startsWith("Rummikub · current rules · Ana vs Inti (bot, intermediate)") && !heading.includes(rk.id), `the table's heading is ${heading}`);
        check((await title(page)).includes("Rummikub · current rules · Ana vs Inti (bot, intermediate)"), `the tab's title is ${await title(page)}`);
        const pill = await waitText(page, "seat-1", (t) => t.includes("Inti, intermediate"), 10_000, "(the bot's pill)").then(() => page.locator(`${tid("seat-1")} .name`).textContent());
        check(pill === "Inti, intermediate bot", `the bot's seat pill says ${pill}`);
        log(`quick Rummikub: "${heading}", the bot "${pill}", ${v.rummikub.rules.turn_seconds} s a turn`);

        // Play with friends (Rumis): a table for two, the invite link to send.
        await page.goto(base + "/");
        await page.click(tid("play-friends-rumis"));
        const fr = await landed(page);
        const link = await page.locator(tid("invite-1")).inputValue();
        check(/\/t\/[^#]+#token=/.test(link), `the invite link is ${link}`);
        // Your tables, by name.
        await page.goto(base + "/");
        const listed = await waitText(page, `my-table-${rk.id}`, (t) => t.includes("Inti"), 10_000, "(my Rummikub table by its players)");
        check(listed.includes("Rummikub · current rules · Ana vs Inti (bot, intermediate)") && !listed.includes(rk.id), `my table is listed as ${listed}`);

        // The invite, opened in a German browser: who invites you to what.
        const ctxB = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "de-DE" });
        const B = await ctxB.newPage();
        watchPage(B, "invitee", problems);
        await B.goto(link);
        const line = await waitText(B, "invitation-line", (t) => t.length > 0, 10_000, "(the invitation)");
        check(line === "Ana lädt dich zu Rumis, Chullpa, 2 Spieler ein", `the invite page says ${line}`);
        await shot(B, "invite-de.png");
        await axeCheck(B, "the invite page (de)");
        await B.fill(tid("ask-name-input"), "Bo");
        await B.click(tid("ask-name-sit"));
        const bTitle = await waitText(B, "table-title", (t) => t.includes("Bo"), 10_000, "(Bo seated)");
        check(bTitle.startsWith("Rumis · Chullpa · Ana gegen Bo"), `Bo's table is titled ${bTitle}`);
        log(`friends: invite "${line}", then "${bTitle}"`);
        await ctxB.close();

        // The open tables list names the game and the players, not an id.
        const open = await practiceTable(base, { game: "rumis", rumis: { scenario: "chullpa", players: 3, variant: "standard" }, seats: [{ kind: "human", name: "Zed" }, { kind: "bot", bot: "mcts:5" }, { kind: "open" }] });
        await page.click(tid("refresh-tables"));
        const row = await waitText(page, `open-title-${open.id}`, (t) => t.includes("Zed"), 10_000, "(the open table)");
        check(/^Rumis · Chullpa · Zed vs Inti \(bot, expert\) vs open seat \(open for/.test(row), `the open table is listed as ${row}`);
        await axeCheck(page, "the lobby with tables listed (en)");
        void fr;
      }
      await ctx.close();
    }
  }

  async function pictureScenario(browser, base, problems) {
    const ctx = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    watchPage(page, "picture", problems);
    await page.goto(base + "/picture/rumis");
    await waitAttr(page, "live-picture", "data-drawn", (d) => d === "true", 30_000, "(the build drawn)");
    const src = await page.locator(tid("live-picture")).getAttribute("src");
    const png = Buffer.from(src.split(",")[1], "base64");
    check(png.subarray(1, 4).toString("ascii") === "PNG" && png.readUInt32BE(16) === 480 && png.readUInt32BE(20) === 300, "the live render is not a 480×300 PNG");
    if (process.env.RUMI_WRITE_PICTURE === "1") {
      fs.mkdirSync(path.dirname(PICTURE), { recursive: true });
      fs.writeFileSync(PICTURE, png);
      log(`wrote ${path.relative(repo, PICTURE)} (${png.length} bytes)`);
    }
    check(fs.existsSync(PICTURE), `${PICTURE} is missing (RUMI_WRITE_PICTURE=1 node web/e2e/run.mjs lobby-picture)`);
    const kept = fs.readFileSync(PICTURE);
    check(kept.readUInt32BE(16) === 480 && kept.readUInt32BE(20) === 300, "the lobby's picture is not 480×300");
    // The kept picture is the scene's render: the same pixels, but for the GPU's rounding.
    const diff = await page.evaluate(
      async ([a, b]) => {
        const load = (s) => new Promise((r, no) => { const i = new Image(); i.onload = () => r(i); i.onerror = () => no(new Error(`cannot load ${s.slice(0, 40)}`)); i.src = s; });
        const [ia, ib] = await Promise.all([load(a), load(b)]);
        const px = (img) => { const c = document.createElement("canvas"); c.width = 480; c.height = 300; const g = c.getContext("2d"); g.drawImage(img, 0, 0); return g.getImageData(0, 0, 480, 300).data; };
        const pa = px(ia), pb = px(ib);
        let off = 0;
        for (let i = 0; i < pa.length; i += 4) if (Math.abs(pa[i] - pb[i]) + Math.abs(pa[i + 1] - pb[i + 1]) + Math.abs(pa[i + 2] - pb[i + 2]) > 48) off++;
        return off / (pa.length / 4);
      },
      [src, "/pictures/rumis-build.png"],
    );
    check(diff < 0.03, `the lobby's picture differs from the scene's render in ${(diff * 100).toFixed(1)} % of its pixels (draw it anew: RUMI_WRITE_PICTURE=1 node web/e2e/run.mjs lobby-picture)`);
    log(`the lobby's Rumis picture matches the scene's render (${(diff * 100).toFixed(2)} % of pixels apart)`);
    await ctx.close();
  }

  /** Hands my seat to the bot `bot` through the dialog: first cancelled, then confirmed. */
  async function handOver(page, bot, expect) {
    await page.selectOption(tid("hand-bot-choice-0"), bot);
    const label = await page.locator('label[for="hand-bot-choice-0"]').textContent();
    const named = await page.locator(tid("hand-bot-choice-0")).getAttribute("aria-label");
    check(/bot/i.test(label) && /Level of the bot that would play|Stärke des Bots, der spielen würde/.test(named), `the level menu is labelled ${label} (${named})`);
    await page.click(tid("hand-bot-0"));
    await page.locator(tid("hand-dialog")).waitFor();
    const said = await text(page, "hand-dialog-text");
    check(said.includes(expect), `the dialog says ${said}, not ${expect}`);
    return said;
  }

  async function handEndScenario(browser, base, problems) {
    for (const lang of ["en", "de"]) {
      const en = lang === "en";
      // English on the desktop, German on a 390×844 touch screen.
      const ctx = await browser.newContext(en ? { viewport: { width: 1280, height: 900 }, locale: "en-US" } : { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "de-DE" });
      const page = await ctx.newPage();
      watchPage(page, `end-${lang}`, problems);
      // Rumis: asked before the bot takes my seat; the end panel; no proof (nothing dealt).
      const t1 = await practiceTable(base, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 3 });
      await openSeat(page, base, t1.id, t1.token);
      await page.locator(tid("hand-bot-0")).waitFor({ timeout: 10_000 });
      const said = await handOver(page, "random", en ? "Chaska, beginner bot will play your seat" : "Chaska, Bot (Einsteiger) spielt ab jetzt deinen Platz");
      if (en) await shot(page, "hand-confirm-en.png");
      await axeCheck(page, `the hand-over dialog (${lang})`);
      await page.click(tid("hand-cancel"));
      await page.locator(tid("hand-dialog")).waitFor({ state: "detached" });
      const v1 = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
      check(v1.seats[0].kind === "human", "cancelling the dialog handed my seat to a bot");
      await handOver(page, "random", "Chaska");
      await page.click(tid("hand-confirm"));
      await waitAttr(page, "seat-0", "data-kind", (k) => k === "bot", 10_000, "(my seat played by the bot)");
      const plays = await text(page, "bot-plays");
      check(plays.startsWith(en ? "Chaska, beginner bot plays your seat" : "Chaska, Bot (Einsteiger) spielt deinen Platz"), `the take-back line says ${plays}`);
      log(`hand-over (${lang}): "${said}", then "${plays}"`);
      await waitAttr(page, "turn-status", "data-over", (o) => o === "true", 60_000, "(the Rumis game over)");
      await page.locator(tid("ranking")).waitFor({ timeout: 10_000 });
      const v = await api(base, "GET", `/api/tables/${t1.id}`, undefined, t1.token);
      const rows = await page.locator(`${tid("ranking")} tbody tr`).allTextContents();
      check(rows.length === 2 && rows.every((r, i) => r.startsWith(String(i + 1)) || r.startsWith("1")), `the ranking is ${rows.join(" | ")}`);
      const first = v.result.winners[0];
      check(rows[0].includes(first === 0 ? "Ana" : "Inti") && rows[0].includes(String(v.result.scores[first])), `the first row ${rows[0]} is not the winner ${first} with ${v.result.scores[first]}`);
      check(await page.locator(tid("connection")).isHidden(), "the live badge stays after the end");
      check(!(await page.locator(tid("move-form")).isVisible()) && !(await page.locator(tid("place-button")).isVisible()), "the move input or Place stays after the end");
      check((await page.locator(tid("fairness")).count()) === 0 && (await page.locator(tid("check-deal")).count()) === 0, "a Rumis game, where nothing is dealt, shows a proof of its deal");
      check(await page.locator(tid("replay-link")).isVisible(), "no replay link at the end");
      await screen(page, `end-panel-rumis-${lang}.png`, "result");
      await axeCheck(page, `the Rumis end panel (${lang})`);
      log(`Rumis end (${lang}): ${rows.join(" | ")}`);
      if (en) {
        // New game: the same settings, a new table, me on my seat.
        await page.click(tid("new-game"));
        await page.waitForURL((u) => u.pathname.startsWith("/t/") && !u.pathname.endsWith(t1.id), { timeout: 15_000 });
        const again = await landed(page);
        const w = await api(base, "GET", `/api/tables/${again.id}`, undefined, again.token);
        check(w.you === 0 && w.rumis.scenario.key === "chullpa" && w.rumis.players === 2 && w.seats[1].bot === "greedy" && w.seats[0].name === "Ana" && !w.over, `the new game: ${JSON.stringify({ you: w.you, scenario: w.rumis.scenario.key, seats: w.seats.map((s) => [s.name, s.kind, s.bot]) })}`);
        log(`new game ${again.id}: the same board and bot`);
      }

      // Rummikub: the end panel with the proof behind "check this deal".
      const t2 = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 9 });
      await openSeat(page, base, t2.id, t2.token);
      check(await page.locator(tid("fairness")).isVisible(), "no commitment shown during a Rummikub game");
      await page.locator(tid("hand-bot-0")).waitFor({ timeout: 10_000 });
      await handOver(page, "greedy", en ? "Chaska, casual bot" : "Chaska, Bot (Gelegenheitsspieler)");
      await page.click(tid("hand-confirm"));
      await waitAttr(page, "turn-status", "data-over", (o) => o === "true", 120_000, "(the Rummikub game over)");
      await page.locator(tid("check-deal")).waitFor({ timeout: 10_000 });
      check(!(await page.locator(tid("check-deal")).evaluate((d) => d.open)), "the proof of the deal is open at the end");
      check(!(await page.locator(tid("verify-command")).isVisible()), "rumi verify shows before asked for");
      const ranked = await page.locator(`${tid("ranking")} tbody tr`).allTextContents();
      check(ranked.length === 2, `the Rummikub ranking is ${ranked.join(" | ")}`);
      await screen(page, `end-panel-${lang}.png`, "result");
      await axeCheck(page, `the Rummikub end panel (${lang})`);
      await page.click(`${tid("check-deal")} summary`);
      const ok = await waitAttr(page, "fairness-check", "data-ok", (x) => x !== null, 5_000, "(the browser's check of the commitment)");
      check(ok === "true" && (await page.locator(tid("verify-command")).isVisible()), `the deal's check says ${ok}`);
      check((await page.locator(tid("revealed-seed")).textContent()) === "9", "the revealed seed is not the practice seed 9");
      await axeCheck(page, `the Rummikub end panel with the deal's check open (${lang})`);
      // The replay is named as the table is.
      await page.click(tid("replay-link"));
      await page.locator(tid("replay-step")).waitFor();
      const replayTitle = await waitText(page, "replay-title", (t) => t.includes("Inti"), 10_000, "(the replay's title)");
      check(replayTitle === (en ? "Replay: Rummikub · current rules · Ana vs Inti (bot, casual)" : "Nachspielen: Rummikub · aktuelle Regeln · Ana gegen Inti (Bot, Gelegenheitsspieler)"), `the replay is titled ${replayTitle}`);
      log(`Rummikub end (${lang}): ${ranked.join(" | ")}; the deal checks in the browser; the replay is "${replayTitle}"`);
      await ctx.close();
    }
  }

  /** Lands on `/` and places a first legal Rumis stone against the computer, counting
   * taps (clicks on the desktop) and checking that the page never scrolls. */
  async function newcomerRun(browser, base, problems, phone) {
    const what = phone ? "phone 390×844" : "desktop 1280×900";
    const ctx = await browser.newContext(
      phone ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "en-US" } : { viewport: { width: 1280, height: 900 }, locale: "en-US" },
    );
    const page = await ctx.newPage();
    watchPage(page, `newcomer-${phone ? "phone" : "desktop"}`, problems);
    let taps = 0;
    const size = page.viewportSize();
    /** Taps (or clicks) a point that must be inside the viewport, without scrolling. */
    const tapAt = async (p, why) => {
      check(p.x >= 0 && p.y >= 0 && p.x <= size.width && p.y <= size.height, `${what}: ${why} at ${Math.round(p.x)},${Math.round(p.y)} is outside the ${size.width}×${size.height} viewport`);
      taps++;
      if (phone) await page.touchscreen.tap(p.x, p.y);
      else await page.mouse.click(p.x, p.y);
    };
    const tapOn = async (selector, why) => {
      const box = await page.locator(selector).boundingBox();
      check(box, `${what}: no ${why}`);
      await tapAt({ x: box.x + box.width / 2, y: box.y + box.height / 2 }, why);
    };
    const noScroll = async (when) => {
      const y = await page.evaluate(() => [window.scrollX, window.scrollY]);
      check(y[0] === 0 && y[1] === 0, `${what}: the page scrolled to ${y} ${when}`);
    };
    const t0 = Date.now();
    await page.goto(base + "/");
    await page.locator(tid("play-bot-rumis")).waitFor();
    const ready = await page.evaluate(() => Math.round(performance.now()));
    await noScroll("on landing");
    await tapOn(tid("play-bot-rumis"), "the play-against-the-computer button");
    const { id, token } = await landed(page);
    await page.locator(tid("rumis-canvas")).waitFor({ timeout: 20_000 });
    // The computer may start: wait (no tap) until it is my turn.
    await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 30_000, "(my turn)");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tray"] [data-legal]').length > 0, null, { timeout: 10_000 });
    await noScroll("on the table");
    const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [e.dataset.testid, Number(e.dataset.legal)]));
    const stone = stones.find(([, n]) => n > 0)?.[0];
    check(stone, `${what}: no stone fits (${JSON.stringify(stones)})`);
    await tapOn(tid(stone), "a stone of the tray");
    const marks = await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, "(marks for the stone)");
    const [mx, my] = marks.split(";")[0].split(",").map(Number);
    const point = await page.evaluate(([x, y]) => window.__rumis.columnPoint(x, y), [mx, my]);
    const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    await tapAt(point, "a marked column");
    if (phone) {
      // A touch shows the ghost first; a second tap on it places it.
      await waitAttr(page, "ghost-status", "data-legal", (l) => l === "true", 5_000, "(a green ghost)");
      await tapAt(point, "the green ghost");
    }
    await waitAttr(page, "turn-status", "data-version", (v) => Number(v) > version, 10_000, "(the stone placed)");
    const seconds = (Date.now() - t0) / 1000;
    await noScroll("after the first stone");
    const v = await api(base, "GET", `/api/tables/${id}`, undefined, token);
    const mine = v.rumis.colours.filter((c) => c.owner === v.you).map((c) => c.colour);
    check(v.rumis.cubes.some((c) => mine.includes(c.colour)), `${what}: no cube of mine after the placing`);
    check(taps <= 4, `${what}: ${taps} taps to the first stone`);
    await shot(page, `newcomer-first-stone-${phone ? "phone" : "desktop"}.png`);
    log(`newcomer on the ${what}: ${taps} ${phone ? "taps" : "clicks"}, ${seconds.toFixed(1)} s from landing on / to the first placed stone, no scrolling; the lobby usable ${ready} ms after navigation`);
    await ctx.close();
    return { taps, seconds, ready };
  }

  async function newcomerTapsScenario(browser, base, problems) {
    // The lobby's cold load on the phone: a fresh context, nothing cached.
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "de-DE" });
    const page = await ctx.newPage();
    watchPage(page, "newcomer-cold", problems);
    await page.goto(base + "/");
    await page.locator(tid("play-bot-rumis")).waitFor();
    const cold = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const fcp = performance.getEntriesByName("first-contentful-paint")[0];
      const mark = performance.getEntriesByName("rumi-lobby-usable")[0];
      return { usable: mark ? Math.round(mark.startTime) : null, load: Math.round(nav.loadEventEnd), fcp: fcp ? Math.round(fcp.startTime) : null, bytes: performance.getEntriesByType("resource").reduce((n, r) => n + (r.transferSize || 0), nav.transferSize || 0) };
    });
    const box = await page.locator(tid("play-bot-rumis")).boundingBox();
    check(box.y + box.height <= 844, `on the phone the play button is below the fold (${Math.round(box.y)} px)`);
    await page.waitForFunction(() => document.querySelector('[data-testid="picture-rumis"]')?.naturalWidth > 0, null, { timeout: 10_000 });
    await screen(page, "home-phone-de.png");
    await axeCheck(page, "the lobby on a phone (de)");
    const coldLine = `phone cold load of the lobby: first paint ${cold.fcp} ms, play button usable ${cold.usable} ms, load event ${cold.load} ms, ${Math.round(cold.bytes / 1024)} KiB transferred`;
    log(coldLine);
    await ctx.close();
    const desktop = await newcomerRun(browser, base, problems, false);
    const phone = await newcomerRun(browser, base, problems, true);
    log(`FIGURES desktop: ${desktop.taps} clicks, ${desktop.seconds.toFixed(1)} s; phone: ${phone.taps} taps, ${phone.seconds.toFixed(1)} s; ${coldLine}`);
  }

  return { lobby: lobbyScenario, "lobby-picture": pictureScenario, "hand-end": handEndScenario, "newcomer-taps": newcomerTapsScenario };
}

// The lobby and the end of a game (issue #46):
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
import type { Page } from "@playwright/test";
import { test, expect, repo, DESKTOP, PHONE, type Api } from "./fixtures";
import { axeCheck, log, openSeat, practiceTable, SHOTS, shot, tid, waitAttr, waitText, columnPoint } from "./helpers";

const PICTURE = path.join(repo, "web/public/pictures/rumis-build.png");

const text = (page: Page, testid: string) => page.locator(tid(testid)).first().textContent().then((t) => t ?? "");
const title = (page: Page) => page.evaluate(() => document.title);

/** A screenshot: the whole page on the desktop, the screen on a phone (scrolled to
 * `testid`, if given). */
async function screen(page: Page, name: string, testid?: string) {
  if ((page.viewportSize()?.width ?? 1280) > 700) return shot(page, name);
  if (testid) await page.locator(tid(testid)).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** The table made by a click in the lobby: its id and this tab's token. */
async function landed(page: Page) {
  await page.waitForURL(/\/t\/[^/?#]+$/, { timeout: 15_000 });
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/")[2]);
  const token = await page.evaluate((id) => sessionStorage.getItem(`rumi-token-${id}`), id);
  await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
  return { id, token: token! };
}

// English on the desktop, German on a 390×844 touch screen.
const SHAPES = { en: { ...DESKTOP, name: "lobby-en" }, de: { ...PHONE, locale: "de-DE", name: "lobby-de" } } as const;

for (const lang of ["en", "de"] as const) {
  test(`lobby (${lang}): the game cards, quick starts, titles and the invite`, async ({ open, base, api }) => {
    const en = lang === "en";
    const page = await open(SHAPES[lang]);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(base + "/");
    await page.locator(tid("play-bot-rumis")).waitFor();
    // Two cards: a line, a picture each, the two quick starts.
    for (const game of ["rumis", "rummikub"]) {
      const card = await text(page, `card-${game}`);
      expect(card, `the ${game} card`).toContain(en ? "Play against the computer" : "Gegen den Computer spielen");
      expect(card, `the ${game} card`).toContain(en ? "Play with friends" : "Mit Freunden spielen");
    }
    expect(await text(page, "card-rumis"), "the Rumis card says what the game is").toContain("3D");
    expect(await text(page, "card-rummikub"), "the Rummikub card says what the game is").toContain(en ? "runs and groups" : "Reihen und Gruppen");
    await page.waitForFunction(() => (document.querySelector('[data-testid="picture-rumis"]') as HTMLImageElement | null)?.naturalWidth! > 0, null, { timeout: 10_000 });
    await expect(page.locator(`${tid("picture-rummikub")} .tile`), "the Rummikub picture is 7 tiles as the table draws them").toHaveCount(7);
    expect(requests.filter((u) => /\/assets\/three-/.test(u)), "the lobby loaded three.js").toEqual([]);
    // The bot is called as the table will call it.
    expect(await text(page, "play-bot-note-rumis"), "the quick game's note").toBe(en ? "Chullpa, two players, against Inti, intermediate bot" : "Chullpa, zwei Spieler, gegen Inti, Bot (Fortgeschritten)");
    // The form waits under "more options"; your own seat reads "you", a bot its name.
    expect(await page.locator(tid("more-options")).evaluate((d) => (d as HTMLDetailsElement).open), "the full form is open on landing").toBe(false);
    await expect(page.locator(tid("create")), "the create button shows before more options are asked for").toBeHidden();
    await screen(page, `home-${lang}.png`);
    await axeCheck(page, `the lobby with its game cards (${lang})`);
    await page.click(tid("more-options-summary"));
    await page.locator(tid("create")).waitFor();
    await expect(page.locator(`${tid("seat-kind-0")} option[value="human"]`), "my own seat").toHaveText(en ? "you" : "du");
    await expect(page.locator(`${tid("seat-kind-1")} option[value="human"]`), "another person's seat").toHaveText(en ? "a person (invited)" : "eine Person (eingeladen)");
    // With its rating in the table's pool (two-player Rumis), from the bot ladder.
    expect(await text(page, "seat-note-1"), "the bot seat's note").toMatch(en ? /^Inti \(casual, about [\d,]*0\)$/ : /^Inti \(Gelegenheitsspieler, etwa [\d.]*0\)$/);
    await axeCheck(page, `the lobby with more options open (${lang})`);
    if (!en) return;

    // One tap: Rummikub against the computer, current rules, a relaxed clock.
    await page.evaluate(() => localStorage.setItem("rumi.name", "Ana"));
    await page.reload();
    await page.click(tid("play-bot-rummikub"));
    const rk = await landed(page);
    const v = await api("GET", `/api/tables/${rk.id}`, undefined, rk.token);
    const bots = (await api("GET", "/api/meta")).rummikub.bots;
    const level = bots.find((b: any) => b.name === v.seats[1].bot)?.level;
    expect({ you: v.you, seats: v.seats.map((s: any) => [s.name, s.kind]), level }, "the quick Rummikub table").toEqual({ you: 0, seats: [["Ana", "human"], [v.seats[1].name, "bot"]], level: 3 });
    expect({ name: v.rummikub.rules.name, turn_seconds: v.rummikub.rules.turn_seconds, seats: v.seats.length }, "the quick Rummikub rules").toEqual({ name: "current", turn_seconds: 120, seats: 2 });
    const heading = await waitText(page, "table-title", (t) => t.includes("Inti (bot, "), 10_000, "(the title names the players and the bot's level)");
    expect(heading, "the table's heading").toMatch(/^Rummikub · current rules · Ana vs Inti \(bot, intermediate\)/);
    expect(heading, "the table's heading names no id").not.toContain(rk.id);
    expect(await title(page), "the tab's title").toContain("Rummikub · current rules · Ana vs Inti (bot, intermediate)");
    await waitText(page, "seat-1", (t) => t.includes("Inti, intermediate"), 10_000, "(the bot's pill)");
    const pill = await page.locator(`${tid("seat-1")} .name`).textContent();
    expect(pill, "the bot's seat pill").toBe("Inti, intermediate bot");
    log(`quick Rummikub: "${heading}", the bot "${pill}", ${v.rummikub.rules.turn_seconds} s a turn`);

    // Play with friends (Rumis): a table for two, the invite link to send.
    await page.goto(base + "/");
    await page.click(tid("play-friends-rumis"));
    await landed(page);
    const link = await page.locator(tid("invite-1")).inputValue();
    expect(link, "the invite link").toMatch(/\/t\/[^#]+#token=/);
    // Your tables, by name.
    await page.goto(base + "/");
    const listed = await waitText(page, `my-table-${rk.id}`, (t) => t.includes("Inti"), 10_000, "(my Rummikub table by its players)");
    expect(listed, "my table in the list").toContain("Rummikub · current rules · Ana vs Inti (bot, intermediate)");
    expect(listed, "my table in the list names no id").not.toContain(rk.id);

    // The invite, opened in a German browser: who invites you to what.
    const B = await open({ ...DESKTOP, locale: "de-DE", name: "invitee" });
    await B.goto(link);
    const line = await waitText(B, "invitation-line", (t) => t.length > 0, 10_000, "(the invitation)");
    expect(line, "the invite page").toBe("Ana lädt dich zu Rumis, Chullpa, 2 Spieler ein");
    await shot(B, "invite-de.png");
    await axeCheck(B, "the invite page (de)");
    await B.fill(tid("ask-name-input"), "Bo");
    await B.click(tid("ask-name-sit"));
    const bTitle = await waitText(B, "table-title", (t) => t.includes("Bo"), 10_000, "(Bo seated)");
    expect(bTitle, "Bo's table's title").toMatch(/^Rumis · Chullpa · Ana gegen Bo/);
    log(`friends: invite "${line}", then "${bTitle}"`);
    await B.context().close();

    // The open tables list names the game and the players, not an id.
    const openTable = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 3, variant: "standard" }, seats: [{ kind: "human", name: "Zed" }, { kind: "bot", bot: "mcts:5" }, { kind: "open" }] });
    await page.click(tid("refresh-tables"));
    const row = await waitText(page, `open-title-${openTable.id}`, (t) => t.includes("Zed"), 10_000, "(the open table)");
    expect(row, "the open table in the list").toMatch(/^Rumis · Chullpa · Zed vs Inti \(bot, expert\) vs open seat \(open for/);
    await axeCheck(page, "the lobby with tables listed (en)");
  });
}

test("lobby-picture: the kept Rumis picture is the scene's render", async ({ open, base }) => {
  const page = await open({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, name: "picture" });
  await page.goto(base + "/picture/rumis");
  await waitAttr(page, "live-picture", "data-drawn", (d) => d === "true", 30_000, "(the build drawn)");
  const src = (await page.locator(tid("live-picture")).getAttribute("src"))!;
  const png = Buffer.from(src.split(",")[1], "base64");
  expect([png.subarray(1, 4).toString("ascii"), png.readUInt32BE(16), png.readUInt32BE(20)], "the live render is a 480×300 PNG").toEqual(["PNG", 480, 300]);
  if (process.env.RUMI_WRITE_PICTURE === "1") {
    fs.mkdirSync(path.dirname(PICTURE), { recursive: true });
    fs.writeFileSync(PICTURE, png);
    log(`wrote ${path.relative(repo, PICTURE)} (${png.length} bytes)`);
  }
  expect(fs.existsSync(PICTURE), `${PICTURE} is missing (RUMI_WRITE_PICTURE=1 npx playwright test lobby-picture)`).toBe(true);
  const kept = fs.readFileSync(PICTURE);
  expect([kept.readUInt32BE(16), kept.readUInt32BE(20)], "the lobby's picture is 480×300").toEqual([480, 300]);
  // The kept picture is the scene's render: the same pixels, but for the GPU's rounding.
  const diff = await page.evaluate(
    async ([a, b]) => {
      const load = (s: string) =>
        new Promise<HTMLImageElement>((r, no) => {
          const i = new Image();
          i.onload = () => r(i);
          i.onerror = () => no(new Error(`cannot load ${s.slice(0, 40)}`));
          i.src = s;
        });
      const [ia, ib] = await Promise.all([load(a), load(b)]);
      const px = (img: HTMLImageElement) => {
        const c = document.createElement("canvas");
        c.width = 480;
        c.height = 300;
        const g = c.getContext("2d")!;
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, 480, 300).data;
      };
      const pa = px(ia),
        pb = px(ib);
      let off = 0;
      for (let i = 0; i < pa.length; i += 4) if (Math.abs(pa[i] - pb[i]) + Math.abs(pa[i + 1] - pb[i + 1]) + Math.abs(pa[i + 2] - pb[i + 2]) > 48) off++;
      return off / (pa.length / 4);
    },
    [src, "/pictures/rumis-build.png"],
  );
  expect(diff, `the share of the lobby picture's pixels that differ from the scene's render (draw it anew: RUMI_WRITE_PICTURE=1 npx playwright test lobby-picture)`).toBeLessThan(0.03);
  log(`the lobby's Rumis picture matches the scene's render (${(diff * 100).toFixed(2)} % of pixels apart)`);
});

/** Hands my seat to the bot `bot` through the dialog (not yet confirmed); what the dialog says. */
async function handOver(page: Page, bot: string, want: string) {
  await page.selectOption(tid("hand-bot-choice-0"), bot);
  const label = await page.locator('label[for="hand-bot-choice-0"]').textContent();
  const named = await page.locator(tid("hand-bot-choice-0")).getAttribute("aria-label");
  expect(label, "the level menu's label").toMatch(/bot/i);
  expect(named, "the level menu's name").toMatch(/Level of the bot that would play|Stärke des Bots, der spielen würde/);
  await page.click(tid("hand-bot-0"));
  await page.locator(tid("hand-dialog")).waitFor();
  const said = await text(page, "hand-dialog-text");
  expect(said, "the dialog").toContain(want);
  return said;
}

for (const lang of ["en", "de"] as const) {
  test(`hand-end (${lang}): the hand-over dialog, the end panel, the deal's proof, the replay's title`, async ({ open, base, api }) => {
    test.setTimeout(400_000);
    const en = lang === "en";
    const page = await open({ ...SHAPES[lang], name: `end-${lang}` });
    // Rumis: asked before the bot takes my seat; the end panel; no proof (nothing dealt).
    const t1 = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 3 });
    await openSeat(page, base, t1.id, t1.token);
    await page.locator(tid("hand-bot-0")).waitFor({ timeout: 10_000 });
    const said = await handOver(page, "random", en ? "Chaska, beginner bot will play your seat" : "Chaska, Bot (Einsteiger) spielt ab jetzt deinen Platz");
    if (en) await shot(page, "hand-confirm-en.png");
    await axeCheck(page, `the hand-over dialog (${lang})`);
    await page.click(tid("hand-cancel"));
    await page.locator(tid("hand-dialog")).waitFor({ state: "detached" });
    const v1 = await api("GET", `/api/tables/${t1.id}`, undefined, t1.token);
    expect(v1.seats[0].kind, "cancelling the dialog handed my seat to a bot").toBe("human");
    await handOver(page, "random", "Chaska");
    // The beginner bot may finish the game before the take-back line could be read (the
    // line goes with the end): record every text it shows from now on.
    await page.evaluate(() => {
      const w = window as any;
      w.__botPlays = [];
      const seen = () => {
        const el = document.querySelector('[data-testid="bot-plays"]');
        if (el) w.__botPlays.push(el.textContent ?? "");
      };
      new MutationObserver(seen).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await page.click(tid("hand-confirm"));
    await expect(page.locator(tid("seat-0")), "my seat played by the bot").toHaveAttribute("data-kind", "bot");
    await page.waitForFunction(() => (window as any).__botPlays.length > 0, null, { timeout: 10_000 });
    const plays: string = await page.evaluate(() => (window as any).__botPlays[0]);
    expect(plays, "the take-back line").toMatch(en ? /^Chaska, beginner bot plays your seat/ : /^Chaska, Bot \(Einsteiger\) spielt deinen Platz/);
    log(`hand-over (${lang}): "${said}", then "${plays}"`);
    await expect(page.locator(tid("turn-status")), "the Rumis game over").toHaveAttribute("data-over", "true", { timeout: 60_000 });
    await page.locator(tid("ranking")).waitFor({ timeout: 10_000 });
    const v = await api("GET", `/api/tables/${t1.id}`, undefined, t1.token);
    const rows = await page.locator(`${tid("ranking")} tbody tr`).allTextContents();
    expect(rows.length === 2 && rows.every((r, i) => r.startsWith(String(i + 1)) || r.startsWith("1")), `the ranking is ${rows.join(" | ")}`).toBe(true);
    const first = v.result.winners[0];
    expect(rows[0], "the first row is the winner").toContain(first === 0 ? "Ana" : "Inti");
    expect(rows[0], "the first row has the winner's score").toContain(String(v.result.scores[first]));
    await expect(page.locator(tid("connection")), "the live badge stays after the end").toBeHidden();
    await expect(page.locator(tid("move-form")), "the move input stays after the end").toBeHidden();
    await expect(page.locator(tid("place-button")), "Place stays after the end").toBeHidden();
    await expect(page.locator(tid("fairness")), "a Rumis game, where nothing is dealt, shows a proof of its deal").toHaveCount(0);
    await expect(page.locator(tid("check-deal")), "a Rumis game, where nothing is dealt, shows a proof of its deal").toHaveCount(0);
    await expect(page.locator(tid("replay-link")), "no replay link at the end").toBeVisible();
    await screen(page, `end-panel-rumis-${lang}.png`, "result");
    await axeCheck(page, `the Rumis end panel (${lang})`);
    log(`Rumis end (${lang}): ${rows.join(" | ")}`);
    if (en) {
      // New game: the same settings, a new table, me on my seat.
      await page.click(tid("new-game"));
      await page.waitForURL((u) => u.pathname.startsWith("/t/") && !u.pathname.endsWith(t1.id), { timeout: 15_000 });
      const again = await landed(page);
      const w = await api("GET", `/api/tables/${again.id}`, undefined, again.token);
      expect({ you: w.you, scenario: w.rumis.scenario.key, players: w.rumis.players, bot: w.seats[1].bot, name: w.seats[0].name, over: w.over }, "the new game").toEqual({ you: 0, scenario: "chullpa", players: 2, bot: "greedy", name: "Ana", over: false });
      log(`new game ${again.id}: the same board and bot`);
    }

    // Rummikub: the end panel with the proof behind "check this deal".
    const t2 = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 9 });
    await openSeat(page, base, t2.id, t2.token);
    // During the game the commitment waits behind "fair deal ✓" for those who want it.
    await expect(page.locator(`${tid("fair-deal")} summary`)).toHaveText(en ? /^fair deal ✓/ : /^faire Verteilung ✓/);
    await expect(page.locator(tid("commitment")), "the commitment shown before asked for").toBeHidden();
    await page.click(`${tid("fair-deal")} summary`);
    await expect(page.locator(tid("commitment")), "no commitment behind fair deal").toBeVisible();
    await page.locator(tid("hand-bot-0")).waitFor({ timeout: 10_000 });
    await handOver(page, "greedy", en ? "Chaska, casual bot" : "Chaska, Bot (Gelegenheitsspieler)");
    await page.click(tid("hand-confirm"));
    await expect(page.locator(tid("turn-status")), "the Rummikub game over").toHaveAttribute("data-over", "true", { timeout: 120_000 });
    await page.locator(tid("check-deal")).waitFor({ timeout: 10_000 });
    expect(await page.locator(tid("check-deal")).evaluate((d) => (d as HTMLDetailsElement).open), "the proof of the deal is open at the end").toBe(false);
    await expect(page.locator(tid("verify-command")), "rumi verify shows before asked for").toBeHidden();
    const ranked = await page.locator(`${tid("ranking")} tbody tr`).allTextContents();
    expect(ranked.length, `the Rummikub ranking is ${ranked.join(" | ")}`).toBe(2);
    await screen(page, `end-panel-${lang}.png`, "result");
    await axeCheck(page, `the Rummikub end panel (${lang})`);
    await page.click(`${tid("check-deal")} summary`);
    await expect(page.locator(tid("fairness-check")), "the browser's check of the commitment").toHaveAttribute("data-ok", "true", { timeout: 5_000 });
    await expect(page.locator(tid("verify-command"))).toBeVisible();
    await expect(page.locator(tid("revealed-seed")), "the revealed seed is the practice seed").toHaveText("9");
    await axeCheck(page, `the Rummikub end panel with the deal's check open (${lang})`);
    // The replay is named as the table is.
    await page.click(tid("replay-link"));
    await page.locator(tid("replay-step")).waitFor();
    const replayTitle = await waitText(page, "replay-title", (t) => t.includes("Inti"), 10_000, "(the replay's title)");
    expect(replayTitle, "the replay's title").toBe(en ? "Replay: Rummikub · current rules · Ana vs Inti (bot, casual)" : "Nachspielen: Rummikub · aktuelle Regeln · Ana gegen Inti (Bot, Gelegenheitsspieler)");
    log(`Rummikub end (${lang}): ${ranked.join(" | ")}; the deal checks in the browser; the replay is "${replayTitle}"`);
  });
}

/** Lands on `/` and places a first legal Rumis stone against the computer, counting
 * taps (clicks on the desktop) and checking that the page never scrolls. */
async function newcomerRun(open: (o: any) => Promise<Page>, base: string, api: Api, phone: boolean) {
  const what = phone ? "phone 390×844" : "desktop 1280×900";
  const page = await open(phone ? { ...PHONE, name: "newcomer-phone" } : { ...DESKTOP, name: "newcomer-desktop" });
  let taps = 0;
  const size = page.viewportSize()!;
  /** Taps (or clicks) a point that must be inside the viewport, without scrolling. */
  const tapAt = async (p: { x: number; y: number }, why: string) => {
    expect(p.x >= 0 && p.y >= 0 && p.x <= size.width && p.y <= size.height, `${what}: ${why} at ${Math.round(p.x)},${Math.round(p.y)} is outside the ${size.width}×${size.height} viewport`).toBe(true);
    taps++;
    if (phone) await page.touchscreen.tap(p.x, p.y);
    else await page.mouse.click(p.x, p.y);
  };
  const tapOn = async (selector: string, why: string) => {
    const box = await page.locator(selector).boundingBox();
    expect(box, `${what}: no ${why}`).toBeTruthy();
    await tapAt({ x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 }, why);
  };
  const noScroll = async (when: string) => {
    expect(await page.evaluate(() => [window.scrollX, window.scrollY]), `${what}: the page scrolled ${when}`).toEqual([0, 0]);
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
  await expect(page.locator(tid("turn-status")), "my turn").toHaveAttribute("data-my-turn", "true", { timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tray"] [data-legal]').length > 0, null, { timeout: 10_000 });
  await noScroll("on the table");
  const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!, Number((e as HTMLElement).dataset.legal)] as const));
  const stone = stones.find(([, n]) => n > 0)?.[0];
  expect(stone, `${what}: no stone fits (${JSON.stringify(stones)})`).toBeTruthy();
  await tapOn(tid(stone!), "a stone of the tray");
  const marks = (await waitAttr(page, "rumis-viewport", "data-marks", (m) => !!m, 5_000, "(marks for the stone)"))!;
  const [mx, my] = marks.split(";")[0].split(",").map(Number);
  const point = await columnPoint(page, mx, my);
  const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
  await tapAt(point, "a marked column");
  if (phone) {
    // A touch shows the ghost first; a second tap on it places it.
    await expect(page.locator(tid("ghost-status")), "a green ghost").toHaveAttribute("data-legal", "true", { timeout: 5_000 });
    await tapAt(point, "the green ghost");
  }
  await waitAttr(page, "turn-status", "data-version", (v) => Number(v) > version, 10_000, "(the stone placed)");
  const seconds = (Date.now() - t0) / 1000;
  await noScroll("after the first stone");
  const v = await api("GET", `/api/tables/${id}`, undefined, token);
  const mine = v.rumis.colours.filter((c: any) => c.owner === v.you).map((c: any) => c.colour);
  expect(v.rumis.cubes.some((c: any) => mine.includes(c.colour)), `${what}: no cube of mine after the placing`).toBe(true);
  expect(taps, `${what}: taps to the first stone`).toBeLessThanOrEqual(4);
  await shot(page, `newcomer-first-stone-${phone ? "phone" : "desktop"}.png`);
  log(`newcomer on the ${what}: ${taps} ${phone ? "taps" : "clicks"}, ${seconds.toFixed(1)} s from landing on / to the first placed stone, no scrolling; the lobby usable ${ready} ms after navigation`);
  await page.context().close();
  return { taps, seconds, ready };
}

test("newcomer-taps: a first Rumis stone in at most 4 taps, never a scroll", async ({ open, base, api }) => {
  // The lobby's cold load on the phone: a fresh context, nothing cached.
  const page = await open({ ...PHONE, locale: "de-DE", name: "newcomer-cold" });
  await page.goto(base + "/");
  await page.locator(tid("play-bot-rumis")).waitFor();
  const cold = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    const mark = performance.getEntriesByName("rumi-lobby-usable")[0];
    return {
      usable: mark ? Math.round(mark.startTime) : null,
      load: Math.round(nav.loadEventEnd),
      fcp: fcp ? Math.round(fcp.startTime) : null,
      bytes: (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).reduce((n, r) => n + (r.transferSize || 0), nav.transferSize || 0),
    };
  });
  const box = (await page.locator(tid("play-bot-rumis")).boundingBox())!;
  expect(box.y + box.height, `on the phone the play button is below the fold (${Math.round(box.y)} px)`).toBeLessThanOrEqual(844);
  await page.waitForFunction(() => (document.querySelector('[data-testid="picture-rumis"]') as HTMLImageElement | null)?.naturalWidth! > 0, null, { timeout: 10_000 });
  await screen(page, "home-phone-de.png");
  await axeCheck(page, "the lobby on a phone (de)");
  const coldLine = `phone cold load of the lobby: first paint ${cold.fcp} ms, play button usable ${cold.usable} ms, load event ${cold.load} ms, ${Math.round(cold.bytes / 1024)} KiB transferred`;
  log(coldLine);
  await page.context().close();
  const desktop = await newcomerRun(open, base, api, false);
  const phone = await newcomerRun(open, base, api, true);
  log(`FIGURES desktop: ${desktop.taps} clicks, ${desktop.seconds.toFixed(1)} s; phone: ${phone.taps} taps, ${phone.seconds.toFixed(1)} s; ${coldLine}`);
});

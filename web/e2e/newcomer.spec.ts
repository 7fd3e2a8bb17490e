// The client a newcomer meets (issue #46):
// - turn: your turn in the tab's title and favicon, the sound switch (off, remembered),
//   a notification while the tab is hidden after opting in, the clock's last 10 s;
//   desktop, German, and the 390×844 touch viewport.
// - names: the German client of a game with a bot: default names and bot levels in
//   German, plurals by the language's rules, nothing English; then the same in English.
// - manifest: the web app manifest is linked, served as a manifest, parses, and its
//   icons (192, 512, maskable) load as PNGs of their sizes.
import type { Page } from "@playwright/test";
import { test, expect, DESKTOP, PHONE, type Api } from "./fixtures";
import { axeCheck, dragTile, log, openSeat, practiceTable, shot, tid, waitAttr, waitText } from "./helpers";

/** Stubs `window.Notification` so that the test sees each notification, keeping the
 * browser's own permission (granted through the context) and its request. */
const NOTIFICATION_STUB = () => {
  const w = window as any;
  w.__notes = [];
  w.__hidden = false;
  const Real = window.Notification;
  class Recorded {
    static get permission() {
      return Real ? Real.permission : "granted";
    }
    static requestPermission() {
      return Real ? Real.requestPermission() : Promise.resolve("granted");
    }
    constructor(title: string, options?: NotificationOptions) {
      w.__notes.push({ title, body: options?.body ?? "" });
    }
    close() {}
  }
  Object.defineProperty(window, "Notification", { value: Recorded, configurable: true, writable: true });
  Object.defineProperty(Document.prototype, "hidden", { get: () => w.__hidden, configurable: true });
  Object.defineProperty(Document.prototype, "visibilityState", { get: () => (w.__hidden ? "hidden" : "visible"), configurable: true });
};

const title = (page: Page) => page.evaluate(() => document.title);

/** Waits until the tab's title satisfies `predicate`; the title. */
async function waitTitle(page: Page, predicate: (t: string) => boolean, what: string): Promise<string> {
  let last = "";
  await expect
    .poll(
      async () => {
        last = await title(page);
        return predicate(last);
      },
      { message: `the title ${what}`, timeout: 15_000, intervals: [50] },
    )
    .toBe(true);
  return last;
}

const favicon = (page: Page) => page.evaluate(() => (document.querySelector('link[rel="icon"]') as HTMLElement | null)?.dataset.turn ?? null);

/** Bo draws (the only move there always is). */
async function draw(api: Api, id: string, token: string) {
  const v = await api("GET", `/api/tables/${id}`, undefined, token);
  await api("POST", `/api/tables/${id}/actions`, { version: v.version, action: { type: "draw" } }, token);
}

// The turn test's table has two people and a fixed seed: a server that allows it.
test.use({ allowChosenSeeds: true });

test("turn: the title, favicon, sound, notification and the clock's last seconds", async ({ open, base, api }) => {
  // Two people, no clock: Ana in the browser, Bo over the API. Seed 1: Bo starts
  // (`rumi rummikub deal --seed 1`), so that Ana's page first shows his turn.
  const made = await api("POST", "/api/tables", { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "human", name: "Bo" }], seed: 1 });
  const id = made.id;
  const ana = made.you.token;
  const invite = new URLSearchParams(made.seats[1].invite.split("#")[1]).get("token");
  const bo = (await api("POST", `/api/tables/${id}/claim`, {}, invite)).token;

  const page = await open({ ...DESKTOP, name: "turn" });
  await page.context().grantPermissions(["notifications"], { origin: base });
  await page.context().addInitScript(NOTIFICATION_STUB);
  await openSeat(page, base, id, ana);
  const first = await api("GET", `/api/tables/${id}`, undefined, ana);
  expect(first.to_move, "seed 1: Bo moves first").toBe(1);
  // Bo's turn: no mark; then Bo moves and it is Ana's.
  await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "false");
  const t0 = await title(page);
  expect(t0, "not my turn, yet the title has a mark").not.toContain("●");
  expect(await favicon(page), "not my turn, yet the favicon has a dot").toBe("false");
  await draw(api, id, bo);
  const mine = await waitTitle(page, (t) => t.startsWith("● Your turn · "), "(my turn)");
  expect(mine).toMatch(/^● Your turn · rumi — Rummikub /);
  expect(await favicon(page), "the favicon has no dot on my turn").toBe("true");
  const icon = await page.evaluate(() => (document.querySelector('link[rel="icon"]') as HTMLLinkElement).href);
  expect(icon.startsWith("data:image/svg+xml,") && decodeURIComponent(icon).includes("<circle"), `the turn favicon is ${icon.slice(0, 80)}`).toBe(true);
  log(`my turn: title "${mine}", favicon with a dot`);

  // Sound: off by default, switched on, remembered over a reload.
  await expect(page.locator(tid("turn-sound")), "the sound is on by default").toHaveAttribute("aria-pressed", "false");
  await page.click(tid("turn-sound"));
  await expect(page.locator(tid("turn-sound")), "the sound switch did not switch on").toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(page.locator(tid("turn-sound")), "the sound switch remembered over a reload").toHaveAttribute("aria-pressed", "true");
  await expect(page.locator(tid("turn-sound"))).toContainText("Sound: on");

  // Notifications: asked for with the button.
  await expect(page.locator(tid("turn-notify")), "notifications are on before being asked for").toHaveAttribute("aria-pressed", "false");
  await page.click(tid("turn-notify"));
  await expect(page.locator(tid("turn-notify")), "notifications on after the opt-in").toHaveAttribute("aria-pressed", "true", { timeout: 5_000 });

  // I move (draw in the page): the mark goes.
  await page.click(tid("draw"));
  const after = await waitTitle(page, (t) => !t.includes("●"), "(after my move)");
  expect(after).toMatch(/^rumi — Rummikub /);
  expect(await favicon(page), "the favicon keeps its dot after my move").toBe("false");
  log(`after my move: "${after}"`);

  // The tab is hidden; Bo moves: the mark is back, a notification and a chime.
  const chimes = Number((await page.locator(".turn-signal").getAttribute("data-chimes")) ?? 0);
  await page.evaluate(() => {
    (window as any).__hidden = true;
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await draw(api, id, bo);
  await waitTitle(page, (t) => t.startsWith("● Your turn · "), "(my turn again)");
  const notes = await page.evaluate(() => (window as any).__notes);
  expect(notes.length === 1 && notes[0].title === "Your turn at rumi" && notes[0].body.includes("Rummikub · current rules · Ana vs Bo"), `notifications while hidden: ${JSON.stringify(notes)}`).toBe(true);
  // (the chime is counted when the turn comes, with the title)
  await expect(page.locator(".turn-signal"), "the sound played once when my turn came").toHaveAttribute("data-chimes", String(chimes + 1));
  // Visible again: my next turn does not notify.
  await page.evaluate(() => ((window as any).__hidden = false));
  await page.click(tid("draw"));
  await waitTitle(page, (t) => !t.includes("●"), "(after my second move)");
  await draw(api, id, bo);
  await waitTitle(page, (t) => t.startsWith("● Your turn · "), "(my third turn)");
  expect(await page.evaluate(() => (window as any).__notes.length), "a notification came while the tab was visible").toBe(1);
  log("a notification while hidden (after opting in), none while visible; the chime played");
  await shot(page, "turn-en.png");

  // German, on another device of the same player: "Du bist dran", the sound off there.
  const dePage = await open({ ...DESKTOP, locale: "de-DE", name: "turn-de" });
  await openSeat(dePage, base, id, ana);
  const deTitle = await waitTitle(dePage, (t) => t.startsWith("● "), "(my turn, German)");
  expect(deTitle).toMatch(/^● Du bist dran · rumi — Rummikub /);
  await expect(dePage.locator(tid("turn-sound"))).toContainText("Ton: aus");
  await axeCheck(dePage, "a Rummikub table with the turn switches (de)");
  await dePage.context().close();

  // A phone: the switches fit and are big enough to tap.
  const phonePage = await open({ viewport: PHONE.viewport, isMobile: true, hasTouch: true, locale: "en-US", name: "turn-phone" });
  await openSeat(phonePage, base, id, ana);
  await waitTitle(phonePage, (t) => t.startsWith("● Your turn"), "(my turn, phone)");
  for (const b of ["turn-sound", "turn-notify"]) {
    const box = await phonePage.locator(tid(b)).boundingBox();
    expect(box && box.height >= 44 && box.width >= 44 && box.x >= 0 && box.x + box.width <= 390, `${b} on the phone: ${JSON.stringify(box)}`).toBe(true);
    log(`${b} on the phone: ${Math.round(box!.width)}×${Math.round(box!.height)} at x ${Math.round(box!.x)}`);
  }
  await shot(phonePage, "turn-phone.png");
  await phonePage.context().close();
  await page.context().close();

  // The clock's last 10 s: red, and said once (aria-live) on my own turn.
  // Seed 3: I start, without three pairs (`rumi rummikub deal --seed 3`).
  const table = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: 12 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed: 3 });
  const v0 = await api("GET", `/api/tables/${table.id}`, undefined, table.token);
  expect([v0.to_move, v0.version, v0.rummikub.can_claim_redeal], "seed 3: my first turn, no new deal to demand").toEqual([0, 0, false]);
  for (const [locale, said] of [
    ["en-US", /^Only (1 second|([2-9]|10) seconds) left for your turn!$/],
    ["de-DE", /^Nur noch (1 Sekunde|([2-9]|10) Sekunden) für deinen Zug!$/],
  ] as const) {
    const p = await open({ ...DESKTOP, locale, name: `clock-${locale}` });
    await openSeat(p, base, table.id, table.token);
    await expect(p.locator(tid("countdown")), "the clock's last 10 s").toHaveAttribute("data-urgent", "true", { timeout: 20_000 });
    await expect(p.locator(tid("countdown")), "the clock is not marked urgent").toHaveClass(/\burgent\b/);
    const text = await waitText(p, "clock-warning", (t) => t.length > 0, 5_000, "(the warning said)");
    expect(text, "the clock warning").toMatch(said);
    await expect(p.locator(tid("clock-warning")), "the warning is not in a live region").toHaveAttribute("aria-live", "assertive");
    log(`the clock warns (${locale}): ${text}`);
    await p.context().close();
    if (locale === "en-US") {
      // The German page opens on a turn of mine with at least 6 s left (half of each
      // 12 s turn comes round every turn), time to open before its clock runs out.
      await expect
        .poll(
          async () => {
            const w = await api("GET", `/api/tables/${table.id}`, undefined, table.token);
            if (w.over) throw new Error("the clock game ended");
            return w.to_move === 0 && (w.deadline_ms ?? 0) - Date.now() > 6_000;
          },
          { message: "my turn with 6 s on the clock did not come back", timeout: 60_000, intervals: [100] },
        )
        .toBe(true);
    }
  }
});

test("names: default names, bot levels and plurals in German, then English", async ({ pageDe: page, base, api }) => {
  // A practice game against the greedy bot (no name given: the server's "Player 1").
  // Seed 3: I start, without three pairs (`rumi rummikub deal --seed 3`).
  const t = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human" }, { kind: "bot", bot: "greedy" }], seed: 3 });
  const start = await api("GET", `/api/tables/${t.id}`, undefined, t.token);
  expect([start.to_move, start.version, start.rummikub.can_claim_redeal], "seed 3: my first turn, no new deal to demand").toEqual([0, 0, false]);
  expect([t.made.you.name, t.made.seats[1].name], "the server's default names").toEqual(["Player 1", "greedy bot"]);
  await openSeat(page, base, t.id, t.token);
  await waitText(page, "seat-0", (s) => s.includes("Spieler 1"), 10_000, "(my default name in German)");
  const bot = await waitText(page, "seat-1", (s) => /Bot \(/.test(s), 10_000, "(the bot by its level, in German)");
  // (a bot seat by its own name and level, issue #46 point 6)
  expect(bot.trim(), "the bot's seat").toMatch(/^Inti, Bot \((Einsteiger|Gelegenheitsspieler|Fortgeschritten|Stark|Experte)\)/);
  await expect(page.locator(tid("rack-size-0"))).toHaveText("14 Steine");
  // One tile in a new set: "1 Stein", not "1 Steine" or "Stein(e)".
  const first = await page.locator(`${tid("rack")} [data-tile]`).first().getAttribute("data-tile");
  await dragTile(page, `${tid("rack")} [data-tile="${first}"]`, tid("new-set"));
  const problem = await waitText(page, "set-problem-0", (s) => s.length > 0, 5_000, "(a one-tile set's problem)");
  expect(problem, "a one-tile set's problem").toBe("hat nur 1 Stein; eine Serie braucht mindestens 3");
  await page.click(tid("reset-turn"));
  // I draw; the bot plays; its move is said with its German name.
  // (the bot may answer before the page shows its turn: wait for two versions more)
  const v0 = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
  await page.click(tid("draw"));
  await waitAttr(page, "turn-status", "data-version", (v) => Number(v) >= v0 + 2, 20_000, "(my draw and the bot's move)");
  await expect(page.locator(tid("turn-status")), "my turn again").toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
  await expect(page.locator(tid("last")), "the bot's move in German").toContainText(/Bot \(/);
  const text = await page.evaluate(() => document.body.innerText);
  for (const bad of [/Player/, /Stein\(e\)/, /greedy/, /\(s\)/, /\b1 Steine\b/, /\btiles?\b/, /Your turn/])
    expect(bad.test(text), `the German table shows ${bad}: …${text.slice(Math.max(0, text.search(bad) - 60), text.search(bad) + 60)}…`).toBe(false);
  expect(await title(page), "the German title does not say it is my turn").toMatch(/^● Du bist dran/);
  await shot(page, "names-de.png");
  await axeCheck(page, "a German Rummikub table against a bot");

  // The lobby's list in German: the default names and the bot's level, an open seat.
  const openTable = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current" }, seats: [{ kind: "human" }, { kind: "bot", bot: "greedy" }, { kind: "open" }] });
  await page.goto(base + "/");
  await page.locator(tid("refresh-tables")).click();
  const line = await waitText(page, `open-table-${openTable.id}`, (s) => s.includes("Spieler 1"), 10_000, "(the open table in German)");
  expect(line, "the lobby line").toMatch(/Spieler 1 gegen Inti \(Bot, [\w ]+\) gegen freier Platz/);
  expect(line, "the lobby line").not.toMatch(/Player|greedy/);
  const lobbyText = await page.evaluate(() => document.body.innerText);
  expect(lobbyText.match(/.{0,40}(Player|greedy|\(s\)|\(e\)).{0,40}/)?.[0], "the German lobby shows English").toBeUndefined();

  // A German Rumis table against the greedy bot: no English name there either.
  const rumis = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human" }, { kind: "bot", bot: "greedy" }], seed: 7 });
  await openSeat(page, base, rumis.id, rumis.token);
  await waitText(page, "seat-1", (s) => /Bot \(/.test(s), 10_000, "(the Rumis bot by its level, in German)");
  await waitText(page, "seat-0", (s) => s.includes("Spieler 1"), 10_000, "(my default name on a Rumis table)");
  await page.locator(tid("rumis-canvas")).waitFor({ timeout: 15_000 });
  await page.locator(tid("cube-count")).waitFor({ timeout: 15_000 });
  const rumisText = await page.evaluate(() => document.body.innerText);
  expect(rumisText.match(/.{0,40}(Player|greedy|\(s\)|\(e\)|Your turn).{0,40}/)?.[0], "the German Rumis table shows English").toBeUndefined();
  await page.click(tid("rename-seat"));
  await expect(page.locator(tid("rename-input")), "renaming starts from an empty field, not the server's default name").toHaveValue("");

  // English: the same names, in English, and plurals.
  await page.click(tid("lang-en"));
  await page.waitForLoadState("load");
  await openSeat(page, base, t.id, t.token);
  await waitText(page, "seat-0", (s) => s.includes("Player 1"), 10_000, "(my default name in English)");
  const botEn = await waitText(page, "seat-1", (s) => / bot/.test(s), 10_000, "(the bot by its level, in English)");
  expect(botEn.trim(), "the bot's seat").toMatch(/^Inti, (beginner|casual|intermediate|advanced|expert) bot/);
  expect(botEn, "the bot's seat").not.toMatch(/greedy/);
  await expect(page.locator(tid("rack-size-0"))).toHaveText(/^1[0-9] tiles$/);
  await shot(page, "names-en.png");
});

test("manifest: served, parsed, its icons load", async ({ open, base }) => {
  const r = await fetch(`${base}/manifest.webmanifest`);
  const type = r.headers.get("content-type") ?? "";
  expect(r.status).toBe(200);
  expect(type).toMatch(/^application\/manifest\+json/);
  const manifest = JSON.parse(await r.text());
  expect(!!manifest.name && manifest.short_name === "rumi" && manifest.display === "standalone" && /^#[0-9a-f]{6}$/i.test(manifest.theme_color) && manifest.start_url === "/", `the manifest: ${JSON.stringify(manifest)}`).toBe(true);
  const png = manifest.icons.filter((i: any) => i.type === "image/png");
  for (const size of ["192x192", "512x512"]) expect(png.some((i: any) => i.sizes === size && i.purpose !== "maskable"), `no ${size} PNG icon`).toBe(true);
  expect(png.some((i: any) => i.purpose === "maskable"), "no maskable icon").toBe(true);
  for (const icon of manifest.icons) {
    const a = await fetch(new URL(icon.src, base));
    const bytes = Buffer.from(await a.arrayBuffer());
    expect(a.status, `${icon.src}`).toBe(200);
    expect(a.headers.get("content-type") ?? "", `${icon.src}'s type`).toMatch(new RegExp(`^${icon.type.replace("+", "\\+")}`));
    if (icon.type === "image/png") {
      expect(bytes.subarray(1, 4).toString("ascii"), `${icon.src} is not a PNG`).toBe("PNG");
      const [w, h] = icon.sizes.split("x").map(Number);
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], `${icon.src}'s size (the manifest says ${icon.sizes})`).toEqual([w, h]);
    }
  }
  // The page links it, and the browser loads the icons it names.
  const page = await open({ viewport: PHONE.viewport, isMobile: true, hasTouch: true, name: "manifest" });
  await page.goto(base + "/");
  const linked = await page.evaluate(() => (document.querySelector('link[rel="manifest"]') as HTMLLinkElement | null)?.href);
  expect(linked, "the page links the manifest").toBe(`${base}/manifest.webmanifest`);
  const loaded = await page.evaluate(async (href) => {
    const m = await (await fetch(href!)).json();
    return Promise.all(
      m.icons.map(
        (i: any) =>
          new Promise<{ src: string; w: number; h: number }>((resolve) => {
            const img = new Image();
            img.onload = () => resolve({ src: i.src, w: img.naturalWidth, h: img.naturalHeight });
            img.onerror = () => resolve({ src: i.src, w: 0, h: 0 });
            img.src = new URL(i.src, href).href;
          }),
      ),
    );
  }, linked);
  expect(loaded.filter((l) => !(l.w > 0 && l.h > 0)), "icons the page could not load").toEqual([]);
  const cdp = await page.context().newCDPSession(page);
  const app: any = await cdp.send("Page.getAppManifest").catch(() => null);
  if (app) expect(app.errors ?? [], "Chromium's manifest errors").toEqual([]);
  log(`manifest ${manifest.name}: ${manifest.icons.length} icons load (${loaded.map((l) => `${l.w}×${l.h}`).join(", ")}), Chromium parses it${app ? "" : " (not asked)"}`);
});

// Scenarios of issue #46 (the client a newcomer meets), run by run.mjs:
// - turn: your turn in the tab's title and favicon, the sound switch (off, remembered),
//   a notification while the tab is hidden after opting in, the clock's last 10 s;
//   desktop, German, and the 390×844 touch viewport.
// - names: the German client of a game with a bot: default names and bot levels in
//   German, plurals by the language's rules, nothing English; then the same in English.
// - manifest: the web app manifest is linked, served as a manifest, parses, and its
//   icons (192, 512, maskable) load as PNGs of their sizes.

/** Stubs `window.Notification` so that the test sees each notification, keeping the
 * browser's own permission (granted through the context) and its request. */
const NOTIFICATION_STUB = () => {
  window.__notes = [];
  window.__hidden = false;
  const Real = window.Notification;
  class Recorded {
    static get permission() {
      return Real ? Real.permission : "granted";
    }
    static requestPermission() {
      return Real ? Real.requestPermission() : Promise.resolve("granted");
    }
    constructor(title, options) {
      window.__notes.push({ title, body: options?.body ?? "" });
    }
    close() {}
  }
  Object.defineProperty(window, "Notification", { value: Recorded, configurable: true, writable: true });
  Object.defineProperty(Document.prototype, "hidden", { get: () => window.__hidden, configurable: true });
  Object.defineProperty(Document.prototype, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible"), configurable: true });
};

export function newcomerScenarios(x) {
  const { check, log, tid, api, waitAttr, waitText, shot, watchPage, axeCheck, practiceTable, openSeat, dragTile } = x;

  async function title(page) {
    return page.evaluate(() => document.title);
  }
  async function waitTitle(page, predicate, what) {
    const deadline = Date.now() + 15_000;
    let last = "";
    while (Date.now() < deadline) {
      last = await title(page);
      if (predicate(last)) return last;
      await page.waitForTimeout(50);
    }
    throw new Error(`timed out waiting for the title ${what} (last ${JSON.stringify(last)})`);
  }
  const favicon = (page) => page.evaluate(() => document.querySelector('link[rel="icon"]')?.dataset.turn ?? null);

  /** Bo draws (the only move there always is). */
  async function draw(base, id, token) {
    const v = await api(base, "GET", `/api/tables/${id}`, undefined, token);
    await api(base, "POST", `/api/tables/${id}/actions`, { version: v.version, action: { type: "draw" } }, token);
  }

  async function turnScenario(browser, base, problems) {
    // Two people, no clock: Ana in the browser, Bo over the API.
    const made = await api(base, "POST", "/api/tables", { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "human", name: "Bo" }] });
    const id = made.id;
    const ana = made.you.token;
    const invite = new URLSearchParams(made.seats[1].invite.split("#")[1]).get("token");
    const bo = (await api(base, "POST", `/api/tables/${id}/claim`, {}, invite)).token;

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    await ctx.grantPermissions(["notifications"], { origin: base });
    await ctx.addInitScript(NOTIFICATION_STUB);
    const page = await ctx.newPage();
    watchPage(page, "turn", problems);
    await openSeat(page, base, id, ana);
    const first = await api(base, "GET", `/api/tables/${id}`, undefined, ana);
    if (first.to_move !== 0) {
      // Bo's turn: no mark; then Bo moves and it is Ana's.
      await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "false");
      const t0 = await title(page);
      check(!t0.includes("●") && (await favicon(page)) === "false", `not my turn, yet the title is ${t0} (favicon dot ${await favicon(page)})`);
      await draw(base, id, bo);
    }
    const mine = await waitTitle(page, (t) => t.startsWith("● Your turn · "), "(my turn)");
    check(/^● Your turn · rumi — Rummikub /.test(mine), `my turn's title is ${mine}`);
    check((await favicon(page)) === "true", "the favicon has no dot on my turn");
    const icon = await page.evaluate(() => document.querySelector('link[rel="icon"]').href);
    check(icon.startsWith("data:image/svg+xml,") && decodeURIComponent(icon).includes("<circle"), `the turn favicon is ${icon.slice(0, 80)}`);
    log(`my turn: title "${mine}", favicon with a dot`);

    // Sound: off by default, switched on, remembered over a reload.
    check((await page.locator(tid("turn-sound")).getAttribute("aria-pressed")) === "false", "the sound is on by default");
    await page.click(tid("turn-sound"));
    check((await page.locator(tid("turn-sound")).getAttribute("aria-pressed")) === "true", "the sound switch did not switch on");
    await page.reload();
    await waitAttr(page, "turn-sound", "aria-pressed", (p) => p === "true", 10_000, "(the sound switch remembered over a reload)");
    check((await page.locator(tid("turn-sound")).textContent()).includes("Sound: on"), `the sound switch says ${await page.locator(tid("turn-sound")).textContent()}`);

    // Notifications: asked for with the button.
    check((await page.locator(tid("turn-notify")).getAttribute("aria-pressed")) === "false", "notifications are on before being asked for");
    await page.click(tid("turn-notify"));
    await waitAttr(page, "turn-notify", "aria-pressed", (p) => p === "true", 5_000, "(notifications on after the opt-in)");

    // I move (draw in the page): the mark goes.
    await page.click(tid("draw"));
    const after = await waitTitle(page, (t) => !t.includes("●"), "(after my move)");
    check(/^rumi — Rummikub /.test(after) && (await favicon(page)) === "false", `after my move the title is ${after}`);
    log(`after my move: "${after}"`);

    // The tab is hidden; Bo moves: the mark is back, a notification and a chime.
    const chimes = Number((await page.locator(".turn-signal").getAttribute("data-chimes")) ?? 0);
    await page.evaluate(() => {
      window.__hidden = true;
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await draw(base, id, bo);
    await waitTitle(page, (t) => t.startsWith("● Your turn · "), "(my turn again)");
    const notes = await page.evaluate(() => window.__notes);
    check(notes.length === 1 && notes[0].title === "Your turn at rumi" && notes[0].body.includes("Rummikub · current rules · Ana vs Bo"), `notifications while hidden: ${JSON.stringify(notes)}`);
    const chimed = Number((await page.locator(".turn-signal").getAttribute("data-chimes")) ?? 0);
    check(chimed === chimes + 1, `the sound played ${chimed - chimes} times when my turn came`);
    // Visible again: my next turn does not notify.
    await page.evaluate(() => (window.__hidden = false));
    await page.click(tid("draw"));
    await waitTitle(page, (t) => !t.includes("●"), "(after my second move)");
    await draw(base, id, bo);
    await waitTitle(page, (t) => t.startsWith("● Your turn · "), "(my third turn)");
    check((await page.evaluate(() => window.__notes.length)) === 1, "a notification came while the tab was visible");
    log("a notification while hidden (after opting in), none while visible; the chime played");
    await shot(page, "turn-en.png");

    // German, on another device of the same player: "Du bist dran", the sound off there.
    const de = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "de-DE" });
    const dePage = await de.newPage();
    watchPage(dePage, "turn-de", problems);
    await openSeat(dePage, base, id, ana);
    const deTitle = await waitTitle(dePage, (t) => t.startsWith("● "), "(my turn, German)");
    check(/^● Du bist dran · rumi — Rummikub /.test(deTitle), `the German title is ${deTitle}`);
    check((await dePage.locator(tid("turn-sound")).textContent()).includes("Ton: aus"), `the German sound switch says ${await dePage.locator(tid("turn-sound")).textContent()}`);
    await axeCheck(dePage, "a Rummikub table with the turn switches (de)");
    await de.close();

    // A phone: the switches fit and are big enough to tap.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "en-US" });
    const phonePage = await phone.newPage();
    watchPage(phonePage, "turn-phone", problems);
    await openSeat(phonePage, base, id, ana);
    await waitTitle(phonePage, (t) => t.startsWith("● Your turn"), "(my turn, phone)");
    for (const b of ["turn-sound", "turn-notify"]) {
      const box = await phonePage.locator(tid(b)).boundingBox();
      check(box && box.height >= 44 && box.width >= 44 && box.x >= 0 && box.x + box.width <= 390, `${b} on the phone: ${JSON.stringify(box)}`);
      log(`${b} on the phone: ${Math.round(box.width)}×${Math.round(box.height)} at x ${Math.round(box.x)}`);
    }
    await shot(phonePage, "turn-phone.png");
    await phone.close();
    await ctx.close();

    // The clock's last 10 s: red, and said once (aria-live) on my own turn.
    let table = null;
    for (let seed = 1; seed <= 60 && !table; seed++) {
      const t0 = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: 12 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed });
      const v0 = await api(base, "GET", `/api/tables/${t0.id}`, undefined, t0.token);
      // version 0: I start and nobody has moved (a bot that starts may already have played; see keyboardScenario)
      if (v0.to_move === 0 && v0.version === 0 && !v0.rummikub.can_claim_redeal) table = t0;
    }
    check(table, "no practice deal in 60 where I start");
    for (const [locale, said] of [["en-US", /^Only (1 second|([2-9]|10) seconds) left for your turn!$/], ["de-DE", /^Nur noch (1 Sekunde|([2-9]|10) Sekunden) für deinen Zug!$/]]) {
      const c = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
      const p = await c.newPage();
      watchPage(p, `clock-${locale}`, problems);
      await openSeat(p, base, table.id, table.token);
      await waitAttr(p, "countdown", "data-urgent", (u) => u === "true", 20_000, "(the clock's last 10 s)");
      check(await p.locator(tid("countdown")).evaluate((e) => e.classList.contains("urgent")), "the clock is not marked urgent");
      const text = await waitText(p, "clock-warning", (t) => t.length > 0, 5_000, "(the warning said)");
      check(said.test(text), `the clock warning says ${JSON.stringify(text)}`);
      check((await p.locator(tid("clock-warning")).getAttribute("aria-live")) === "assertive", "the warning is not in a live region");
      log(`the clock warns (${locale}): ${text}`);
      await c.close();
      if (locale === "en-US") {
        // Let the clock run out so the German page sees a fresh turn of mine.
        await new Promise((r) => setTimeout(r, 100));
        const v = await api(base, "GET", `/api/tables/${table.id}`, undefined, table.token);
        if (v.to_move !== 0 || (v.deadline_ms ?? 0) - Date.now() < 3000) {
          // wait for my next turn with time on the clock
          const until = Date.now() + 40_000;
          for (;;) {
            const w = await api(base, "GET", `/api/tables/${table.id}`, undefined, table.token);
            if (w.over) throw new Error("the clock game ended");
            if (w.to_move === 0 && (w.deadline_ms ?? 0) - Date.now() > 11_000) break;
            check(Date.now() < until, "my turn with a fresh clock did not come back");
            await new Promise((r) => setTimeout(r, 200));
          }
        }
      }
    }
  }

  async function namesScenario(browser, base, problems) {
    // A practice game against the greedy bot (no name given: the server's "Player 1").
    let table = null;
    for (let seed = 1; seed <= 60 && !table; seed++) {
      const t0 = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human" }, { kind: "bot", bot: "greedy" }], seed });
      const v0 = await api(base, "GET", `/api/tables/${t0.id}`, undefined, t0.token);
      // version 0: I start and nobody has moved (a bot that starts may already have played; see keyboardScenario)
      if (v0.to_move === 0 && v0.version === 0 && !v0.rummikub.can_claim_redeal) table = t0;
    }
    check(table, "no practice deal in 60 where I start");
    check(table.made.you.name === "Player 1" && table.made.seats[1].name === "greedy bot", `the server named the seats ${table.made.you.name}, ${table.made.seats[1].name}`);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "de-DE" });
    const page = await ctx.newPage();
    watchPage(page, "names-de", problems);
    await openSeat(page, base, table.id, table.token);
    await waitText(page, "seat-0", (t) => t.includes("Spieler 1"), 10_000, "(my default name in German)");
    const bot = await waitText(page, "seat-1", (t) => /Bot \(/.test(t), 10_000, "(the bot by its level, in German)");
    // (a bot seat by its own name and level, issue #46 point 6)
    check(/^Inti, Bot \((Einsteiger|Gelegenheitsspieler|Fortgeschritten|Stark|Experte)\)/.test(bot.trim()), `the bot's seat says ${bot}`);
    check((await page.locator(tid("rack-size-0")).textContent()) === "14 Steine", `my rack size says ${await page.locator(tid("rack-size-0")).textContent()}`);
    // One tile in a new set: "1 Stein", not "1 Steine" or "Stein(e)".
    const first = await page.locator(`${tid("rack")} [data-tile]`).first().getAttribute("data-tile");
    await dragTile(page, `${tid("rack")} [data-tile="${first}"]`, tid("new-set"));
    const problem = await waitText(page, "set-problem-0", (t) => t.length > 0, 5_000, "(a one-tile set's problem)");
    check(problem === "hat nur 1 Stein; eine Serie braucht mindestens 3", `a one-tile set's problem says ${JSON.stringify(problem)}`);
    await page.click(tid("reset-turn"));
    // I draw; the bot plays; its move is said with its German name.
    // (the bot may answer before the page shows its turn: wait for two versions more)
    const v0 = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    await page.click(tid("draw"));
    await waitAttr(page, "turn-status", "data-version", (v) => Number(v) >= v0 + 2, 20_000, "(my draw and the bot's move)");
    await waitAttr(page, "turn-status", "data-my-turn", (m) => m === "true", 20_000, "(my turn again)");
    const last = await page.locator(tid("last")).textContent();
    check(/Bot \(/.test(last), `the bot's move is said as ${last}`);
    const text = await page.evaluate(() => document.body.innerText);
    for (const bad of [/Player/, /Stein\(e\)/, /greedy/, /\(s\)/, /\b1 Steine\b/, /\btiles?\b/, /Your turn/]) check(!bad.test(text), `the German table shows ${bad}: …${text.slice(Math.max(0, text.search(bad) - 60), text.search(bad) + 60)}…`);
    check((await page.evaluate(() => document.title)).startsWith("● Du bist dran"), "the German title does not say it is my turn");
    await shot(page, "names-de.png");
    await axeCheck(page, "a German Rummikub table against a bot");

    // The lobby's list in German: the default names and the bot's level, an open seat.
    const open = await practiceTable(base, { game: "rummikub", rummikub: { rules: "current" }, seats: [{ kind: "human" }, { kind: "bot", bot: "greedy" }, { kind: "open" }] });
    await page.goto(base + "/");
    await page.locator(tid("refresh-tables")).click();
    const line = await waitText(page, `open-table-${open.id}`, (t) => t.includes("Spieler 1"), 10_000, "(the open table in German)");
    check(/Spieler 1 gegen Inti \(Bot, [\w ]+\) gegen freier Platz/.test(line) && !/Player|greedy/.test(line), `the lobby line says ${line}`);
    const lobbyText = await page.evaluate(() => document.body.innerText);
    check(!/Player|greedy|\(s\)|\(e\)/.test(lobbyText), `the German lobby shows English: ${lobbyText.match(/.{0,40}(Player|greedy|\(s\)|\(e\)).{0,40}/)?.[0]}`);

    // A German Rumis table against the greedy bot: no English name there either.
    const rumis = await practiceTable(base, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human" }, { kind: "bot", bot: "greedy" }], seed: 7 });
    await openSeat(page, base, rumis.id, rumis.token);
    await waitText(page, "seat-1", (t) => /Bot \(/.test(t), 10_000, "(the Rumis bot by its level, in German)");
    await waitText(page, "seat-0", (t) => t.includes("Spieler 1"), 10_000, "(my default name on a Rumis table)");
    await page.locator(tid("rumis-canvas")).waitFor({ timeout: 15_000 });
    await page.locator(tid("cube-count")).waitFor({ timeout: 15_000 });
    const rumisText = await page.evaluate(() => document.body.innerText);
    check(!/Player|greedy|\(s\)|\(e\)|Your turn/.test(rumisText), `the German Rumis table shows English: ${rumisText.match(/.{0,40}(Player|greedy|\(s\)|\(e\)|Your turn).{0,40}/)?.[0]}`);
    await page.click(tid("rename-seat"));
    check((await page.locator(tid("rename-input")).inputValue()) === "", "renaming starts from the server's default name instead of an empty field");

    // English: the same names, in English, and plurals.
    await page.click(tid("lang-en"));
    await page.waitForLoadState("load");
    await openSeat(page, base, table.id, table.token);
    await waitText(page, "seat-0", (t) => t.includes("Player 1"), 10_000, "(my default name in English)");
    const botEn = await waitText(page, "seat-1", (t) => / bot/.test(t), 10_000, "(the bot by its level, in English)");
    check(/^Inti, (beginner|casual|intermediate|advanced|expert) bot/.test(botEn.trim()) && !/greedy/.test(botEn), `the bot's seat says ${botEn}`);
    check(/^1[0-9] tiles$/.test(await page.locator(tid("rack-size-0")).textContent()), `my rack size says ${await page.locator(tid("rack-size-0")).textContent()}`);
    await shot(page, "names-en.png");
    await ctx.close();
  }

  async function manifestScenario(browser, base, problems) {
    const r = await fetch(`${base}/manifest.webmanifest`);
    const type = r.headers.get("content-type") ?? "";
    check(r.status === 200 && /^application\/manifest\+json/.test(type), `the manifest answers ${r.status} ${type}`);
    const manifest = JSON.parse(await r.text());
    check(manifest.name && manifest.short_name === "rumi" && manifest.display === "standalone" && /^#[0-9a-f]{6}$/i.test(manifest.theme_color) && manifest.start_url === "/", `the manifest: ${JSON.stringify(manifest)}`);
    const png = manifest.icons.filter((i) => i.type === "image/png");
    for (const size of ["192x192", "512x512"]) check(png.some((i) => i.sizes === size && i.purpose !== "maskable"), `no ${size} PNG icon`);
    check(png.some((i) => i.purpose === "maskable"), "no maskable icon");
    for (const icon of manifest.icons) {
      const a = await fetch(new URL(icon.src, base));
      const bytes = Buffer.from(await a.arrayBuffer());
      check(a.status === 200 && (a.headers.get("content-type") ?? "").startsWith(icon.type), `${icon.src} answers ${a.status} ${a.headers.get("content-type")}`);
      if (icon.type === "image/png") {
        check(bytes.subarray(1, 4).toString("ascii") === "PNG", `${icon.src} is not a PNG`);
        const [w, h] = icon.sizes.split("x").map(Number);
        check(bytes.readUInt32BE(16) === w && bytes.readUInt32BE(20) === h, `${icon.src} is ${bytes.readUInt32BE(16)}×${bytes.readUInt32BE(20)}, the manifest says ${icon.sizes}`);
      }
    }
    // The page links it, and the browser loads the icons it names.
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    watchPage(page, "manifest", problems);
    await page.goto(base + "/");
    const linked = await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.href);
    check(linked === `${base}/manifest.webmanifest`, `the page links the manifest as ${linked}`);
    const loaded = await page.evaluate(async (href) => {
      const m = await (await fetch(href)).json();
      return Promise.all(
        m.icons.map(
          (i) =>
            new Promise((resolve) => {
              const img = new Image();
              img.onload = () => resolve({ src: i.src, w: img.naturalWidth, h: img.naturalHeight });
              img.onerror = () => resolve({ src: i.src, w: 0, h: 0 });
              img.src = new URL(i.src, href).href;
            }),
        ),
      );
    }, linked);
    check(loaded.every((l) => l.w > 0 && l.h > 0), `icons the page could not load: ${JSON.stringify(loaded)}`);
    const cdp = await ctx.newCDPSession(page);
    const app = await cdp.send("Page.getAppManifest").catch(() => null);
    if (app) check(!app.errors?.length, `Chromium's manifest errors: ${JSON.stringify(app.errors)}`);
    log(`manifest ${manifest.name}: ${manifest.icons.length} icons load (${loaded.map((l) => `${l.w}×${l.h}`).join(", ")}), Chromium parses it${app ? "" : " (not asked)"}`);
    await ctx.close();
  }

  return { turn: turnScenario, names: namesScenario, manifest: manifestScenario };
}

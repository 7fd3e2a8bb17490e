// Languages, rules pages, accessibility, not found (issue 21): a German browser's lobby
// switched to English and remembered; both rules pages in both languages with every
// ruling's anchor; a Rumis refusal in German with its rule link, said from the server's
// `why`; the ghost moved by the keyboard; the server's suggested moves; "your tables";
// the not-found page; axe on each.
import { test, expect, DESKTOP, watchPage } from "./fixtures";
import { axeCheck, cellsKey, drop, errorText, heights, log, notation, openForm, openSeat, practiceTable, shot, tid, waitAttr, waitText } from "./helpers";

test("lang: German and English, the rules pages, a German refusal, suggestions, your tables, not found", async ({ open, base, api, problems }) => {
  // A German browser: the lobby in German, switched to English and remembered.
  const page = await open({ ...DESKTOP, locale: "de-DE", name: "de" });
  await page.goto(base + "/");
  await openForm(page);
  await expect(page.locator(tid("create")), "a German browser's create button").toHaveText("Tisch anlegen");
  expect(await page.evaluate(() => document.documentElement.lang), "the page's lang").toBe("de");
  const variants = await page.locator(`${tid("variant-select")} option`).allTextContents();
  expect(variants.some((v) => v.startsWith("Ruinas: zuerst gemeinsam")), `the variants are not in words: ${variants.join(" | ")}`).toBe(true);
  expect(variants.filter((v) => /\(R\d+\)/.test(v)), "variants that name a ruling code").toEqual([]);
  // The list of open tables in words, in German.
  const openTable = await practiceTable(api, { game: "rumis", rumis: { scenario: "tambo", players: 2, variant: "ruinas" }, seats: [{ kind: "human", name: "Zed" }, { kind: "open" }] });
  await page.click(tid("refresh-tables"));
  const line = await waitText(page, `open-table-${openTable.id}`, (t) => t.includes("Spieler"), 10_000, "(the open table in German)");
  expect(line, "the lobby line").toMatch(/Tambo, 2 Spieler, Ruinas: zuerst gemeinsam/);
  expect(line, "the lobby line says since when the seat is open").toMatch(/freier Platz \(frei seit (weniger als einer Minute|\d+ Min\.)\)/);
  // The line is built from the table's settings, not from the English detail.
  const rk = await practiceTable(api, { game: "rummikub", rummikub: { rules: "old", rounds: 2 }, seats: [{ kind: "human", name: "Zed" }, { kind: "open" }] });
  await page.click(tid("refresh-tables"));
  const rkLine = await waitText(page, `open-table-${rk.id}`, (t) => t.includes("Spieler"), 10_000, "(the open Rummikub table in German)");
  expect(rkLine, "the Rummikub lobby line").toMatch(/2 Spieler, Runden: 2/);
  expect(rkLine, "the Rummikub lobby line").not.toMatch(/rules|round\(s\)/);
  const bots = await page.locator(`${tid("seat-bot-1")} option`).allTextContents();
  expect(bots.some((b) => b.startsWith("Einsteiger")) && bots.some((b) => b.startsWith("Experte")), `bot levels are not named: ${bots.join(" | ")}`).toBe(true);
  await expect(page.locator(tid("seat-bot-1")), "the engine's name in the bot's tooltip").toHaveAttribute("title", /greedy|mcts|random/);
  await expect(page.locator(tid("seat-bot-1")), "the bot's description in German").toHaveAttribute("title", /^(greedy|mcts:\d|random): (Einsteiger|Gelegenheitsspieler|Fortgeschritten|Stark|Experte): \S/);
  await shot(page, "lobby-de.png");
  await axeCheck(page, "the lobby (de)");
  await page.click(tid("lang-en"));
  await page.waitForLoadState("load");
  await waitText(page, "create", (t) => t === "Create table", 10_000, "(English after the switch)");
  await page.reload();
  await waitText(page, "create", (t) => t === "Create table", 10_000, "(English remembered after a reload)");
  await shot(page, "lobby-en.png");
  await axeCheck(page, "the lobby (en)");
  await page.click(tid("lang-de"));
  await waitText(page, "create", (t) => t === "Tisch anlegen", 10_000, "(back to German)");

  // The rules pages, in both languages, with an anchor per rule.
  for (const game of ["rumis", "rummikub"]) {
    for (const lang of ["de", "en"]) {
      await page.evaluate((l) => localStorage.setItem("rumi.lang", l), lang);
      await page.goto(`${base}/rules/${game}?lang=${lang}#${game === "rumis" ? "R7" : "K4"}`);
      await page.locator(tid(`rules-${game}`)).waitFor({ timeout: 10_000 });
      const ids = await page.locator("section.rule").evaluateAll((els) => els.map((e) => e.id));
      const want = game === "rumis" ? Array.from({ length: 16 }, (_, i) => `R${i + 1}`) : Array.from({ length: 10 }, (_, i) => `K${i + 1}`);
      expect(want.filter((r) => !ids.includes(r)), `the ${game} rules' missing anchors`).toEqual([]);
      await expect(page.locator("h1").first(), `the ${game} rules in ${lang} are titled`).toContainText(lang === "de" ? "die Regeln" : "the rules");
      if (game === "rumis") await page.locator(tid("scenario-table")).waitFor();
      await shot(page, `rules-${game}-${lang}.png`);
    }
    await axeCheck(page, `the ${game} rules`);
  }

  // A refusal in German with its rule link: a typed Rumis move that breaks R7.
  await page.evaluate(() => localStorage.setItem("rumi.lang", "de"));
  const t1 = await practiceTable(api, { game: "rumis", rumis: { scenario: "chullpa", players: 2, variant: "standard" }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed: 3 });
  await openSeat(page, base, t1.id, t1.token);
  await expect(page.locator(tid("turn-status")), "my turn").toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
  let v = await api("GET", `/api/tables/${t1.id}`, undefined, t1.token);
  // First stone anywhere, then wait for the bot; then a stone far from my colour.
  const firstMove = v.rumis.legal.find((m: any) => m.stone !== "D2");
  await page.fill(tid("move-input"), notation(firstMove.stone, firstMove.cells));
  await page.click(tid("move-submit"));
  await waitAttr(page, "turn-status", "data-version", (x) => Number(x) >= 2, 20_000, "(the bot answered)");
  await expect(page.locator(tid("turn-status")), "my turn again").toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
  v = await api("GET", `/api/tables/${t1.id}`, undefined, t1.token);
  const legal = new Set(v.rumis.legal.filter((p: any) => p.stone === "D2").map((p: any) => cellsKey(p.cells)));
  const hm = heights(v);
  let illegal: number[][] | null = null;
  for (let y = 0; y < 5 && !illegal; y++)
    for (let x = 0; x < 3 && !illegal; x++) {
      const cells = drop([[0, 0, 0], [1, 0, 0]], x, y, hm);
      if (!legal.has(cellsKey(cells))) illegal = cells;
    }
  expect(illegal, "an illegal domino placement").toBeTruthy();
  await page.fill(tid("move-input"), notation("D2", illegal!));
  await page.click(tid("move-submit"));
  const rule = await waitAttr(page, "error", "data-rule", (r) => !!r, 10_000, async () => `(a rule link; error: ${await errorText(page)})`);
  const said = (await page.locator(tid("error-text")).textContent()) ?? "";
  const why = (await page.locator(tid("why-link")).textContent()) ?? "";
  const href = await page.locator(tid("why-link")).getAttribute("href");
  expect(why, "the refusal's link").toMatch(/^Warum\? R\d+$/);
  expect(href, "the refusal's link").toBe(`/rules/rumis#${rule}`);
  expect(said, "the refusal in German").toMatch(/Stein|Feld|Farbe|Fläche|Hohlraum/);
  {
    // Said from the server's `why` (the code and rule the check endpoint gives too).
    const whyCode = await page.locator(tid("error")).getAttribute("data-why");
    const checked = await api("POST", `/api/tables/${t1.id}/check`, { type: "rumis_place", stone: "D2", cells: illegal }, t1.token);
    expect({ legal: checked.legal, code: checked.why?.code, rule: checked.why?.rule }, "the check endpoint's reason is the refusal's").toEqual({ legal: false, code: whyCode, rule });
    expect(said, "the refusal is the engine's English").not.toMatch(/[a-z]+'s |is outside|would leave/);
  }
  log(`refusal in German: "${said}" — ${why} (${href})`);
  await shot(page, "rumis-refusal-de.png");
  await axeCheck(page, "the Rumis table (de)");
  // The keyboard moves the ghost: pick a stone, focus the build, an arrow key brings the
  // ghost to the first marked column (snapped to a legal placement), Enter places it.
  {
    const stones = await page.locator(`${tid("tray")} [data-legal]`).evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.testid!.replace("tray-stone-", ""), Number((e as HTMLElement).dataset.legal)] as const));
    const stone = stones.find(([, n]) => n > 0)![0];
    const before = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    await page.click(tid(`tray-stone-${stone}`));
    await page.focus(tid("rumis-canvas"));
    await page.keyboard.press("ArrowDown");
    await expect(page.locator(tid("ghost-status")), "a green ghost by the keyboard").toHaveAttribute("data-legal", "true", { timeout: 5_000 });
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
    const move = await page.locator(tid("ghost-status")).getAttribute("data-move");
    await page.keyboard.press("Enter");
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > before, 10_000, async () => `(placed by Enter; error: ${await errorText(page)})`);
    log(`keyboard ghost: ${move} placed with the arrow keys and Enter`);
  }
  // Suggested moves: the strongest bot's best three with win chances; the first shown and placed.
  {
    await expect(page.locator(tid("turn-status")), "my turn for a hint").toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
    const before = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
    await page.click(tid("rumis-hint"));
    await page.locator(tid("rumis-hint-2")).waitFor({ timeout: 30_000 });
    await expect(page.locator(tid("rumis-hints")), "the hints are the server's").toHaveAttribute("data-source", "server");
    const wins: string[] = [];
    for (let i = 0; i < 3; i++) wins.push((await page.locator(tid(`rumis-hint-win-${i}`)).textContent()) ?? "");
    expect(wins.filter((w) => !/^\d{1,3} % Gewinnchance$/.test(w)), "the hints' win chances").toEqual([]);
    const order: number[] = [];
    for (let i = 0; i < 3; i++) order.push(Number(await page.locator(tid(`rumis-hint-${i}`)).getAttribute("data-win")));
    expect(order, "the best win chance first").toEqual([...order].sort((a, b) => b - a));
    const hint = await page.locator(tid("rumis-hint-0")).getAttribute("data-move");
    log(`hints from the server: ${wins.join(", ")}`);
    await shot(page, "rumis-hints-de.png");
    await page.click(tid("rumis-hint-0"));
    const shown = await waitAttr(page, "ghost-status", "data-move", (m) => !!m, 5_000, "(the hint's ghost)");
    expect(shown, "the hint's ghost").toBe(hint);
    await expect(page.locator(tid("ghost-status")), "the hint is legal").toHaveAttribute("data-legal", "true", { timeout: 5_000 });
    await page.click(tid("place-button"));
    await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > before, 10_000, async () => `(the hint placed; error: ${await errorText(page)})`);
    log(`suggested move ${hint} shown and placed`);
  }

  // "Your tables": back in the lobby, the tab finds its seat and takes it up. Seats and
  // their tokens stay in this tab (sessionStorage): none in localStorage, none in a new tab.
  {
    const tableUrl = page.url();
    await page.goto(base + "/");
    await page.locator(tid(`my-table-${t1.id}`)).waitFor({ timeout: 10_000 });
    await shot(page, "lobby-your-tables-de.png");
    const kept = await page.evaluate(() => JSON.stringify(localStorage));
    // A seat token is 32 hex digits (a kept commitment is 64: public, and allowed).
    expect(kept, "localStorage holds a seat token").not.toMatch(/(^|[^0-9a-f])[0-9a-f]{32}([^0-9a-f]|$)/);
    await page.click(tid(`my-table-link-${t1.id}`));
    await expect(page.locator(tid("table-title")), "back on my seat from the lobby").toHaveAttribute("data-you", "0");
    expect(page.url(), "back from the lobby on the table's address").toBe(tableUrl);
    const tab = await page.context().newPage();
    watchPage(tab, "new tab", problems);
    await tab.goto(base + "/");
    await tab.locator(tid("open-tables")).waitFor({ timeout: 10_000 });
    await expect(tab.locator(tid(`my-table-${t1.id}`)), "a new tab lists another tab's seat").toHaveCount(0);
    log("your tables: the tab took up its seat from the lobby; a new tab holds none");
    await tab.close();
  }
  // Not found: an unknown path, and an unknown table that stops reconnecting.
  await page.goto(`${base}/no/such/page`);
  await page.locator(tid("not-found")).waitFor({ timeout: 5_000 });
  await expect(page.locator(tid("back-to-lobby")), "the not-found page links to the lobby").toHaveAttribute("href", "/");
  await shot(page, "not-found-de.png");
  await page.evaluate(() => localStorage.setItem("rumi.lang", "en"));
  // The page's timers on a clock of the test's: once the page has said "not found", the
  // backoffs of the next 30 s (0.5 s, 1 s, … of a page that reconnects) are run at once,
  // and a socket opened by one is counted as the page opens it.
  await page.clock.install();
  await page.addInitScript(() => {
    const Real = window.WebSocket;
    (window as any).__sockets = 0;
    window.WebSocket = class extends Real {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        (window as any).__sockets++;
      }
    };
  });
  await page.goto(`${base}/t/t000000000000`);
  await page.locator(tid("not-found")).waitFor({ timeout: 10_000 });
  await expect(page.locator(tid("not-found")), "an unknown table is called a table").toHaveAttribute("data-what", "table");
  await page.clock.runFor(30_000);
  const opened = await page.evaluate(() => (window as any).__sockets);
  expect(opened, "WebSockets opened for a table that does not exist").toBeLessThanOrEqual(1);
  await shot(page, "not-found-table-en.png");
  await axeCheck(page, "the not-found page");
});

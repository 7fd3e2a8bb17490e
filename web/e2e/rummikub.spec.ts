// Rummikub at the table:
// - rummikub: two players in two browsers and a spectator: a table made in the lobby, the
//   open seat taken from the lobby's list, an invalid table refused, the solver's hint,
//   the meld by drag and drop, the other player's view, a reload, hidden racks (every
//   page's DOM and everything it received), a kill -9 and restart of the server.
// - keyboard: a touch drag, then the meld with the keyboard alone; the bot's turn lit
//   and said, my drawn tile marked; axe.
// - rounds (German): a new deal for three pairs, old rules, a 2 s clock's time-out, a
//   bot plays my seat through two rounds, the result and the replay.
import type { Page } from "@playwright/test";
import { test, expect, DESKTOP } from "./fixtures";
import { axeCheck, checkMessage, createInLobby, dragTile, errorText, handToBot, isThree, joinFromLobby, log, meldFrom, openSeat, practiceTable, shot, tid, waitAttr, waitError, waitText } from "./helpers";

const tilesOf = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute("data-tile")!));

const count = (list: string[]) => list.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());

/** The page's version with every tile its DOM shows, read at one instant. */
const pageTiles = (page: Page) =>
  page.evaluate(() => ({
    version: Number(document.querySelector('[data-testid="turn-status"]')?.getAttribute("data-version")),
    tiles: [...document.querySelectorAll("[data-tile]")].map((e) => e.getAttribute("data-tile")!),
  }));

// The lobby's table has another person and a fixed seed: a server that allows it.
test.use({ allowChosenSeeds: true });

/** The lobby's deal: seed 21 gives seat 1 (Ana) the first turn and [b13 o13 r13] (39) on
 * her rack, a 30-point meld with a three-tile set (`rumi rummikub deal --seed 21`). */
const LOBBY_SEED = 21;

test("rummikub: two players and a spectator, drag and drop, hidden racks, a server restart", async ({ open, base, api, server }) => {
  // Ana creates the table in the lobby with seat 2 open; Bo takes it from the lobby's list.
  // The lobby's form offers no seed with an open seat: the test adds LOBBY_SEED to the
  // form's request (the server runs with --allow-chosen-seeds).
  const shape = { viewport: { width: 1280, height: 860 } };
  const pages = [await open({ ...shape, name: "A" }), await open({ ...shape, name: "B" })];
  const spectator = await open({ ...shape, name: "spectator" });
  // Everything each browser receives: WebSocket frames and HTTP answers of the table.
  const received: string[][] = [[], [], []];
  const sockets = [0, 0, 0];
  const requested: string[] = [];
  let id: string | null = null;
  [...pages, spectator].forEach((p, i) => {
    p.on("request", (r) => requested.push(r.url()));
    p.on("websocket", (ws) => {
      sockets[i]++;
      ws.on("framereceived", (f) => received[i].push(String(f.payload)));
    });
    p.on("response", async (r) => {
      if (id && r.url().includes(`/api/tables/${id}`)) received[i].push(await r.text().catch(() => ""));
    });
  });
  await pages[0].route("**/api/tables", (route) =>
    route.request().method() === "POST" ? route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), seed: LOBBY_SEED }) }) : route.continue(),
  );
  // (two people: hints only because Ana turns them on, for the solver's hint below)
  const made = await createInLobby(pages[0], base, { game: "rummikub", name: "Ana", seats: ["human", "open"], turnSeconds: 120, hints: true });
  await pages[0].unroute("**/api/tables");
  id = made.id;
  await expect(pages[0].locator(tid("turn-status")), "waiting for the open seat").toHaveAttribute("data-status", "waiting");
  const joined = await joinFromLobby(pages[1], base, id, "Bo");
  expect(joined.offered, "the seats the lobby offered of a table whose only open seat is 2").toEqual([1]);
  const views = [await api("GET", `/api/tables/${id}`, undefined, made.token), await api("GET", `/api/tables/${id}`, undefined, joined.token)];
  expect([views[0].you, views[1].you], "Ana's and Bo's seats").toEqual([0, 1]);
  expect(views[0].fairness.practice_seed, "the table's seed").toBe(LOBBY_SEED);
  const tokens = [made.token!, joined.token];
  const tableId = id!;
  const [tokenA] = tokens;
  log(`Rummikub table ${tableId}, seed ${LOBBY_SEED}`);
  await spectator.goto(`${base}/t/${tableId}`);
  for (const p of [...pages, spectator]) await waitAttr(p, "turn-status", "data-version", (v) => v !== null);
  for (const p of [...pages, spectator]) await expect(p.locator(tid("turn-status")), "playing once both seats are taken").toHaveAttribute("data-status", "playing");
  await expect(pages[0].locator(tid("rack"))).toHaveAttribute("data-count", "14");
  await expect(pages[1].locator(tid("rack"))).toHaveAttribute("data-count", "14");
  expect(requested.filter(isThree), "a Rummikub page or the lobby loaded three.js").toEqual([]);

  const v0 = await api("GET", `/api/tables/${tableId}`, undefined, tokenA);
  const mover: number = v0.to_move;
  expect(mover, `seed ${LOBBY_SEED}: Ana moves first`).toBe(0);
  const P = pages[mover];
  const Q = pages[1 - mover];
  await expect(P.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true");
  const seconds = Number(await waitAttr(P, "countdown", "data-seconds", (x) => !!x && Number(x) > 0, 5_000, "(the server's clock)"));
  expect(seconds, "the countdown of a 120 s turn").toBeLessThanOrEqual(120);
  const rack = await tilesOf(P, `${tid("rack")} [data-tile]`);
  expect(rack.length, "the mover's rack").toBe(14);
  const meld = meldFrom([...rack].sort());
  expect(meld && meld.some((set) => set.length === 3), `seed ${LOBBY_SEED}: the rack read from the page has no 30-point meld with a three-tile set: ${rack.join(" ")}`).toBe(true);
  log(`player ${mover + 1} melds ${meld!.map((s) => `[${s.join(" ")}]`).join(" ")}`);
  await P.click(tid("sort-colour"));
  const version = Number(await P.locator(tid("turn-status")).getAttribute("data-version"));

  // An invalid table, made by drag and drop: two tiles of different colours and numbers.
  const first = meld![0][0];
  const odd = rack.find((t) => t !== first && t !== "J" && t[0] !== first[0] && t.slice(1) !== first.slice(1))!;
  await dragTile(P, `${tid("rack")} [data-tile="${first}"]`, tid("new-set"));
  await dragTile(P, `${tid("rack")} [data-tile="${odd}"]`, tid("set-0"));
  await expect(P.locator(tid("set-0")), "a two-tile set is marked invalid").toHaveAttribute("data-valid", "false");
  await expect(P.locator(`${tid("rack")} [data-tile]`), "the dragged tiles left the rack").toHaveCount(12);
  await P.click(tid("end-turn"));
  const refusal = await waitError(P);
  expect(refusal, "the server's refusal of an invalid table was not shown").toBeTruthy();
  log(`invalid table refused: ${refusal}`);
  const after = await api("GET", `/api/tables/${tableId}`, undefined, tokens[mover]);
  expect([after.version, after.rummikub.table.length], "the refused table changed the game").toEqual([version, 0]);
  await shot(P, "rummikub-invalid-table.png");
  await P.click(tid("reset-turn"));
  await expect(P.locator(`${tid("rack")} [data-tile]`), "reset turn brings the tiles back").toHaveCount(14);

  // The solver's hint: the best play, laid out on the working table, then taken back.
  await P.click(tid("hint-button"));
  const hintText = await P.locator(tid("hint-text")).textContent({ timeout: 10_000 });
  expect(hintText, "the hint shows a play").toMatch(/^Best play: lay/);
  log(`hint: ${hintText}`);
  await P.click(tid("hint-apply"));
  const laid = await P.locator(`${tid("table")} [data-tile]`).count();
  expect(laid, "the tiles the hint laid out on the table").toBeGreaterThanOrEqual(3);
  const sets = await P.locator(`${tid("table")} [data-valid]`).evaluateAll((els) => els.map((e) => e.getAttribute("data-valid")));
  expect(sets.length, "the hint's sets").toBeGreaterThan(0);
  expect(sets.filter((v) => v !== "true"), "the hint's sets are all valid").toEqual([]);
  await shot(P, "rummikub-hint.png");
  await P.click(tid("reset-turn"));
  await expect(P.locator(`${tid("rack")} [data-tile]`), "reset turn takes the hint back").toHaveCount(14);

  // The initial meld, tile by tile, by drag and drop: each set starts as a new set.
  for (let i = 0; i < meld!.length; i++) {
    const set = meld![i];
    await dragTile(P, `${tid("rack")} [data-tile="${set[0]}"]`, tid("new-set"));
    for (const t of set.slice(1)) await dragTile(P, `${tid("rack")} [data-tile="${t}"]`, tid(`set-${i}`));
    await expect(P.locator(tid(`set-${i}`)), `set ${i} [${set.join(" ")}] is valid`).toHaveAttribute("data-valid", "true");
  }
  // Tiles between sets: the last tile of a three-tile set into a new set (both now
  // invalid, and marked), then back.
  {
    const k = meld!.findIndex((set) => set.length === 3);
    const t = meld![k][2];
    await dragTile(P, `${tid(`set-${k}`)} [data-tile="${t}"]`, tid("new-set"));
    const last = meld!.length;
    await expect(P.locator(tid(`set-${k}`)), "a set that lost a tile is marked invalid").toHaveAttribute("data-valid", "false");
    await expect(P.locator(tid(`set-${last}`)), "a one-tile set is marked invalid").toHaveAttribute("data-valid", "false");
    await expect(P.locator(tid("invalid-warning")), "a warning about invalid sets").toHaveCount(1);
    await dragTile(P, `${tid(`set-${last}`)} [data-tile="${t}"]`, tid(`set-${k}`));
    await expect(P.locator(tid(`set-${k}`)), "the set is valid again after the tile came back").toHaveAttribute("data-valid", "true");
  }
  await shot(P, "rummikub-meld.png");
  // The move goes on the socket and its view comes on it: no request for the view.
  const duringMove: string[] = [];
  const track = (r: { method(): string; url(): string }) => duringMove.push(`${r.method()} ${new URL(r.url()).pathname}`);
  P.on("request", track);
  await P.click(tid("end-turn"));
  await waitAttr(P, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(meld accepted; error: ${await errorText(P)})`);
  P.off("request", track);
  expect(duringMove.filter((r) => r === `GET /api/tables/${id}` || r.endsWith("/actions")), "a move neither posts nor fetches the view").toEqual([]);
  const played = meld!.flat().length;
  await expect(Q.locator(tid(`rack-size-${mover}`)), "the other player sees the mover's rack size").toHaveText(new RegExp(`^${14 - played} `));
  await expect(Q.locator(`${tid("table")} .set:not(.new-set)`), "the other player sees the melded sets").toHaveCount(meld!.length);

  // The other player draws; then a reload mid-game restores the full view.
  await expect(Q.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true");
  await Q.click(tid("draw"));
  await expect(Q.locator(tid("rack"))).toHaveAttribute("data-count", "15");
  const beforeReload = (await tilesOf(Q, `${tid("rack")} [data-tile]`)).sort();
  await Q.reload();
  await expect(Q.locator(tid("rack"))).toHaveAttribute("data-count", "15");
  const afterReload = (await tilesOf(Q, `${tid("rack")} [data-tile]`)).sort();
  expect(afterReload, "the rack after a reload").toEqual(beforeReload);
  await expect(Q.locator(`${tid("table")} .set:not(.new-set)`), "the table after a reload").toHaveCount(meld!.length);
  log("reload restored the rack and the table");
  await expect(P.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true");
  await shot(P, "rummikub-player-1.png");
  await shot(Q, "rummikub-player-2.png");
  await shot(spectator, "rummikub-spectator.png");
  await axeCheck(spectator, "a Rummikub table as a spectator");

  // Hidden information: neither player's page nor anything it received holds the
  // other's rack; the spectator received no rack at all. Each page is compared with
  // the server's view of its seat at the same version (a page is a view behind for a
  // moment after each move, and the clock may move the game on meanwhile).
  for (const me of [0, 1]) {
    const page = pages[me];
    let view: any = null;
    let shown: { version: number; tiles: string[] } | null = null;
    await expect
      .poll(
        async () => {
          view = await api("GET", `/api/tables/${tableId}`, undefined, tokens[me]);
          shown = await pageTiles(page);
          return shown.version === view.version;
        },
        { message: `player ${me + 1}'s page at the server's version`, timeout: 10_000, intervals: [50] },
      )
      .toBe(true);
    const other = await api("GET", `/api/tables/${tableId}`, undefined, tokens[1 - me]);
    const table = view.rummikub.table.flat();
    const allowed = count([...view.rummikub.rack, ...table]);
    const exclusive = [...count(other.rummikub.rack)].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t]) => t);
    expect(exclusive.length, "the two racks are too alike to test hiding").toBeGreaterThan(0);
    const extra = [...count(shown!.tiles)].filter(([t, k]) => k > (allowed.get(t) ?? 0)).map(([t, k]) => `${k}× ${t}`);
    expect(extra, `player ${me + 1}'s page shows more than their rack and the table hold (the other's tiles?)`).toEqual([]);
    expect(received[me].length, `player ${me + 1} received something`).toBeGreaterThan(0);
    for (const text of received[me]) checkMessage(text, me, `player ${me + 1}`);
  }
  expect(received[2].length, "the spectator received something").toBeGreaterThan(0);
  for (const text of received[2]) checkMessage(text, null, "the spectator");
  log(`hidden information: ${received[0].length} + ${received[1].length} + ${received[2].length} messages checked`);

  // The server dies (kill -9) and comes back: the pages reconnect by themselves and
  // show the same game, and play goes on.
  const rackP = (await tilesOf(P, `${tid("rack")} [data-tile]`)).sort();
  const versionBefore = Number(await P.locator(tid("turn-status")).getAttribute("data-version"));
  const socketsBefore = [...sockets];
  await server.restart();
  await expect.poll(() => sockets[0] > socketsBefore[0] && sockets[1] > socketsBefore[1], { message: "the pages open new WebSockets after the restart", timeout: 20_000 }).toBe(true);
  for (const p of [P, Q]) await expect(p.locator(tid("connection")), "reconnected after the restart").toHaveAttribute("data-state", "open", { timeout: 20_000 });
  const rackAfter = (await tilesOf(P, `${tid("rack")} [data-tile]`)).sort();
  expect(rackAfter, "the rack after the server restarted").toEqual(rackP);
  await expect(P.locator(tid("turn-status")), "still my turn after the restart").toHaveAttribute("data-my-turn", "true");
  await P.click(tid("draw"));
  await waitAttr(P, "turn-status", "data-version", (x) => Number(x) === versionBefore + 1, 10_000, async () => `(draw after the restart; error: ${await errorText(P)})`);
  await expect(Q.locator(tid("turn-status")), "the other player sees the draw").toHaveAttribute("data-version", String(versionBefore + 1));
  log("after kill -9 and restart both pages reconnected and play went on");
  expect(requested.filter(isThree), "a Rummikub page or the lobby loaded three.js").toEqual([]);
  for (const t of tokens) expect(requested.filter((u) => u.includes(t)), "requested addresses holding a seat token").toEqual([]);
});

test("keyboard: a touch drag, the meld by keyboard alone, the bot's turn lit, my drawn tile marked", async ({ open, base, api }) => {
  const page = await open({ ...DESKTOP, hasTouch: true, name: "keyboard" });
  // Seed 12: I start, and my rack holds [b13 k13 r13] (39), a meld of one set
  // (`rumi rummikub deal --seed 12`); the greedy bot plays the same every run.
  const table = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }], seed: 12 });
  const v = await api("GET", `/api/tables/${table.id}`, undefined, table.token);
  expect([v.to_move, v.version, v.rummikub.table.length], "seed 12: my first turn on an empty table").toEqual([0, 0, 0]);
  const meld = meldFrom([...v.rummikub.rack].sort());
  expect(meld && meld.length <= 3, `seed 12: a 30-point meld of at most three sets in ${v.rummikub.rack.join(" ")}`).toBe(true);
  await openSeat(page, base, table.id, table.token);
  await expect(page.locator(tid("rack"))).toHaveAttribute("data-count", "14");
  await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true");
  // Touch: drag a rack tile with a finger onto the new-set zone, then reset.
  {
    const cdp = await page.context().newCDPSession(page);
    const centre = async (sel: string) => {
      const b = (await page.locator(sel).first().boundingBox())!;
      return { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
    };
    const tile = meld![0][0];
    const from = await centre(`${tid("rack")} [data-tile="${tile}"]`);
    const to = await centre(tid("new-set"));
    const touch = (type: string, p: { x: number; y: number } | null) => cdp.send("Input.dispatchTouchEvent", { type: type as any, touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [] });
    await touch("touchStart", from);
    for (let i = 1; i <= 8; i++) await touch("touchMove", { x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8 });
    await touch("touchEnd", null);
    await expect(page.locator(tid("set-0")), `${tile} dragged by touch into a new set`).toHaveAttribute("data-tiles", tile, { timeout: 5_000 });
    await expect(page.locator(`${tid("rack")} [data-tile]`), "the touch-dragged tile left the rack").toHaveCount(13);
    log(`touch: dragged ${tile} from the rack into a new set`);
    await page.click(tid("reset-turn"));
    await expect(page.locator(tid("rack"))).toHaveAttribute("data-count", "14");
  }
  log(`keyboard: melding ${meld!.map((s) => `[${s.join(" ")}]`).join(" ")}`);
  await page.locator(tid("home")).focus();
  /** Tab until the focused element matches; the number of presses. */
  const tabTo = async (test: (arg: string) => boolean, arg: string, what: string) => {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(test, arg)) return i + 1;
    }
    throw new Error(`Tab never reached ${what}`);
  };
  const onRackTile = (tile: string) => {
    const e = document.activeElement as HTMLElement | null;
    return !!e && e.dataset.tile === tile && !!e.closest('[data-testid="rack"]');
  };
  // The meld, tile by tile: Tab to a rack tile, Enter picks it up, ↓ makes a new set
  // (first tile) or ↑ joins the last set, Escape puts it down.
  for (const [i, set] of meld!.entries()) {
    for (const [k, tile] of set.entries()) {
      await page.locator(tid("home")).focus();
      await tabTo(onRackTile, tile, `rack tile ${tile}`);
      await page.keyboard.press("Enter");
      await page.keyboard.press(k === 0 ? "ArrowDown" : "ArrowUp");
      await page.keyboard.press("Escape");
      if (k === 0 && i === 0) {
        // A one-tile set: its problem is spelled out in full.
        await expect(page.locator(tid("set-problem-0"))).toHaveText(/has only 1 tile; a set needs at least 3/);
        const clipped = await page.locator(tid("set-problem-0")).evaluate((e) => e.scrollWidth > e.clientWidth + 1);
        expect(clipped, "the problem text is clipped").toBe(false);
      }
    }
    await expect(page.locator(tid(`set-${i}`)), `set ${i} is valid after the keyboard moves`).toHaveAttribute("data-valid", "true");
  }
  const value = Number(await page.locator(tid("meld-value")).getAttribute("data-value"));
  const want = meld!.flat().reduce((a, t) => a + Number(t.slice(1)), 0);
  expect(value, "the meld value shown").toBe(want);
  expect(value).toBeGreaterThanOrEqual(30);
  await shot(page, "rummikub-keyboard-meld.png");
  await axeCheck(page, "the Rummikub table");
  const version = Number(await page.locator(tid("turn-status")).getAttribute("data-version"));
  await page.locator(tid("home")).focus();
  await tabTo(() => (document.activeElement as HTMLElement | null)?.dataset.testid === "end-turn", "", "End turn");
  await page.keyboard.press("Enter");
  await waitAttr(page, "turn-status", "data-version", (x) => Number(x) > version, 10_000, async () => `(keyboard meld accepted; error: ${await errorText(page)})`);
  log("a Rummikub turn made with the keyboard alone");

  // Until the bot lays tiles: draw (your drawn tile is marked), then look at its turn.
  let sawBot = false;
  let sawDrawn = false;
  for (let turn = 0; turn < 30 && !(sawBot && sawDrawn); turn++) {
    await expect(page.locator(tid("turn-status")), "my turn").toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
    const raw = (await page.locator(tid("last")).getAttribute("data-raw")) ?? "";
    if (!sawBot && / (played|melded) /.test(raw)) {
      const changed = await page.locator(`${tid("table")} [data-changed="true"]`).count();
      const laid = await page.locator(`${tid("table")} .tile.laid`).count();
      expect(changed > 0 && laid > 0, `the bot's turn (${raw}) shows ${changed} changed sets and ${laid} laid tiles`).toBe(true);
      // Said from `last_event` with the bot's seat name as the seat list shows it (the
      // server's default "greedy bot" is said by its own name and level, "Inti, casual bot").
      const event = await page.locator(tid("last")).getAttribute("data-event");
      const said = (await page.locator(tid("last")).textContent()) ?? "";
      const botName = (await page.locator(`${tid("seat-1")} .name`).textContent()) ?? "";
      expect(botName, "the bot's seat name").toMatch(/^Inti, (beginner|casual|intermediate|advanced|expert) bot$/);
      // (its tiles drawn as tiles, issue #46: the same tiles as the server's text names)
      const saidTiles = await page.locator(tid("last")).getAttribute("data-tiles");
      const shownTiles = await page.locator(`${tid("last")} .tile`).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.code).join(" "));
      expect(["played", "melded"].includes(event!) && said.startsWith(`${botName} `) && saidTiles === raw.split(/ (?:played|melded) /)[1] && shownTiles === saidTiles, `the bot's turn (${event}) is said as "${said}" with the tiles ${shownTiles} (seat name ${botName})`).toBe(true);
      log(`the bot's turn highlighted: ${changed} sets, ${laid} tiles (${raw})`);
      await shot(page, "rummikub-bot-turn.png");
      sawBot = true;
    }
    const rackSize = Number(await page.locator(tid("rack")).getAttribute("data-count"));
    await page.click(tid("draw"));
    await expect(page.locator(tid("rack")), "drew").toHaveAttribute("data-count", String(rackSize + 1));
    const drawn = await page.locator(tid("rack")).getAttribute("data-drawn");
    expect(drawn, "the drawn tile is not marked").toBeTruthy();
    await expect(page.locator(`${tid("rack")} .tile.drawn`), "the drawn tile is marked").toHaveCount(1);
    if (!sawDrawn) await shot(page, "rummikub-drawn.png");
    sawDrawn = true;
  }
  expect([sawBot, sawDrawn], "in 30 turns: the bot laid tiles, I drew").toEqual([true, true]);
});

test("rounds (de): a new deal, old rules, a time-out, a bot plays two rounds, the replay", async ({ pageDe: page, base, api }) => {
  test.setTimeout(480_000);
  // Three pairs (current rules): a new deal, demanded before the first turn.
  {
    // Seed 187: I start with three pairs, b6 o6 o10 (`rumi rummikub deal --seed 187`).
    const table = await practiceTable(api, { game: "rummikub", rummikub: { rules: "current", turn_seconds: null }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed: 187 });
    const v0 = await api("GET", `/api/tables/${table.id}`, undefined, table.token);
    expect([v0.to_move, v0.version, v0.rummikub.can_claim_redeal], "seed 187: my first turn, and I may demand a new deal").toEqual([0, 0, true]);
    await openSeat(page, base, table.id, table.token);
    const before = (await page.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tile))).sort().join(" ");
    await expect(page.locator(tid("redeal")), "the redeal button").toHaveText("Drei Paare: neu verteilen");
    // The bot may move at once in the new deal and replace the message: record every
    // text the message line shows from now on.
    await page.evaluate((sel) => {
      const w = window as any;
      w.__said = [];
      new MutationObserver(() => {
        const el = document.querySelector(sel);
        if (el) w.__said.push(el.textContent ?? "");
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, tid("last"));
    await page.click(tid("redeal"));
    await page.waitForFunction(() => (window as any).__said.some((t: string) => /drei Paare/.test(t)), null, { timeout: 10_000 });
    const said = await page.evaluate(() => (window as any).__said.find((t: string) => /drei Paare/.test(t)));
    const after = (await page.locator(`${tid("rack")} [data-tile]`).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.tile))).sort().join(" ");
    expect(after, "the rack after the new deal").not.toBe(before);
    log(`redeal: "${said}"`);
  }
  // Old rules, two rounds, 2 s a turn: the clock runs out on me once.
  const t1 = await practiceTable(api, { game: "rummikub", rummikub: { rules: "old", turn_seconds: 2, rounds: 2 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "random" }], seed: 5 });
  await openSeat(page, base, t1.id, t1.token);
  // Every rack size and message the page shows, as it shows them (the 2 s clock runs
  // out again and again while the test looks).
  await page.evaluate(() => {
    const w = window as any;
    w.__shown = [];
    const look = () => {
      const rack = document.querySelector('[data-testid="rack"]')?.getAttribute("data-count") ?? null;
      const last = document.querySelector('[data-testid="last"]')?.textContent ?? "";
      const prev = w.__shown[w.__shown.length - 1];
      if (!prev || prev.rack !== rack || prev.last !== last) w.__shown.push({ rack, last });
    };
    look();
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["data-count"] });
  });
  const rules = (await page.locator(tid("rules-name")).textContent()) ?? "";
  expect(rules, "the old rules").toMatch(/alte Regeln/);
  expect(rules, "the old rules").toMatch(/Reihen über 13/);
  await expect(page.locator(tid("turn-status")), "my turn").toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
  // (the bot's move replaces the message at once: the message as it was shown)
  await page.waitForFunction(() => (window as any).__shown.some((s: { last: string }) => /Strafsteine/.test(s.last)), null, { timeout: 60_000 });
  // The rack as shown just before the first time-out was said, and with it.
  const shown: { rack: string; last: string }[] = await page.evaluate(() => (window as any).__shown);
  const k = shown.findIndex((s) => /Strafsteine/.test(s.last));
  const penalty = shown[k].last;
  expect(penalty, "the time-out in German").toMatch(/Zeit überschritten und 3 Strafsteine/);
  expect(k, `the time-out said after a rack was shown: ${JSON.stringify(shown)}`).toBeGreaterThan(0);
  expect(Number(shown[k].rack), `three penalty tiles (the page showed ${JSON.stringify(shown.slice(0, k + 1))})`).toBe(Number(shown[k - 1].rack) + 3);
  log(`time-out: "${penalty}"`);
  // Hand my seat to a bot: it plays both rounds (a bot deals the next round). (The
  // greedy bot goes out where two random bots would play on until the pool is empty.)
  await page.selectOption(tid("hand-bot-choice-0"), "greedy");
  await handToBot(page, 0);
  await waitText(page, "round", (t) => t.startsWith("Runde 2"), 180_000, "(round 2 dealt)");
  await expect(page.locator(tid("turn-status")), "game over").toHaveAttribute("data-over", "true", { timeout: 180_000 });
  await expect(page.locator(tid("round-over")), "the round-over box").toContainText(/Runde 2 vorbei/);
  const result = (await page.locator(tid("result-text")).textContent()) ?? "";
  expect(result, "the result in German").toMatch(/gewinnt|gewinnen|Unentschieden/);
  await shot(page, "rummikub-game-over-de.png");
  log(`two rounds under the old rules: ${result}`);
  // The Rummikub replay.
  await page.click(tid("replay-link"));
  await page.locator(tid("replay-step")).waitFor();
  await page.click(tid("replay-next"));
  await page.click(tid("replay-next"));
  await expect(page.locator(tid("replay-step")), "the Rummikub replay steps").toHaveAttribute("data-index", "2");
  await page.click(tid("replay-last"));
  const caption = (await page.locator(tid("replay-caption")).textContent()) ?? "";
  expect(caption.length, "the replay's last step says something").toBeGreaterThan(0);
  expect(await page.locator(`${tid("table")} .set`).count(), "a table in the replay").toBeGreaterThanOrEqual(0);
  await shot(page, "rummikub-replay-de.png");
  log(`Rummikub replay: ${caption}`);
});


// Table settings and the end of a game (issue #46, points 9 and 10):
// - hints (en, de): a table of two people has no hints (shown to everyone, no hint
//   button); a page that still offers one (its views rewritten on the way, as an old
//   page would have them) hears the server's refusal (403 `hints_off`) as a message in
//   the page's language, and shows no hint; at a practice table (a person and a bot)
//   hints are on and a hint is given.
// - rematch: at the end of a game of two people, Ana asks for a rematch from the end
//   panel and lands on her seat at the new table; Bo (German) sees that Ana asks, joins
//   on his own seat with one tap, and the new game starts with a new deal.
import type { Page } from "@playwright/test";
import { test, expect, DESKTOP, type Api } from "./fixtures";
import { log, openSeat, practiceTable, shot, tid, waitAttr, waitError, waitText } from "./helpers";

const LOCALES = ["en-US", "de-DE"] as const;

/** A Rummikub table of Ana and Bo (no clock), both seated: its id and their tokens. */
async function twoPeople(api: Api, extra: Record<string, unknown> = {}): Promise<{ id: string; ana: string; bo: string }> {
  const made = await api("POST", "/api/tables", {
    game: "rummikub",
    rummikub: { rules: "current", turn_seconds: null },
    seats: [{ kind: "human", name: "Ana" }, { kind: "human", name: "Bo" }],
    ...extra,
  });
  const invite = new URLSearchParams(made.seats[1].invite.split("#")[1]).get("token");
  const bo = (await api("POST", `/api/tables/${made.id}/claim`, {}, invite)).token;
  return { id: made.id, ana: made.you.token, bo };
}

/** Makes it Ana's (seat 0's) turn: if Bo is to move, he draws. */
async function anasTurn(api: Api, id: string, bo: string): Promise<void> {
  const v = await api("GET", `/api/tables/${id}`);
  if (v.to_move === 1) await api("POST", `/api/tables/${id}/actions`, { version: v.version, action: { type: "draw" } }, bo);
}

/** Every view of table `id` this page receives (HTTP and WebSocket) says hints are on,
 * as an old page would believe: the server alone decides. */
async function believeHintsOn(page: Page, id: string): Promise<void> {
  await page.route(`**/api/tables/${id}`, async (route) => {
    const response = await route.fetch();
    const view = await response.json();
    await route.fulfill({ response, json: { ...view, hints: true } });
  });
  await page.routeWebSocket(new RegExp(`/api/tables/${id}/ws$`), (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      const message = JSON.parse(String(m));
      if (message.type === "state") message.view.hints = true;
      ws.send(JSON.stringify(message));
    });
    ws.onMessage((m) => server.send(m));
  });
}

for (const locale of LOCALES) {
  const de = locale === "de-DE";
  test(`hints (${locale}): refused at a table of two people, given at a practice table`, async ({ open, base, api }) => {
    // Two people: hints are off, for everyone to see, and there is no hint button.
    const people = await twoPeople(api);
    await anasTurn(api, people.id, people.bo);
    const page = await open({ ...DESKTOP, locale, name: `hints-${locale}` });
    await openSeat(page, base, people.id, people.ana);
    await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true");
    await expect(page.locator(tid("hints-setting"))).toHaveAttribute("data-on", "false");
    await expect(page.locator(tid("hints-setting"))).toHaveText(de ? "Tipps: aus" : "Hints: off");
    await expect(page.locator(tid("end-turn")), "Ana's controls are drawn").toBeVisible();
    await expect(page.locator(tid("hint-button")), "a hint button where hints are off").toHaveCount(0);
    // Bo, watching as a spectator would, sees the same setting.
    const watcher = await open({ ...DESKTOP, locale, name: `hints-watch-${locale}` });
    await watcher.goto(`${base}/t/${people.id}`);
    await expect(watcher.locator(tid("hints-setting"))).toHaveAttribute("data-on", "false");

    // A page that believes hints are on asks: the server refuses, the page says so.
    await believeHintsOn(page, people.id);
    await page.reload();
    await waitAttr(page, "turn-status", "data-version", (v) => v !== null, 20_000, "(first view)");
    await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true");
    const refused = page.waitForResponse((r) => r.url().includes(`/api/tables/${people.id}/hint`));
    await page.locator(tid("hint-button")).click();
    expect((await refused).status(), "the server's answer to a hint where they are off").toBe(403);
    await expect(page.locator(tid("error"))).toHaveAttribute("data-code", "hints_off");
    const said = await waitError(page);
    expect(said, "the refusal in the page's language").toContain(de ? "An diesem Tisch gibt es keine Tipps" : "hints are off at this table");
    await expect(page.locator(tid("hint-text")), "a hint shown although refused").toHaveCount(0);
    await shot(page, `hints-refused-${de ? "de" : "en"}.png`);
    log(`hints ${locale}: refused at ${people.id} (403 hints_off): "${said}"`);

    // A practice table: Ana and a bot. Hints are on and given.
    const t = await practiceTable(api, {
      game: "rummikub",
      rummikub: { rules: "current", turn_seconds: null },
      seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }],
      seed: 5,
    });
    const practice = await open({ ...DESKTOP, locale, name: `practice-${locale}` });
    await openSeat(practice, base, t.id, t.token);
    await expect(practice.locator(tid("hints-setting"))).toHaveAttribute("data-on", "true");
    await expect(practice.locator(tid("hints-setting"))).toHaveText(de ? "Tipps: an" : "Hints: on");
    await expect(practice.locator(tid("turn-status"))).toHaveAttribute("data-my-turn", "true", { timeout: 20_000 });
    const given = practice.waitForResponse((r) => r.url().includes(`/api/tables/${t.id}/hint`));
    await practice.locator(tid("hint-button")).click();
    expect((await given).status(), "a hint at a practice table").toBe(200);
    const hint = await waitText(practice, "hint-text", (s) => s.length > 0, 20_000, "(the solver's play)");
    log(`hints ${locale}: given at the practice table ${t.id}: "${hint}"`);
  });
}

/** Hands the seat of `token` to a bot (the game plays on without its person). */
async function handOver(api: Api, id: string, seat: number, token: string): Promise<void> {
  await api("POST", `/api/tables/${id}/seats/${seat}/bot`, { bot: "greedy" }, token);
}

test("rematch: from the end panel, each player on their own seat, a new deal", async ({ open, base, api }) => {
  const old = await twoPeople(api);
  const ana = await open({ ...DESKTOP, name: "rematch-ana" });
  const bo = await open({ ...DESKTOP, locale: "de-DE", name: "rematch-bo" });
  await openSeat(ana, base, old.id, old.ana);
  await openSeat(bo, base, old.id, old.bo);
  // Both hand their seats to bots, who play the game to its end.
  await handOver(api, old.id, 0, old.ana);
  await handOver(api, old.id, 1, old.bo);
  for (const page of [ana, bo]) {
    await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-over", "true", { timeout: 120_000 });
    await expect(page.locator(tid("ranking"))).toBeVisible();
  }
  const first = await api("GET", `/api/tables/${old.id}`);
  expect(first.rematch, "a rematch nobody asked for").toBeUndefined();
  await expect(bo.locator(tid("rematch-join")), "Bo is offered a rematch nobody asked for").toHaveCount(0);

  // Ana asks from the end panel and lands on her seat at the new table.
  await ana.locator(tid("rematch")).click();
  await ana.waitForURL((url) => /^\/t\/t[0-9a-f]{12}$/.test(url.pathname) && !url.pathname.endsWith(old.id));
  const id = new URL(ana.url()).pathname.split("/").pop()!;
  await expect(ana.locator(tid("table-title"))).toHaveAttribute("data-you", "0");
  await expect(ana.locator(tid("turn-status"))).toHaveAttribute("data-status", "waiting");

  // Bo's end panel says that Ana asks; one tap puts him on his own seat there.
  await expect(bo.locator(tid("rematch-asked"))).toHaveText("Ana möchte eine Revanche.");
  await shot(bo, "rematch-asked-de.png");
  await bo.locator(tid("rematch-join")).click();
  await bo.waitForURL((url) => url.pathname === `/t/${id}`);
  await expect(bo.locator(tid("table-title"))).toHaveAttribute("data-you", "1");
  for (const page of [ana, bo]) await expect(page.locator(tid("turn-status"))).toHaveAttribute("data-status", "playing");
  await shot(bo, "rematch-joined-de.png");

  // The same seats, a new deal.
  const next = await api("GET", `/api/tables/${id}`);
  expect(next.seats.map((s: { name: string; kind: string }) => [s.name, s.kind])).toEqual([["Ana", "human"], ["Bo", "human"]]);
  expect(next.fairness.commitment, "the rematch's deal is the first one's").not.toBe(first.fairness.commitment);
  expect((await api("GET", `/api/tables/${old.id}`)).rematch).toBe(id);
  log(`rematch: ${old.id} → ${id}, Ana asked from the end panel, Bo joined on his seat`);
});

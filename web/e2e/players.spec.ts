// Players who come back (issue #47): signing up in the browser, a rated game between two
// accounts in two browsers (created with an account seat, the seat taken signed in,
// finished by bots each hands the other's away seat to) and both profiles showing it
// with the moved ratings; a guest who signs up keeps the table made as a guest. The
// profile, leaderboard and account pages on a phone and in German.
import path from "node:path";
import type { Page } from "@playwright/test";
import { test, expect, PHONE, repo } from "./fixtures";
import { axeCheck, handToBot, openForm, tableIdOf, tid, waitAttr } from "./helpers";

// An away player's seat may be handed to a bot at once: the game ends within seconds.
test.use({ handoverAfterSeconds: 0 });

const PASSWORD = "stones of the inca 7";
const SHOTS = path.join(repo, "target/playwright/players");

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

async function signUp(page: Page, base: string, name: string): Promise<void> {
  await page.goto(`${base}/account`);
  await page.fill(tid("sign-up-name"), name);
  await page.fill(tid("sign-up-password"), PASSWORD);
  await page.click(tid("sign-up-submit"));
  await expect(page.locator(tid("account-name"))).toHaveText(`Signed in as ${name}`);
}

/** The page is no wider than the screen (nothing to scroll sideways). */
async function fitsWidth(page: Page, what: string): Promise<void> {
  const [page_, screen] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(page_, `${what}: the page is ${page_} px wide on a ${screen} px screen`).toBeLessThanOrEqual(screen + 1);
}

/** Waits for a profile to list a game (its result is recorded as the game ends). */
async function profileShows(page: Page, base: string, name: string, id: string): Promise<void> {
  await expect(async () => {
    await page.goto(`${base}/u/${name}`);
    await expect(page.locator(tid(`game-${id}`))).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test("sign up; the profile, leaderboards and my games, empty, on a phone and in German", async ({ phone, pageDe, base }) => {
  await signUp(phone, base, "Cai_p");
  await expect(phone.locator(tid("my-games-empty"))).toBeVisible();
  await fitsWidth(phone, "account");
  await phone.click(tid("my-profile"));
  await expect(phone).toHaveURL(`${base}/u/Cai_p`);
  await expect(phone.locator(tid("profile-name"))).toHaveText("Cai_p");
  await expect(phone.locator(tid("profile-since"))).toContainText("Playing since");
  await expect(phone.locator(tid("no-ratings"))).toHaveText("No rated games yet.");
  await expect(phone.locator(tid("no-games"))).toBeVisible();
  await fitsWidth(phone, "profile");
  await axeCheck(phone, "profile, empty");
  await phone.click(tid("profile-leaderboard"));
  await expect(phone.locator(tid("leaderboard-empty"))).toBeVisible();
  await expect(phone.locator(tid("tab-rumis_two"))).toHaveAttribute("aria-selected", "true");
  await phone.click(tid("tab-rummikub"));
  await expect(phone.locator(tid("leaderboard-panel"))).toHaveAttribute("data-pool", "rummikub");
  await expect(phone).toHaveURL(`${base}/leaderboard?pool=rummikub`);
  await expect(phone.locator(tid("leaderboard-empty"))).toBeVisible();
  await fitsWidth(phone, "leaderboard");
  await axeCheck(phone, "leaderboard, empty");
  await shot(phone, "leaderboard-phone.png");
  // The lobby's foot links the profile and the leaderboards.
  await phone.goto(`${base}/`);
  await expect(phone.locator(tid("footer-profile"))).toHaveAttribute("href", "/u/Cai_p");
  await expect(phone.locator(tid("footer-leaderboard"))).toHaveAttribute("href", "/leaderboard");

  // A settled leaderboard and a longer history, as the server would send them (a
  // rating settles only after many games): names link to profiles, one line per pool.
  await phone.route("**/api/leaderboard/rumis_multi", (route) =>
    route.fulfill({ json: { pool: "rumis_multi", entries: [{ rank: 1, name: "Cai_p", rating: 1612.4, uncertainty: 80.2, games: 14 }, { rank: 2, name: "Dee", rating: 1550, uncertainty: 91, games: 9 }] } }),
  );
  await phone.goto(`${base}/leaderboard?pool=rumis_multi`);
  await expect(phone.locator(tid("tab-rumis_multi"))).toHaveAttribute("aria-selected", "true");
  await expect(phone.locator(`${tid("entry-Cai_p")} a`)).toHaveAttribute("href", "/u/Cai_p");
  await expect(phone.locator(tid("entry-Dee"))).toContainText("1550");
  await fitsWidth(phone, "leaderboard with entries");
  await shot(phone, "leaderboard-entries-phone.png");
  const day = 86_400_000;
  const start = Date.UTC(2026, 10, 1);
  const history = [1530, 1561, 1549, 1588, 1602].map((rating, i) => ({ pool: "rumis_multi", at_ms: start + i * day, rating }));
  const games = history.map((h, i) => ({ id: `tmock${i}`, game: "rumis", pool: "rumis_multi", finished_ms: h.at_ms, seat: 0, names: ["Cai_p", "Dee", "Eli"], place: i % 2 ? 2 : 1, result: i % 2 ? "lost" : "won", score: 10 - i, rated: true, rating: h.rating, rating_change: i ? h.rating - history[i - 1].rating : 30 })).reverse();
  await phone.route("**/api/users/Cai_p", (route) =>
    route.fulfill({ json: { name: "Cai_p", created_ms: start, ratings: { rumis_multi: { rating: 1602, uncertainty: 80, games: 5, provisional: false } }, totals: [{ pool: "rumis_multi", played: 5, won: 3 }, { pool: "rummikub", played: 2, won: 0 }], history, games } }),
  );
  await phone.goto(`${base}/u/Cai_p`);
  await expect(phone.locator(tid("chart-rumis_multi"))).toHaveAttribute("data-points", "5");
  await expect(phone.locator(tid("chart-rumis_multi-point-4"))).toHaveAttribute("href", "/t/tmock4");
  await expect(phone.locator(tid("provisional-rumis_multi"))).toHaveCount(0);
  await expect(phone.locator(tid("totals-rummikub"))).toContainText("2 games played, 0 won");
  await expect(phone.locator(tid("change-tmock3"))).toContainText("+39");
  await expect(phone.locator(tid("change-tmock2"))).toContainText("−12");
  await fitsWidth(phone, "profile with history");
  await axeCheck(phone, "profile with a history");
  await shot(phone, "profile-history-phone.png");
  await phone.unrouteAll();

  await pageDe.goto(`${base}/u/cai_p`);
  await expect(pageDe.locator(tid("profile-name"))).toHaveText("Cai_p");
  await expect(pageDe.locator(tid("no-ratings"))).toHaveText("Noch keine gewerteten Spiele.");
  await pageDe.goto(`${base}/u/nobody_here`);
  await expect(pageDe.locator(tid("profile-unknown"))).toContainText("Es gibt kein Konto namens");
  await pageDe.goto(`${base}/leaderboard`);
  await expect(pageDe.locator("h1")).toHaveText("Bestenlisten");
  await expect(pageDe.locator(tid("tab-rumis_two"))).toHaveText("Rumis zu zweit");
});

test("two accounts play a rated game to the end; both profiles show it", async ({ open, base }) => {
  const A = await open({ name: "A" });
  const B = await open({ ...PHONE, name: "B (phone)" });
  await signUp(A, base, "Ana_r");
  await signUp(B, base, "Bo_r");

  // A: a rated Rumis table for two, the other seat Bo's account.
  await A.goto(`${base}/`);
  await openForm(A);
  await A.selectOption(tid("game-select"), "rumis");
  await A.selectOption(tid("scenario-select"), "chullpa");
  await A.selectOption(tid("players-select"), "2");
  await expect(A.locator(tid("your-name"))).toHaveValue("Ana_r");
  await expect(A.locator(tid("your-name"))).toBeDisabled();
  await expect(A.locator(tid("rated")), "a bot on seat 2: not rated").toBeDisabled();
  await expect(A.locator(tid("rated-note"))).toContainText("account holder");
  await expect(A.locator(tid("seat-note-0"))).toContainText("Ana_r");
  await A.selectOption(tid("seat-kind-1"), "account");
  await expect(A.locator(tid("rated")), "no name yet").toBeDisabled();
  await A.fill(tid("seat-account-1"), "bo_r");
  await expect(A.locator(tid("rated"))).toBeEnabled();
  await A.check(tid("rated"));
  await expect(A.locator(tid("hints"))).toBeDisabled();
  await shot(A, "create-rated.png");
  await A.click(tid("create"));
  await A.waitForURL(/\/t\/[^/?#]+$/);
  const id = tableIdOf(A.url());
  await expect(A.locator(tid("rated-table"))).toBeVisible();
  await expect(A.locator(tid("seat-account-link-0"))).toHaveAttribute("href", "/u/Ana_r");
  await expect(A.locator(tid("seat-account-link-1"))).toHaveAttribute("href", "/u/Bo_r");
  await waitAttr(A, "turn-status", "data-status", (s) => s === "waiting");
  await expect(A.locator(tid("take-seat"))).toHaveCount(0);

  // B opens the table signed in (no link) and takes the seat kept for him.
  await B.goto(`${base}/t/${id}`);
  await expect(B.locator(tid("take-seat"))).toBeVisible();
  await fitsWidth(B, "table, seat kept");
  await shot(B, "take-seat-phone.png");
  await B.click(tid("take-seat"));
  await waitAttr(B, "table-title", "data-you", (v) => v === "1");
  await waitAttr(B, "turn-status", "data-status", (s) => s === "playing");
  await waitAttr(A, "turn-status", "data-status", (s) => s === "playing");
  await expect(B.locator(tid("rated-table"))).toBeVisible();
  // At a rated table nobody hands their own seat to a bot.
  await expect(B.locator(tid("hand-bot-1"))).toHaveCount(0);
  await fitsWidth(B, "rated table");
  // Another tab of B's (no token there) opens on his seat by the session.
  const B2 = await B.context().newPage();
  await B2.goto(`${base}/t/${id}`);
  await waitAttr(B2, "table-title", "data-you", (v) => v === "1");
  expect(await B2.evaluate((id) => sessionStorage.getItem(`rumi-token-${id}`), id), "the seat's token, kept like one from a link").toBeTruthy();
  await B2.close();

  // B goes away; A hands his seat to a bot.
  await B.goto(`${base}/u/Bo_r`);
  await expect(async () => {
    await A.reload();
    await expect(A.locator(tid("hand-bot-1"))).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await handToBot(A, 1);
  // A goes away; B comes back and hands hers to a bot: the bots finish the game.
  await A.goto(`${base}/u/Ana_r`);
  await B.goto(`${base}/t/${id}`);
  await waitAttr(B, "table-title", "data-you", (v) => v === "1");
  await expect(async () => {
    await B.reload();
    await expect(B.locator(tid("hand-bot-0"))).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await handToBot(B, 0);
  await waitAttr(B, "turn-status", "data-over", (v) => v === "true", 120_000, "(the bots finish the game)");

  // Both profiles show the game and the moved rating, from 1500.
  const results: string[] = [];
  for (const [page, name] of [[A, "Ana_r"], [B, "Bo_r"]] as const) {
    await profileShows(page, base, name, id);
    const row = page.locator(tid(`game-${id}`));
    await expect(row).toHaveAttribute("data-rated", "true");
    const result = (await row.getAttribute("data-result"))!;
    const change = Number(await row.getAttribute("data-change"));
    results.push(result);
    if (result === "won") expect(change, `${name} won`).toBeGreaterThan(0);
    else if (result === "lost") expect(change, `${name} lost`).toBeLessThan(0);
    const rating = Number(await page.locator(tid("rating-rumis_two")).getAttribute("data-rating"));
    expect(Math.abs(rating - (1500 + change)), `${name}'s rating ${rating}, change ${change}`).toBeLessThan(1);
    await expect(page.locator(tid(`change-${id}`))).toContainText(result === "won" ? "+" : result === "lost" ? "−" : "±");
    await expect(page.locator(tid("provisional-rumis_two"))).toBeVisible();
    await expect(page.locator(tid("totals-rumis_two"))).toContainText("1 game played");
    await expect(page.locator(tid("chart-rumis_two"))).toHaveAttribute("data-points", "1");
    await expect(page.locator(tid("chart-rumis_two-point-0"))).toHaveAttribute("href", `/t/${id}`);
    await expect(row.locator(".player-link")).toHaveText(name === "Ana_r" ? "Bo_r" : "Ana_r");
    await fitsWidth(page, `${name}'s profile`);
    await shot(page, `profile-${name}.png`);
  }
  expect(results.sort(), "one won and one lost, or both shared").toEqual(results.includes("shared") ? ["shared", "shared"] : ["lost", "won"]);
  await axeCheck(B, "profile with a rated game (phone)");
  // The replay link opens the finished table.
  await B.click(tid(`open-${id}`));
  await waitAttr(B, "turn-status", "data-over", (v) => v === "true");
  // My games: the finished table, on the account page.
  await B.goto(`${base}/account`);
  await expect(B.locator(tid(`my-game-${id}`))).toHaveAttribute("data-finished", "true");
  // … against whom, and how it went.
  await expect(B.locator(tid(`my-game-opponents-${id}`))).toHaveText("against Ana_r");
  await expect(B.locator(tid(`my-game-result-${id}`))).toHaveText(/^\s*(won|place 2 of 2)$/);
  await fitsWidth(B, "account with games");
  await shot(B, "account-phone.png");
  // Provisional ratings are not on the leaderboard yet.
  await A.goto(`${base}/leaderboard`);
  await expect(A.locator(tid("leaderboard-empty"))).toBeVisible();
});

test("a guest who signs up keeps the table made as a guest", async ({ open, base }) => {
  const page = await open({ name: "guest" });
  await page.goto(`${base}/`);
  await page.click(tid("play-bot-rumis"));
  await page.waitForURL(/\/t\/[^/?#]+$/);
  const id = tableIdOf(page.url());
  await waitAttr(page, "table-title", "data-you", (v) => v === "0");
  // In the same tab: sign up; the tab's seat becomes the account's.
  await signUp(page, base, "Gus_g");
  await expect(page.locator(tid("account-message"))).toContainText("1 table");
  await expect(page.locator(tid(`my-game-${id}`))).toHaveAttribute("data-finished", "false");
  // Another browser, signed in, opens the table on that seat without a link.
  const other = await open({ name: "laptop" });
  await other.goto(`${base}/account`);
  await other.fill(tid("sign-in-name"), "gus_g");
  await other.fill(tid("sign-in-password"), PASSWORD);
  await other.click(tid("sign-in-submit"));
  await expect(other.locator(tid(`my-game-${id}`))).toBeVisible();
  await other.click(tid(`my-game-link-${id}`));
  await waitAttr(other, "table-title", "data-you", (v) => v === "0");
  await expect(other.locator(tid("seat-account-link-0"))).toHaveAttribute("href", "/u/Gus_g");
});

test("a challenge by name shows in the lobby; declined it goes, accepted it seats the player", async ({ open, base }) => {
  const A = await open({ name: "A" });
  const B = await open({ ...PHONE, name: "B (phone)" });
  await signUp(A, base, "Ana_c");
  await signUp(B, base, "Bo_c");
  // A's tables name B's account (made through A's session, as the lobby form does).
  const challenge = async () => {
    const made = await A.request.post(`${base}/api/tables`, {
      headers: { Origin: base },
      data: { game: "rumis", rumis: { scenario: "chullpa", players: 2 }, seats: [{ kind: "human" }, { kind: "account", name: "bo_c" }] },
    });
    expect(made.status()).toBe(200);
    return (await made.json()).id as string;
  };
  const first = await challenge();
  await B.goto(`${base}/`);
  await expect(B.locator(tid(`challenge-${first}`))).toContainText("Rumis with Ana_c");
  await fitsWidth(B, "lobby with a challenge");
  await B.click(tid(`challenge-decline-${first}`));
  await expect(B.locator(tid("challenges"))).toBeHidden();
  // The second one appears while B looks at the lobby (it asks again now and then).
  const second = await challenge();
  await expect(B.locator(tid(`challenge-${second}`))).toBeVisible({ timeout: 30_000 });
  await B.click(tid(`challenge-accept-${second}`));
  await B.waitForURL(`${base}/t/${second}`);
  await waitAttr(B, "table-title", "data-you", (v) => v === "1");
});

test("a challenge's sender can be blocked from its card and unblocked on the account page", async ({ open, base }) => {
  const A = await open({ name: "A" });
  const B = await open({ name: "B" });
  await signUp(A, base, "Ana_b");
  await signUp(B, base, "Bo_b");
  const made = await A.request.post(`${base}/api/tables`, {
    headers: { Origin: base },
    data: { game: "rumis", rumis: { scenario: "chullpa", players: 2 }, seats: [{ kind: "human" }, { kind: "account", name: "bo_b" }] },
  });
  expect(made.status()).toBe(200);
  const id = (await made.json()).id as string;
  await B.goto(`${base}/`);
  await expect(B.locator(tid(`challenge-${id}`))).toContainText("Ana_b");
  B.once("dialog", (dialog) => void dialog.accept());
  await B.click(tid(`challenge-block-${id}`));
  await expect(B.locator(tid("challenges"))).toBeHidden();
  // A's next challenge is refused in words that say no more than "not from you".
  const refused = await A.request.post(`${base}/api/tables`, {
    headers: { Origin: base },
    data: { game: "rumis", rumis: { scenario: "chullpa", players: 2 }, seats: [{ kind: "human" }, { kind: "account", name: "bo_b" }] },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("challenges_refused");
  await B.goto(`${base}/account`);
  await expect(B.locator(tid("block-name"))).toHaveText("Ana_b");
  await B.click(tid("unblock-Ana_b"));
  await expect(B.locator(tid("no-blocks"))).toBeVisible();
  await B.goto(`${base}/`);
  await expect(B.locator(tid(`challenge-${id}`))).toBeVisible();
});

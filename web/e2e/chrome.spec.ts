// The chrome around the games (issue 60, point 8), in both languages, on a desktop and
// a phone:
// - every page has exactly one h1 (the lobby, the rules, the tutorials, the account,
//   a profile, the leaderboards, the puzzles, the solo cube, the analysis board, a
//   table, a replay and the not-found page);
// - the top bar names the signed-in player and links to their account and games (a
//   guest sees "sign in"); the analysis page links to the lobby once;
// - a replay of a game with a turn clock shows no running clock ("time left 0:00").
import { test, expect, DESKTOP, PHONE, type Api } from "./fixtures";
import { tid, viewWhen } from "./helpers";

const PASSWORD = "a long password of the chrome test";

/** A bots-only Rummikub table with a 60 s clock, played to its end. */
async function finishedWithClock(api: Api): Promise<string> {
  const made = await api("POST", "/api/tables", { game: "rummikub", rummikub: { rules: "current", turn_seconds: 60, rounds: 1 }, seats: [{ kind: "bot", bot: "greedy" }, { kind: "bot", bot: "greedy" }] });
  await viewWhen(api, made.id, null, (v) => v.over, "the bots' game ends");
  return made.id;
}

test("every page has one h1, in English on a desktop and in German on a phone", async ({ open, base, api }) => {
  const table = await api("POST", "/api/tables", { game: "rumis", rumis: { scenario: "chullpa", players: 2 }, seats: [{ kind: "human", name: "Ana" }, { kind: "bot", bot: "greedy" }] });
  const replay = await finishedWithClock(api);
  const paths = ["/", "/rules/rumis", "/rules/rummikub", "/learn/rumis", "/learn/rummikub", "/account", "/u/nobody_here", "/leaderboard", "/puzzles", "/solo", "/analysis", `/t/${table.id}`, `/replay/${replay}`, "/no/such/page"];
  for (const [shape, what] of [
    [DESKTOP, "desktop, English"],
    [{ ...PHONE, locale: "de-DE" }, "phone, German"],
  ] as const) {
    const page = await open({ ...shape, name: what });
    for (const path of paths) {
      await page.goto(`${base}${path}`);
      await expect(page.locator("h1").first(), `${what}: ${path} has its title`).toBeAttached({ timeout: 20_000 });
      await expect(page.locator("h1"), `${what}: ${path} has one h1`).toHaveCount(1);
    }
  }
});

test("the top bar names the signed-in player; the analysis page links to the lobby once", async ({ page, pageDe, base }) => {
  await page.goto(`${base}/`);
  const account = page.locator(tid("nav-account"));
  await expect(account, "a guest is offered to sign in").toHaveText("Sign in");
  await expect(account).toHaveAttribute("href", "/account");
  await page.goto(`${base}/account`);
  await page.fill(tid("sign-up-name"), "Topbar_Tess");
  await page.fill(tid("sign-up-password"), PASSWORD);
  await page.click(tid("sign-up-submit"));
  await expect(page.locator(tid("account-name"))).toHaveText("Signed in as Topbar_Tess");
  await page.goto(`${base}/puzzles`);
  await expect(account, "the signed-in player's name, on every page").toHaveText("Topbar_Tess");
  await expect(account).toHaveAttribute("data-signed-in", "true");
  await account.click();
  await expect(page.locator(tid("my-games")), "the name leads to the player's games").toBeVisible();

  await pageDe.goto(`${base}/analysis`);
  await expect(pageDe.locator(tid("nav-account"))).toHaveText("Anmelden");
  await expect(pageDe.locator("a", { hasText: /^Lobby$/ }), "one link to the lobby").toHaveCount(1);
});

test("a replay of a game with a clock shows no running clock", async ({ page, pageDe, base, api }) => {
  const id = await finishedWithClock(api);
  for (const p of [page, pageDe]) {
    await p.goto(`${base}/replay/${id}`);
    await expect(p.locator(tid("replay-step"))).toBeVisible({ timeout: 20_000 });
    for (const step of ["first", "next", "next", "last"]) {
      await p.click(tid(`replay-${step}`));
      const clock = p.locator(tid("countdown"));
      await expect(clock, `${step} step: no time left shown`).not.toHaveText(/\d:\d\d/);
      await expect(clock, `${step} step: no clock warning`).not.toHaveAttribute("data-seconds", /\d/);
    }
  }
});

// Hand-over: the practice seed shown to everyone; your own seat handed to a bot, which
// plays it, and taken back.
import { test, expect } from "./fixtures";
import { errorText, handToBot, log, openForm, shot, submitCreate, tid, waitAttr } from "./helpers";

const SHAPE = { viewport: { width: 1280, height: 860 } };

// Two random bots play a whole game within seconds at the usual pause: slower bots
// here (a second a move), so that the game is still on when I take my seat back on a loaded machine.
test.use({ botDelayMs: 1000 });

test("handover: the practice seed; my own seat to a bot and back", async ({ open, base, api }) => {
  const A = await open({ ...SHAPE, name: "A" });
  await A.goto(base + "/");
  await openForm(A);
  await A.selectOption(tid("game-select"), "rummikub");
  await A.selectOption(tid("rk-players-select"), "2");
  await A.check(tid("no-clock"));
  await A.fill(tid("your-name"), "Ana");
  await A.selectOption(tid("seat-kind-1"), "open");
  await expect(A.locator(tid("seed")), "the seed may be chosen with an open seat").toBeDisabled();
  await A.selectOption(tid("seat-kind-1"), "human");
  await expect(A.locator(tid("seed")), "the seed may be chosen with an invited seat").toBeDisabled();
  await A.selectOption(tid("seat-kind-1"), "bot");
  await A.selectOption(tid("seat-bot-1"), "random");
  await expect(A.locator(tid("seed")), "the seed may not be chosen against a bot").toBeEnabled();
  await A.fill(tid("seed"), "42");
  // The table page's bot list (/api/meta) arrives after its first view, as it may on a
  // loaded server: held until the page shows a view; the hand-over control must still appear.
  let metaAfterView = 0;
  await A.route("**/api/meta", async (route) => {
    const shown = await A.locator(`${tid("turn-status")}[data-version]`).waitFor({ timeout: 30_000 }).then(
      () => true,
      () => false,
    );
    if (shown) metaAfterView++;
    await route.continue().catch(() => {});
  });
  const a = await submitCreate(A);
  await expect(A.locator(tid("practice-seed")), "the practice label").toHaveText("practice: seed 42");
  await expect(A.locator(tid("turn-status")), "playing against a bot").toHaveAttribute("data-status", "playing");
  // The commitment waits behind "fair deal ✓", the practice label on its line.
  await expect(A.locator(tid("practice-seed"))).toBeVisible();
  await expect(A.locator(tid("commitment"))).toBeHidden();
  await A.locator(`${tid("fair-deal")} summary`).click();
  await A.locator(tid("commitment")).waitFor();
  const commitment = (await A.locator(tid("commitment")).getAttribute("data-value")) ?? "";
  expect(commitment, "the commitment").toMatch(/^[0-9a-f]{64}$/);
  await expect(A.locator(tid("commitment")), "the commitment's tooltip has the full value").toHaveAttribute("title", new RegExp(commitment));
  await shot(A, "practice-seed.png");
  // Everyone sees it, a spectator too; a spectator may hand nothing to a bot.
  const S = await open({ ...SHAPE, name: "spectator" });
  await S.goto(`${base}/t/${a.id}`);
  await expect(S.locator(tid("practice-seed")), "the spectator sees the practice seed").toHaveText("practice: seed 42");
  await expect(S.locator('[data-testid^="hand-bot-"]'), "a spectator is offered hand to bot").toHaveCount(0);

  // Your own seat to a bot: it plays for you; then take it back.
  await expect(A.locator(tid("hand-bot-1")), "a bot's seat is offered to a bot").toHaveCount(0);
  await A.locator(tid("hand-bot-0")).waitFor();
  expect(metaAfterView, "the table page's bot list, answered after its first view").toBeGreaterThan(0);
  await A.unroute("**/api/meta");
  await A.selectOption(tid("hand-bot-choice-0"), "random");
  const before = Number(await A.locator(tid("turn-status")).getAttribute("data-version"));
  await handToBot(A, 0);
  await expect(A.locator(tid("seat-0")), "my seat is a bot's").toHaveAttribute("data-kind", "bot");
  await A.locator(tid("take-back")).waitFor({ timeout: 5_000 });
  await waitAttr(A, "turn-status", "data-version", (x) => Number(x) >= before + 2, 20_000, "(the bot plays my seat)");
  await shot(A, "handover-bot.png");
  // (by the keyboard: the lines above the button change with every bot move, and on a
  // loaded machine the page's frames come too seldom for the button to count as still
  // between two moves, which a pointer's click waits for)
  await A.locator(tid("take-back")).focus();
  await A.keyboard.press("Enter");
  await waitAttr(A, "seat-0", "data-kind", (k) => k === "human", 10_000, async () => `(my seat back; error: ${await errorText(A)})`);
  await expect(A.locator(tid("take-back-box")), "take back still offered after taking the seat back").toBeHidden();
  await A.locator(tid("hand-bot-0")).waitFor({ timeout: 5_000 });
  const v = await api("GET", `/api/tables/${a.id}`, undefined, a.token);
  expect([v.you, v.seats[0].kind], "after taking back: my seat and its kind").toEqual([0, "human"]);
  log(`handed my seat to a bot at version ${before} and took it back at ${v.version}`);
});

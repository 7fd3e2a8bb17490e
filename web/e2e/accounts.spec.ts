// Accounts (issue #47): a guest signs up on /account, is refused a weak password with
// its reason, signs out and in again (a wrong password is refused), and deletes the
// account; the German page says the same in German. axe-core on every state.
import { test, expect } from "./fixtures";
import { axeCheck, shot, tid } from "./helpers";

const PASSWORD = "stones of the inca 7";

test("sign up, out, in and delete", async ({ page, base }) => {
  await page.goto(`${base}/account`);
  await expect(page.locator(tid("sign-up-form"))).toBeVisible();
  await axeCheck(page, "account, signed out");
  await page.fill(tid("sign-up-name"), "Ana_e2e");
  await page.fill(tid("sign-up-password"), "1234567890");
  await page.click(tid("sign-up-submit"));
  await expect(page.locator(tid("sign-up-message"))).toContainText("too common");
  await page.fill(tid("sign-up-password"), PASSWORD);
  await page.click(tid("sign-up-submit"));
  await expect(page.locator(tid("account-name"))).toHaveText("Signed in as Ana_e2e");
  await axeCheck(page, "account, signed in");
  await shot(page, "account-en.png");

  await page.click(tid("sign-out"));
  await expect(page.locator(tid("sign-in-form"))).toBeVisible();
  await page.fill(tid("sign-in-name"), "ana_E2E");
  await page.fill(tid("sign-in-password"), "not the password");
  await page.click(tid("sign-in-submit"));
  await expect(page.locator(tid("sign-in-message"))).toContainText("wrong name or password");
  await page.fill(tid("sign-in-password"), PASSWORD);
  await page.click(tid("sign-in-submit"));
  await expect(page.locator(tid("account-name"))).toHaveText("Signed in as Ana_e2e");

  page.once("dialog", (d) => d.accept());
  await page.fill(tid("delete-password"), PASSWORD);
  await page.click(tid("delete-submit"));
  await expect(page.locator(tid("sign-in-form"))).toBeVisible();
  await page.fill(tid("sign-in-name"), "Ana_e2e");
  await page.fill(tid("sign-in-password"), PASSWORD);
  await page.click(tid("sign-in-submit"));
  await expect(page.locator(tid("sign-in-message"))).toContainText("wrong name or password");
});

test("the account page in German", async ({ pageDe, base }) => {
  await pageDe.goto(`${base}/account`);
  await expect(pageDe.locator("h1")).toHaveText("Konto");
  await pageDe.fill(tid("sign-up-name"), "Bo_e2e");
  await pageDe.fill(tid("sign-up-password"), "kurz");
  await pageDe.click(tid("sign-up-submit"));
  await expect(pageDe.locator(tid("sign-up-message"))).toContainText("mindestens 10 Zeichen");
  await pageDe.fill(tid("sign-up-password"), PASSWORD);
  await pageDe.click(tid("sign-up-submit"));
  await expect(pageDe.locator(tid("account-name"))).toHaveText("Angemeldet als Bo_e2e");
  await axeCheck(pageDe, "Konto, angemeldet");
  await shot(pageDe, "account-de.png");
});

// Passkeys (issue #47): a new account adds a passkey, signs out and in with it, and
// removes it; a passkey for another name is refused like a wrong password; on an IP
// address the page explains that passkeys need the site's name. Chromium's virtual
// authenticator (DevTools protocol) stands in for the device. WebAuthn needs a domain
// name, so these pages open the server as http://localhost:PORT.
import type { Page } from "@playwright/test";
import path from "node:path";
import { test, expect, repo } from "./fixtures";
import { axeCheck, tid } from "./helpers";

const PASSWORD = "stones of the inca 7";

/** A platform authenticator with user verification that says yes at once. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials };
}

/** The server by name: the fixture's base is http://127.0.0.1:PORT. */
const byName = (base: string) => base.replace("//127.0.0.1:", "//localhost:");

async function signUp(page: Page, name: string): Promise<void> {
  await page.fill(tid("sign-up-name"), name);
  await page.fill(tid("sign-up-password"), PASSWORD);
  await page.click(tid("sign-up-submit"));
  await expect(page.locator(tid("account-name"))).toHaveText(`Signed in as ${name}`);
}

test("add a passkey, sign in with it, remove it", async ({ page, base }) => {
  const device = await virtualAuthenticator(page);
  await page.goto(`${byName(base)}/account`);
  await expect(page.locator(tid("passkey-sign-in"))).toBeEnabled();
  await signUp(page, "Pia_e2e");
  await expect(page.locator(tid("no-passkeys"))).toBeVisible();

  await page.fill(tid("passkey-name"), "laptop");
  await page.click(tid("passkey-add"));
  await expect(page.locator(tid("account-message"))).toHaveText("Passkey “laptop” added.");
  await expect(page.locator(tid("passkey-label"))).toHaveText(["laptop"]);
  await expect(page.locator(tid("passkey"))).toContainText("never used");
  expect(await device.credentials()).toHaveLength(1);
  await axeCheck(page, "account with a passkey");
  await page.screenshot({ path: path.join(repo, "target/playwright/passkeys-en.png"), fullPage: true });

  await page.click(tid("sign-out"));
  await page.fill(tid("sign-in-name"), "pia_E2E");
  await page.click(tid("passkey-sign-in"));
  await expect(page.locator(tid("account-name"))).toHaveText("Signed in as Pia_e2e");
  await expect(page.locator(tid("passkey"))).toContainText("last used");

  page.once("dialog", (d) => d.accept());
  await page.click(tid("passkey-remove"));
  await expect(page.locator(tid("no-passkeys"))).toBeVisible();
  await expect(page.locator(tid("account-message"))).toHaveText("Passkey removed.");

  // The device still holds the key, but the account no longer knows it.
  await page.click(tid("sign-out"));
  await page.fill(tid("sign-in-name"), "Pia_e2e");
  await page.click(tid("passkey-sign-in"));
  await expect(page.locator(tid("sign-in-message"))).toContainText(/wrong name or password/i);
  await expect(page.locator(tid("sign-in-form"))).toBeVisible();
});

test("a passkey of another name is refused", async ({ page, base }) => {
  await virtualAuthenticator(page);
  await page.goto(`${byName(base)}/account`);
  await signUp(page, "Rui_e2e");
  await page.click(tid("passkey-add"));
  await expect(page.locator(tid("passkey-label"))).toHaveText(["this device"]);
  await page.click(tid("sign-out"));
  await signUp(page, "Sol_e2e");
  await page.click(tid("sign-out"));

  // Sol has no passkey, and nobody is called Nobody_e2e: refused as a wrong password.
  for (const name of ["Sol_e2e", "Nobody_e2e"]) {
    await page.fill(tid("sign-in-name"), name);
    await page.click(tid("passkey-sign-in"));
    await expect(page.locator(tid("sign-in-message"))).toContainText(/wrong name or password/i);
    await expect(page.locator(tid("sign-in-form"))).toBeVisible();
  }
  // Rui's passkey still signs Rui in.
  await page.fill(tid("sign-in-name"), "Rui_e2e");
  await page.click(tid("passkey-sign-in"));
  await expect(page.locator(tid("account-name"))).toHaveText("Signed in as Rui_e2e");
});

test("passkeys need the site's name, in German too", async ({ page, pageDe, base }) => {
  // By address (the fixture's own base): the button is off, with the reason.
  await page.goto(`${base}/account`);
  await expect(page.locator(tid("passkey-sign-in"))).toBeDisabled();
  await expect(page.locator(tid("passkey-sign-in-hint"))).toContainText("open it by its name");
  const answer = await page.evaluate(async () => {
    const r = await fetch("/api/session/passkey/start", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Pia_e2e" }) });
    return { status: r.status, body: await r.json() };
  });
  expect(answer).toMatchObject({ status: 409, body: { code: "passkeys_unavailable" } });

  await virtualAuthenticator(pageDe);
  await pageDe.goto(`${byName(base)}/account`);
  await expect(pageDe.locator(tid("passkey-sign-in"))).toHaveText("Mit Passkey anmelden");
  await pageDe.fill(tid("sign-in-name"), "Niemand_e2e");
  await pageDe.click(tid("passkey-sign-in"));
  await expect(pageDe.locator(tid("sign-in-message"))).toHaveText("Name oder Passwort stimmt nicht.");
});

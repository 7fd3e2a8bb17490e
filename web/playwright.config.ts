// The browser tests (web/e2e/*.spec.ts) against a real `rumi serve` (RUMI_BIN, default
// target/release/rumi), in Debian's Chromium (CHROMIUM, default /usr/bin/chromium): no
// browser of Playwright's own is downloaded. Each worker starts its own server
// (e2e/fixtures.ts). Traces and screenshots of a failed test go to target/playwright/.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  outputDir: path.join(repo, "target/playwright/results"),
  // Two workers (the machine has two cores), each with its own server and browser.
  workers: Number(process.env.RUMI_E2E_WORKERS ?? 2),
  fullyParallel: true,
  // No retries: a flaky test is a bug to fix, not to hide.
  retries: 0,
  // The longest scenarios play whole games against bots on a loaded machine.
  timeout: 300_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // WebGL (the Rumis board) on the CPU
        "--enable-unsafe-swiftshader",
        "--use-angle=swiftshader",
      ],
    },
    viewport: { width: 1280, height: 900 },
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
  },
});

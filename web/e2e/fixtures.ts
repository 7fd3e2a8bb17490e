// Fixtures of the browser tests: a real `rumi serve` per worker, pages of the shapes the
// scenarios need (desktop, a 390×844 touch phone, English or German), the HTTP API, and
// a watch on every page's errors. A spec imports `test` and `expect` from here:
//
//   import { test, expect } from "./fixtures";
//   test("…", async ({ page, phone, pageDe, open, base, api, server }) => { … });
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, expect, type BrowserContextOptions, type Page } from "@playwright/test";

export { expect };

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The `rumi` binary under test (its client is the web/dist it was compiled with). */
export const bin = process.env.RUMI_BIN ? path.resolve(process.env.RUMI_BIN) : path.join(repo, "target/release/rumi");
/** While working on the client: serve this `web/dist` instead of the binary's own (`--web-dir`). */
const webDir = process.env.RUMI_WEB_DIR ? path.resolve(process.env.RUMI_WEB_DIR) : null;

/** The context shapes of the scenarios. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, locale: "en-US" };
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "en-US" };
export const PHONE_LANDSCAPE: BrowserContextOptions = { ...PHONE, viewport: { width: 844, height: 390 } };

/** A `rumi serve` on a fresh SQLite database in a temporary directory. */
export class Server {
  url = "";
  private child: ChildProcess | null = null;
  private err = "";
  constructor(
    readonly dir: string,
    readonly botDelayMs = 60,
    /** `--handover-after-seconds` (the server's 60 when null). */
    readonly handoverAfterSeconds: number | null = null,
    /** `--allow-chosen-seeds`: a creator may fix the deal also at a table with other people. */
    readonly allowChosenSeeds = false,
    /** More flags for `rumi serve` (e.g. the reviews' limits). */
    readonly extraArgs: string[] = [],
  ) {}

  /** Starts the server on `addr` (port 0: any free port) and reads its "listening on" line. */
  async start(addr = "127.0.0.1:0"): Promise<void> {
    if (!fs.existsSync(bin)) throw new Error(`RUMI_BIN ${bin} does not exist (build it: cargo build --release -p rumi)`);
    // No limits per address: every page of every test comes from 127.0.0.1.
    const args = ["serve", "--addr", addr, "--db", `sqlite://${path.join(this.dir, "e2e.db")}`, "--bot-delay-ms", String(this.botDelayMs), "--tables-per-minute-per-address", "0", "--max-open-tables-per-address", "0", "--max-open-seats-per-address", "0", "--max-open-seats-per-table-per-address", "0", "--sign-ins-per-minute-per-address", "0"];
    if (this.handoverAfterSeconds !== null) args.push("--handover-after-seconds", String(this.handoverAfterSeconds));
    if (this.allowChosenSeeds) args.push("--allow-chosen-seeds");
    if (webDir) args.push("--web-dir", webDir);
    args.push(...this.extraArgs);
    const child = spawn(bin, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    child.stderr!.on("data", (d) => {
      this.err += d;
      if (this.err.length > 200_000) this.err = this.err.slice(-100_000);
    });
    this.url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`the server printed no "listening on" line within 30 s; stderr:\n${this.err.slice(-3000)}`)), 30_000);
      child.stdout!.on("data", (d) => {
        out += d;
        const m = out.match(/listening on (http:\/\/[^\s]+)/);
        if (m) {
          clearTimeout(timer);
          resolve(m[1].replace(/\/$/, ""));
        }
      });
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code} before listening; stderr:\n${this.err.slice(-3000)}`));
      });
    });
  }

  /** kill -9, then a new server on the same address and database (reconnect tests). */
  async restart(): Promise<void> {
    await this.kill();
    await this.start(new URL(this.url).host);
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await gone;
  }

  /** The tail of the server's log. */
  stderr(): string {
    return this.err.slice(-3000);
  }
}

/** `api(method, path, body?, token?)`: the parsed JSON answer; a non-2xx answer throws. */
export type Api = (method: string, p: string, body?: unknown, token?: string | null) => Promise<any>;

export function apiOf(url: () => string): Api {
  return async (method, p, body, token) => {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (token) headers["X-Seat-Token"] = token;
    const r = await fetch(url() + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${p} answered ${r.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Records a page's script errors and console errors (a lost WebSocket is expected). */
export function watchPage(page: Page, name: string, problems: string[]): void {
  page.on("pageerror", (e) => problems.push(`${name}: page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !/WebSocket|Failed to load resource/.test(m.text())) problems.push(`${name}: console error: ${m.text()}`);
  });
}

type Open = (options?: BrowserContextOptions & { name?: string }) => Promise<Page>;

type TestFixtures = {
  /** The server's address, `http://127.0.0.1:PORT` (no trailing slash). */
  base: string;
  api: Api;
  /** Errors seen on any page of the test; the test fails if one is left at its end. */
  problems: string[];
  /** A new browser context (desktop English unless the options say otherwise) and its page, watched and closed after the test. */
  open: Open;
  /** A 390×844 touch phone, English. */
  phone: Page;
  /** A desktop in German (de-DE). */
  pageDe: Page;
};

type WorkerFixtures = {
  /** The server's pause before each bot move (`test.use({ botDelayMs })`: a worker with its own server). */
  botDelayMs: number;
  /** Seconds a player must be away before the others may hand their seat to a bot
   * (`test.use({ handoverAfterSeconds: 0 })`; null: the server's default). */
  handoverAfterSeconds: number | null;
  /** `test.use({ allowChosenSeeds: true })`: the deal's seed may be fixed at a table with
   * other people too (`--allow-chosen-seeds`), so that a test deals a known situation. */
  allowChosenSeeds: boolean;
  server: Server;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  botDelayMs: [60, { scope: "worker", option: true }],
  handoverAfterSeconds: [null, { scope: "worker", option: true }],
  allowChosenSeeds: [false, { scope: "worker", option: true }],
  server: [
    async ({ botDelayMs, handoverAfterSeconds, allowChosenSeeds }, use) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rumi-e2e-"));
      const server = new Server(dir, botDelayMs, handoverAfterSeconds, allowChosenSeeds);
      await server.start();
      await use(server);
      await server.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 60_000 },
  ],
  base: async ({ server }, use) => {
    await use(server.url);
  },
  api: async ({ server }, use) => {
    await use(apiOf(() => server.url));
  },
  problems: [
    async ({ server }, use, testInfo) => {
      const problems: string[] = [];
      await use(problems);
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach("server-stderr.txt", { body: server.stderr(), contentType: "text/plain" });
      }
      expect(problems, "errors on the pages").toEqual([]);
    },
    { auto: true },
  ],
  page: async ({ page, problems }, use) => {
    watchPage(page, "page", problems);
    await use(page);
  },
  open: async ({ browser, problems }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    let n = 0;
    await use(async (options = {}) => {
      const { name, ...rest } = options;
      const context = await browser.newContext({ ...DESKTOP, ...rest });
      contexts.push(context);
      const page = await context.newPage();
      watchPage(page, name ?? `page ${++n}`, problems);
      return page;
    });
    for (const c of contexts) await c.close().catch(() => {});
  },
  phone: async ({ open }, use) => {
    await use(await open({ ...PHONE, name: "phone" }));
  },
  pageDe: async ({ open }, use) => {
    await use(await open({ ...DESKTOP, locale: "de-DE", name: "de" }));
  },
});

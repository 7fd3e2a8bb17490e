// Builds the browser's rules module: crates/rules-wasm (the Rummikub rules crate's set
// checks) compiled to WebAssembly, copied to src/wasm/rules.wasm, where vite picks it up
// (src/wasm/rules.ts loads it). Run by `npm run build` and `npm run dev`; cargo makes it
// a no-op when the Rust sources did not change. Needs the wasm32-unknown-unknown target
// (scripts/build-client adds it when missing).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const target = path.join(web, "src/wasm/rules.wasm");
const args = ["build", "--package", "rules-wasm", "--target", "wasm32-unknown-unknown", "--profile", "wasm", "--message-format=json-render-diagnostics"];
let output;
try {
  output = execFileSync("cargo", args, { cwd: web, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", maxBuffer: 64 << 20 });
} catch (e) {
  console.error(`\`cargo ${args.join(" ")}\` failed (${e.message.split("\n")[0]}).\nIf the target is missing: rustup target add wasm32-unknown-unknown (scripts/build-client adds it).`);
  process.exit(1);
}
// Cargo names the file it built (wherever CARGO_TARGET_DIR puts it).
const built = output
  .split("\n")
  .filter((line) => line.startsWith("{"))
  .map((line) => JSON.parse(line))
  .filter((m) => m.reason === "compiler-artifact" && m.target?.name === "rules_wasm")
  .flatMap((m) => m.filenames)
  .find((f) => f.endsWith(".wasm"));
if (!built) {
  console.error("cargo built no rules_wasm .wasm file");
  process.exit(1);
}
// Copied only when it changed: an unchanged file keeps its time (and vite's cache).
if (!existsSync(target) || !readFileSync(target).equals(readFileSync(built))) copyFileSync(built, target);
console.log(`rules module: ${path.relative(web, target)}, ${statSync(target).size} bytes`);

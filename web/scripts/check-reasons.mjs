#!/usr/bin/env node
// Every refusal the engines can give a player has a key (German and English) and, where
// a rule stands behind it, the rule's anchor (run by `npm run build`). The refusal texts
// are read from the engines' `#[error("…")]` attributes (crates/rumis/src/rules.rs,
// crates/rummikub/src/round.rs and set.rs), filled with sample values, and read by
// src/i18n/server.ts as the client reads them at the table. Texts that only a program
// can cause (internal checks, typed notation) are listed below as not for players.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const crates = path.resolve(web, "../crates");
const files = ["rumis/src/rules.rs", "rummikub/src/round.rs", "rummikub/src/set.rs"].map((f) => path.join(crates, f));
if (!files.every((f) => fs.existsSync(f))) {
  console.log("check-reasons: the engines' sources are not here; skipped");
  process.exit(0);
}
const NOT_FOR_PLAYERS = [
  /^there is no placement number/,
  /^stone orientation .* does not exist/,
  /^there is no player/,
  /^the position holds/,
  /^the melded flags/,
  /^player .* is to move, but there are only/,
  /^table set /, // a position given to the engine, not a play
  /^\{0\}$/,
  /^the same set$/,
  /^the removed .* can still be placed, so it may not be set aside/, // a record's claim
  /^stones are taken off only in the dismantling phase/,
];

const sample = (template) =>
  template
    .replace(/only \{0\} tiles/g, "only 2 tiles")
    .replace(/cell \{(0|cell)\}/g, "cell b1 level 3")
    .replace(/at cell \{cell\}/g, "at cell b1 level 3")
    .replace(/\(cell \{cell\} does\)/g, "(cell b1 level 3 does)")
    .replace(/column \{column\}/g, "column b1")
    .replace(/at \{column\}/g, "at b1")
    .replace(/tile \{(0|tile)\}/g, "tile r5")
    .replace(/third \{0\}/g, "third r5")
    .replace(/set \{(0|index)\}/g, "set 2")
    .replace(/\{set\}/g, "[r1 r2]")
    .replace(/\{problem\}/g, "has only 2 tiles; a set needs at least 3")
    .replace(/\{(0|colour|to_move)\}/g, "red")
    .replace(/\{other\}/g, "blue")
    .replace(/\{by\}/g, "blue")
    .replace(/\{(stone|removed)\}/g, "L4")
    .replace(/\{name\}/g, "L tetracube")
    .replace(/\{example\}/g, "L4")
    .replace(/\{\w+\}/g, "3");

const templates = [];
for (const f of files) {
  const text = fs.readFileSync(f, "utf8");
  for (const m of text.matchAll(/#\[error\(\s*"((?:[^"\\]|\\.)*)"/g)) templates.push(m[1].replace(/\\"/g, '"'));
}

// The client's reader, bundled for node (with a browser's few globals).
globalThis.navigator = { languages: ["de"] };
globalThis.document = { documentElement: {} };
const out = await build({ entryPoints: [path.join(web, "src/i18n/server.ts")], bundle: true, write: false, format: "esm", platform: "neutral", logLevel: "silent" });
const mod = await import("data:text/javascript;base64," + Buffer.from(out.outputFiles[0].text).toString("base64"));

const problems = [];
let covered = 0;
for (const tpl of templates) {
  if (NOT_FOR_PLAYERS.some((re) => re.test(tpl))) continue;
  const text = sample(tpl);
  // A set's problem arrives inside "set 2 [r1 r2] …"; the rest on its own.
  const isProblem = /^(has |is neither)/.test(tpl);
  const ok = isProblem ? mod.problemText(text) !== text : !!mod.reason(text, "illegal").key;
  if (!ok) problems.push(`no key reads "${text}" (from "${tpl}")`);
  else covered++;
}
if (problems.length) {
  console.error(`check-reasons: ${problems.length} refusal(s) without a key:\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`check-reasons: ${covered} engine refusals read into keys with German and English texts`);

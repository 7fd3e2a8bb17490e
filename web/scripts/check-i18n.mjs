#!/usr/bin/env node
// Every client text in German and English (run by `npm run build`):
// - each key of src/i18n/messages.json has an `en` and a `de` text naming the same
//   {parameters};
// - every key the code uses (`t("…")`, and the families read at run time: `code.*`,
//   `reason.*`, `event.*`, …) exists;
// - every error code the server can answer (`ApiError::…("code"`, and the codes of the
//   transport layer in crates/server/src) has a `code.<code>` text;
// - the rules pages (src/rules/*.ts) have both languages in every paragraph.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const messages = JSON.parse(fs.readFileSync(path.join(web, "src/i18n/messages.json"), "utf8"));
const problems = [];
const params = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");

for (const [key, entry] of Object.entries(messages)) {
  for (const l of ["en", "de"]) {
    if (typeof entry[l] !== "string") problems.push(`${key}: no ${l} text`);
    else if (entry[l] === "" && !key.startsWith("variant_note.standard")) problems.push(`${key}: empty ${l} text`);
  }
  if (typeof entry.en === "string" && typeof entry.de === "string" && params(entry.en) !== params(entry.de))
    problems.push(`${key}: en names {${params(entry.en)}}, de names {${params(entry.de)}}`);
  const extra = Object.keys(entry).filter((k) => k !== "en" && k !== "de");
  if (extra.length) problems.push(`${key}: unknown languages ${extra.join(", ")}`);
}

// Keys used by the code.
function walk(dir, out = []) {
  for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, f.name);
    if (f.isDirectory()) walk(p, out);
    else if (/\.ts$/.test(f.name)) out.push(p);
  }
  return out;
}
const sources = walk(path.join(web, "src")).filter((p) => !p.includes("generated"));
let used = 0;
for (const file of sources) {
  const text = fs.readFileSync(file, "utf8");
  for (const m of text.matchAll(/\bt\(\s*"([a-z0-9_.-]+)"/g)) {
    used++;
    if (!(m[1] in messages)) problems.push(`${path.relative(web, file)} uses ${m[1]}, which has no text`);
  }
  for (const m of text.matchAll(/"((?:reason|problem|event|level|preset|tile|colour)\.[a-z0-9_-]+)"/g)) {
    if (!(m[1] in messages)) problems.push(`${path.relative(web, file)} names ${m[1]}, which has no text`);
  }
  if (/src\/rules\//.test(file)) {
    // Rules pages: every {en: …} has a de and the other way round.
    const en = (text.match(/\ben:\s*[`"]/g) ?? []).length;
    const de = (text.match(/\bde:\s*[`"]/g) ?? []).length;
    if (en !== de) problems.push(`${path.relative(web, file)}: ${en} English texts, ${de} German ones`);
  }
}

// Every error code the server can answer has a text.
const server = path.resolve(web, "../crates/server/src");
const codes = new Set();
if (fs.existsSync(server)) {
  const rust = walk2(server);
  for (const file of rust) {
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(/ApiError::(?:bad_request|conflict|forbidden|not_found|too_many|new)\(\s*(?:ErrorKind::\w+,\s*)?"([a-z_]+)"/g)) codes.add(m[1]);
    // (not in doc comments: `///` lines show reasons' keys, checked by check-reasons.mjs)
    for (const m of text.replace(/^\s*\/\/.*$/gm, "").matchAll(/"code":\s*"([a-z_]+)"/g)) codes.add(m[1]);
    for (const m of text.matchAll(/\d{3} => "([a-z_]+)"/g)) codes.add(m[1]);
  }
  for (const c of ["stale", "token_in_url", "bad_token", "not_started"]) codes.add(c);
  for (const c of codes) if (!(`code.${c}` in messages)) problems.push(`the server's code ${c} has no text (code.${c})`);
}
function walk2(dir, out = []) {
  for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, f.name);
    if (f.isDirectory()) walk2(p, out);
    else if (f.name.endsWith(".rs")) out.push(p);
  }
  return out;
}

if (problems.length) {
  console.error(`i18n: ${problems.length} problem(s):\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`i18n: ${Object.keys(messages).length} keys in German and English, ${used} uses, ${codes.size} server codes covered`);

#!/usr/bin/env node
// Every client text in German and English (run by `npm run build`):
// - each key of src/i18n/messages.json has an `en` and a `de` text naming the same
//   {parameters} (a text may be plural forms, `{one, other}`: see src/plural.ts);
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

// A text is a string, or its plural forms `{one, other}` (Intl.PluralRules categories,
// `other` required), counted by the parameter `by` names (else n, else count).
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
const forms = (text) => (typeof text === "string" ? [text] : text && typeof text === "object" ? Object.values(text) : []);
const allParams = (text) => [...new Set(forms(text).flatMap((f) => params(f).split(",").filter(Boolean)))].sort().join(",");
for (const [key, entry] of Object.entries(messages)) {
  for (const l of ["en", "de"]) {
    const text = entry[l];
    if (text && typeof text === "object") {
      const bad = Object.keys(text).filter((c) => !CATEGORIES.includes(c));
      if (bad.length) problems.push(`${key}: ${l} has plural forms ${bad.join(", ")}, which are no plural categories`);
      if (typeof text.other !== "string") problems.push(`${key}: ${l} has plural forms but no "other"`);
      const needed = new Intl.PluralRules(l).resolvedOptions().pluralCategories;
      const missing = needed.filter((c) => c !== "other" && typeof text[c] !== "string");
      if (missing.length) problems.push(`${key}: ${l} lacks the plural forms ${missing.join(", ")}`);
      for (const f of Object.values(text)) if (params(f) !== params(text.other)) problems.push(`${key}: ${l}'s plural forms name different parameters`);
      const by = entry.by ?? (params(text.other).split(",").includes("n") ? "n" : "count");
      if (!params(text.other).split(",").includes(by)) problems.push(`${key}: ${l} has plural forms but no {${by}} to count by`);
    } else if (typeof text !== "string") problems.push(`${key}: no ${l} text`);
    else if (text === "" && !key.startsWith("variant_note.standard")) problems.push(`${key}: empty ${l} text`);
  }
  if (allParams(entry.en) !== allParams(entry.de))
    problems.push(`${key}: en names {${allParams(entry.en)}}, de names {${allParams(entry.de)}}`);
  const extra = Object.keys(entry).filter((k) => k !== "en" && k !== "de" && k !== "by");
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

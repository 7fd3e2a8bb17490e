#!/usr/bin/env node
// The client's German speaks as the rule books do (run by `npm run build`): no German
// text uses a word src/i18n/glossary.json says to avoid (outside the keys it excepts),
// so that one thing has one name throughout: "Serie", not "Satz"; "Erstkombination",
// not "erstes Auslegen".
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const read = (f) => JSON.parse(fs.readFileSync(path.join(web, f), "utf8"));
const messages = read("src/i18n/messages.json");
const glossary = read("src/i18n/glossary.json");

const texts = (entry) => (typeof entry.de === "string" ? [entry.de] : Object.values(entry.de ?? {}));
// A word, not part of a longer one (German letters count as letters).
const wordRe = (w) => new RegExp(`(?<![\\p{L}-])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}-])`, "u");

const problems = [];
let checked = 0;
for (const term of glossary.terms) {
  for (const avoid of term.avoid) {
    const re = wordRe(avoid);
    const allowed = new Set(glossary.except[avoid] ?? []);
    for (const [key, entry] of Object.entries(messages)) {
      if (allowed.has(key)) continue;
      for (const text of texts(entry)) {
        checked++;
        if (re.test(text)) problems.push(`${key}: "${avoid}" where the rule books say "${term.de}" (${term.note}): ${text}`);
      }
    }
  }
}
const unknown = Object.keys(glossary.except).filter((w) => !glossary.terms.some((t) => t.avoid.includes(w)));
for (const w of unknown) problems.push(`glossary.json: an exception for "${w}", which no term avoids`);
if (problems.length) {
  console.error(`check-glossary: ${problems.length} German texts use words the glossary avoids:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`glossary: ${glossary.terms.length} terms; no German text uses an avoided word`);

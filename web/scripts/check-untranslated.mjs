#!/usr/bin/env node
// No English left in the German client (run by `npm run build`): a key of
// src/i18n/messages.json whose German text is the English one was most likely never
// translated, unless the words really are the same in German (ALLOWED). Also no
// plural written as "Stein(e)" / "tile(s)": such texts use plural forms (src/plural.ts).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const messages = JSON.parse(fs.readFileSync(path.join(web, "src/i18n/messages.json"), "utf8"));

/** Texts that are the same in both languages. */
const ALLOWED = new Set(["", "Lobby", "live", "neutral", "online", "offline", "orange"]);

const forms = (text) => (typeof text === "string" ? { other: text } : (text ?? {}));
const problems = [];
for (const [key, entry] of Object.entries(messages)) {
  const en = forms(entry.en);
  const de = forms(entry.de);
  for (const [category, text] of Object.entries(de)) {
    if (text === (en[category] ?? en.other) && !ALLOWED.has(text.trim()))
      problems.push(`${key}: the German text is the English one (${JSON.stringify(text)}); translate it, or add it to ALLOWED if it is German too`);
  }
  for (const [l, all] of [["en", en], ["de", de]])
    for (const text of Object.values(all))
      if (/\w\((e|en|n|s|es)\)/.test(text)) problems.push(`${key}: ${l} writes a plural as ${text.match(/\w+\((e|en|n|s|es)\)/)[0]}; give plural forms {one, other}`);
}
if (problems.length) {
  console.error(`untranslated: ${problems.length} problem(s):\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`untranslated: every German text differs from the English one (${ALLOWED.size} words allowed to be the same)`);

#!/usr/bin/env node
// What the compiler cannot check in the client's texts (run by `npm run build`; that
// every key used, and every code the server can send, has a text in both languages is
// checked by `tsc`, see src/i18n/i18n.ts):
// - the German and English texts of a key name the same {parameters}, and plural forms
//   `{one, other}` (src/plural.ts) are the language's categories with a count;
// - no English left in the German client: a German text that is the English one was
//   most likely never translated, unless the words really are the same (ALLOWED);
// - no plural written as "Stein(e)" / "tile(s)": such texts use plural forms;
// - the rules pages (src/rules/*.ts) have both languages in every paragraph.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const messages = JSON.parse(fs.readFileSync(path.join(web, "src/i18n/messages.json"), "utf8"));

/** Texts that are the same in both languages. */
const ALLOWED = new Set(["", "Lobby", "live", "neutral", "online", "offline", "orange", "Rummikub", "Passkeys"]);

const forms = (text) => (typeof text === "string" ? { other: text } : (text ?? {}));
const problems = [];

// Parameters and plural forms.
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
const params = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");
const allParams = (text) => [...new Set(Object.values(forms(text)).flatMap((f) => params(f).split(",").filter(Boolean)))].sort().join(",");
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
}

// Rules pages: every {en: …} has a de and the other way round.
const rules = path.join(web, "src/rules");
for (const f of fs.readdirSync(rules).filter((f) => f.endsWith(".ts"))) {
  const text = fs.readFileSync(path.join(rules, f), "utf8");
  const en = (text.match(/\ben:\s*[`"]/g) ?? []).length;
  const de = (text.match(/\bde:\s*[`"]/g) ?? []).length;
  if (en !== de) problems.push(`src/rules/${f}: ${en} English texts, ${de} German ones`);
}

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
console.log(`texts: ${Object.keys(messages).length} keys name the same parameters in German and English; every German text differs from the English one (${ALLOWED.size} words allowed to be the same)`);

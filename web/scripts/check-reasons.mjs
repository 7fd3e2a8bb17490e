#!/usr/bin/env node
// Every refusal and event the server sends as a key has a text in German and English
// that uses exactly the parameters the server sends (run by `npm run build`). Read from
// crates/server/src/games/reasons.rs: the codes (`KEYS`), the problems of an invalid
// set (`PROBLEMS`), and from its exhaustive matches each code's parameters
// (`reason("code", rule, json!({ "param": … }))`); the events' parameters from the
// `event("code", json!({ … }))` calls of the server's games. A refusal's text is
// `reason.<code>`, an event's `event.<code>`, a set's problem `problem.<problem>`
// (said inside `reason.set_problem` as its {problem}).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const games = path.resolve(web, "../crates/server/src/games");
const reasonsFile = path.join(games, "reasons.rs");
if (!fs.existsSync(reasonsFile)) {
  console.log("check-reasons: the server's sources are not here; skipped");
  process.exit(0);
}
const messages = JSON.parse(fs.readFileSync(path.join(web, "src/i18n/messages.json"), "utf8"));
const rs = fs.readFileSync(reasonsFile, "utf8");
const problems = [];

const list = (name) => {
  const m = rs.match(new RegExp(`pub const ${name}: &\\[&str\\] = &\\[([\\s\\S]*?)\\];`));
  if (!m) throw new Error(`check-reasons: no ${name} in reasons.rs`);
  return [...m[1].matchAll(/"([a-z_]+)"/g)].map((x) => x[1]);
};
const keysOf = (obj) => [...obj.matchAll(/"(\w+)"\s*:/g)].map((x) => x[1]);
const KEYS = list("KEYS");
const PROBLEMS = list("PROBLEMS");

// code → parameters, for refusals and for events
const reasonParams = new Map();
for (const m of rs.matchAll(/\breason\(\s*"([a-z_]+)",\s*(?:None|Some\("[A-Z]\d+"\)),\s*(json!\(\{([\s\S]*?)\}\)|params)\s*,?\s*\)/g)) {
  reasonParams.set(m[1], m[3] === undefined ? null : keysOf(m[3]));
}
const problemParams = new Map();
for (const m of rs.matchAll(/json!\(\{\s*"problem":\s*"([a-z_]+)"([\s\S]*?)\}\)/g)) problemParams.set(m[1], keysOf(m[2]));
const eventParams = new Map();
for (const f of fs.readdirSync(games).filter((f) => f.endsWith(".rs") && f !== "reasons.rs")) {
  const text = fs.readFileSync(path.join(games, f), "utf8");
  for (const m of text.matchAll(/\bevent\(\s*((?:if [^{]*\{\s*"[a-z_]+"\s*\}\s*else\s*\{\s*"[a-z_]+"\s*\})|"[a-z_]+"),\s*json!\(\{([\s\S]*?)\}\)\s*,?\s*\)/g)) {
    for (const c of m[1].matchAll(/"([a-z_]+)"/g)) eventParams.set(c[1], keysOf(m[2]));
  }
}

const textParams = (key) => {
  const e = messages[key];
  if (!e) return null;
  const names = new Set();
  // (a text is a string or its plural forms)
  for (const l of ["en", "de"])
    for (const f of typeof e[l] === "object" && e[l] ? Object.values(e[l]) : [e[l] ?? ""]) for (const x of f.matchAll(/\{(\w+)\}/g)) names.add(x[1]);
  return [...names].sort();
};
const same = (a, b) => a.join(",") === [...b].sort().join(",");
function want(key, params, what) {
  const used = textParams(key);
  if (!used) problems.push(`${what} has no text (${key})`);
  else if (!same(used, params)) problems.push(`${key} uses {${used.join(", ")}}, the server sends {${[...params].sort().join(", ")}}`);
}

for (const code of KEYS) {
  if (reasonParams.has(code)) {
    const p = reasonParams.get(code) ?? ["set", "tiles", "problem"]; // set_problem: built from problem(p)
    want(`reason.${code}`, p, `the refusal ${code}`);
  } else if (eventParams.has(code)) want(`event.${code}`, eventParams.get(code), `the event ${code}`);
  else problems.push(`the code ${code} is neither a refusal in reasons.rs nor an event of a game`);
}
for (const code of [...reasonParams.keys(), ...eventParams.keys()]) if (!KEYS.includes(code)) problems.push(`${code} is sent but not in KEYS`);
for (const p of PROBLEMS) {
  if (!problemParams.has(p)) problems.push(`the problem ${p} has no parameters in reasons.rs`);
  else want(`problem.${p}`, problemParams.get(p), `the problem ${p}`);
}
if (reasonParams.size < 30 || eventParams.size < 7) problems.push(`read only ${reasonParams.size} refusals and ${eventParams.size} events: has reasons.rs changed its form?`);

if (problems.length) {
  console.error(`check-reasons: ${problems.length} problem(s):\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`check-reasons: ${reasonParams.size} refusals, ${eventParams.size} events and ${PROBLEMS.length} set problems have texts with the server's parameters`);

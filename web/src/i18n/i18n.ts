// German and English for every text of the client. The language comes from the
// browser (`navigator.languages`), can be switched in the top bar and is remembered
// (localStorage `rumi.lang`). Texts live in `messages.json` as `{key: {en, de}}`.
// The compiler checks them: `t` takes only keys that exist, and every code the server
// can send (its error codes, refusals, events and set problems, exported from the
// server's Rust enums into ../generated/api.ts) must have a text in both languages
// (`texts` below). `npm run build` runs `scripts/check-untranslated.mjs`, which checks
// what a type cannot: that the two texts name the same parameters and plural forms.
import messages from "./messages.json";
import { countParam, pluralForm, type Forms } from "../plural";
import type { ErrorCode, EventCode, RefusalCode, SetProblemCode } from "../generated/api";

export type Lang = "de" | "en";
export type MessageKey = keyof typeof messages;
export type Params = Record<string, string | number>;

/** A message: a text per language, or its plural forms (see plural.ts). */
type Entry = { en: string | Forms; de: string | Forms; by?: string };

/** The keys of what the server says: an error code, a refusal of a move, an event, or
 * what is wrong with a Rummikub set. */
export type ServerKey = `code.${ErrorCode}` | `reason.${RefusalCode}` | `event.${EventCode}` | `problem.${SetProblemCode}`;

/** Every text, with one in both languages for each code the server can send: a code
 * without one (or with one language missing) does not compile. */
const texts: Record<ServerKey, Entry> & Record<MessageKey, Entry> = messages;

const LANG_KEY = "rumi.lang";

function detect(): Lang {
  try {
    const stored = localStorage.getItem(LANG_KEY);
    if (stored === "de" || stored === "en") return stored;
  } catch {
    /* no storage */
  }
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = (l ?? "").toLowerCase().slice(0, 2);
    if (base === "de") return "de";
    if (base === "en") return "en";
  }
  return "en";
}

let current: Lang = detect();

export function lang(): Lang {
  return current;
}

/** Switches the language and remembers it; the page is drawn again by the caller. */
export function setLang(l: Lang): void {
  current = l;
  try {
    localStorage.setItem(LANG_KEY, l);
  } catch {
    /* no storage */
  }
  document.documentElement.lang = l;
}

function fill(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** The text of a key in the current language, with `{name}` parameters filled in. */
export function t(key: MessageKey, params?: Params): string {
  const entry: Entry | undefined = texts[key];
  if (!entry) return key;
  const text = entry[current] ?? entry.en;
  return fill(typeof text === "string" ? text : pluralForm(current, text, countParam(entry.by, params)), params);
}

/** Whether a key exists (for keys built at run time, such as server codes). */
export function has(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

/** A key built at run time, or a fallback text. */
export function tr(key: string, params?: Params, fallback?: string): string {
  return has(key) ? t(key, params) : (fallback ?? key);
}

/** A text in both languages, picked by the current one (rules pages). */
export type Both = { en: string; de: string };
export function pick(b: Both): string {
  return b[current];
}

document.documentElement.lang = current;

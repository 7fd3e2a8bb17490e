// Plurals by the language's own rules (`Intl.PluralRules`): a message whose text is
// `{one, other}` instead of a string is picked by its count, so no "Stein(e)" and no
// "1 Steine". The count is the parameter named by the entry's `by` (else `n`, else
// `count`). scripts/check-untranslated.mjs checks that every form names the same parameters.
export type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const rules = new Map<string, Intl.PluralRules>();

function rulesOf(lang: string): Intl.PluralRules {
  let r = rules.get(lang);
  if (!r) {
    r = new Intl.PluralRules(lang);
    rules.set(lang, r);
  }
  return r;
}

/** The form of `forms` for `count` in `lang` (`other` when the language's category has
 * no text of its own, or the count is not a number). */
export function pluralForm(lang: string, forms: Forms, count: unknown): string {
  const n = typeof count === "number" ? count : typeof count === "string" && count.trim() !== "" ? Number(count) : NaN;
  if (!Number.isFinite(n)) return forms.other;
  return forms[rulesOf(lang).select(n)] ?? forms.other;
}

/** Which parameter counts in a plural message. */
export function countParam(by: string | undefined, params: Record<string, unknown> | undefined): unknown {
  if (!params) return undefined;
  if (by) return params[by];
  return "n" in params ? params.n : params.count;
}

// The high-contrast setting (issue #60 point 6): stronger patterns and edges on the
// Rumis stones, for players who tell colours apart poorly or play in bright light.
// Kept in this browser; every board follows a change at once (the `rumi-contrast`
// event).
import { h } from "./dom";
import { t } from "./i18n/i18n";

const KEY = "rumi.contrast";
export const CONTRAST_EVENT = "rumi-contrast";

export function highContrast(): boolean {
  try {
    return localStorage.getItem(KEY) === "high";
  } catch {
    return false;
  }
}

export function setHighContrast(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEY, "high");
    else localStorage.removeItem(KEY);
  } catch {
    /* no storage: this page only */
  }
  document.documentElement.dataset.contrast = on ? "high" : "normal";
  window.dispatchEvent(new CustomEvent(CONTRAST_EVENT, { detail: on }));
}

/** The setting as a checkbox. */
export function contrastToggle(): HTMLElement {
  const box = h("input", { type: "checkbox", testid: "high-contrast" }) as HTMLInputElement;
  box.checked = highContrast();
  box.addEventListener("change", () => setHighContrast(box.checked));
  window.addEventListener(CONTRAST_EVENT, () => (box.checked = highContrast()));
  return h("label", { className: "contrast-toggle" }, box, " ", t("settings.high_contrast"));
}

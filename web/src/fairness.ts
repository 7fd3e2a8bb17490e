// The fairness box of a dealt game: the commitment to the deal's seed (kept as first
// seen, for `rumi verify --commitment`), a practice seed, and once over the seed and
// salt with the browser's own check of the commitment.
import type { Fairness } from "./api";
import { h } from "./dom";
import { t } from "./i18n/i18n";

function replayFile(id: string): string {
  return `rumi-${id}-replay.json`;
}

function shortHex(hex: string): string {
  return hex.length > 12 ? `${hex.slice(0, 12)}…` : hex;
}

async function sha256Hex(text: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The commitment this browser first saw for a table (kept in localStorage), which
 * `rumi verify --commitment` checks the replay against: a server that changed the
 * deal afterwards would have to change the commitment too.
 */
function seenCommitment(id: string, commitment: string): string {
  const key = `rumi.commitment.${id}`;
  try {
    const seen = localStorage.getItem(key);
    if (seen) return seen;
    localStorage.setItem(key, commitment);
  } catch {
    // Storage refused (private mode): the commitment shown now.
  }
  return commitment;
}

/** The fairness box: the commitment, the practice seed, and once over the seed and salt. */
export function fairnessBox(id: string, f: Fairness | undefined, over: boolean): HTMLElement | null {
  if (!f) return null;
  const seen = seenCommitment(id, f.commitment);
  const box = h(
    "div",
    { className: "fairness", testid: "fairness" },
    h("span", { className: "muted" }, t("fair.committed"), " "),
    h("code", { testid: "commitment", title: t("fair.commitment_title", { value: f.commitment }), "data-value": f.commitment }, shortHex(f.commitment)),
  );
  if (f.practice_seed !== null && f.practice_seed !== undefined) {
    box.append(" ", h("span", { className: "practice", testid: "practice-seed", "data-seed": String(f.practice_seed) }, t("fair.practice", { seed: f.practice_seed })));
  }
  if (over && f.seed !== null && f.seed !== undefined && f.salt) {
    const input = `rumi-seed:${f.seed}:${f.salt}`;
    const verdict = h("span", { testid: "fairness-check" });
    box.append(
      h(
        "div",
        { testid: "fairness-reveal", "data-seed": String(f.seed), "data-salt": f.salt },
        t("fair.seed"), " ",
        h("code", { testid: "revealed-seed" }, String(f.seed)),
        ", ", t("fair.salt"), " ",
        h("code", { testid: "revealed-salt", title: f.salt }, shortHex(f.salt)),
        " ",
        verdict,
      ),
      h(
        "div",
        { className: "muted small-text", testid: "fairness-how" },
        t("fair.how1"), " ",
        h("code", {}, `rumi-seed:${f.seed}:<salt>`),
        " ", t("fair.how2"), " ",
        h("code", { testid: "verify-command", "data-commitment": seen }, `rumi verify --commitment ${seen} ${replayFile(id)}`),
        " ", t("fair.how3"), " ",
        h("a", { href: `/api/tables/${encodeURIComponent(id)}/replay`, download: replayFile(id), testid: "replay-download" }, t("fair.how_replay")),
        " ", t("fair.how4"),
      ),
    );
    sha256Hex(input)
      .then((hex) => {
        if (hex === null) return;
        const ok = hex === f.commitment.toLowerCase();
        verdict.dataset.ok = String(ok);
        verdict.className = ok ? "ok" : "bad";
        verdict.textContent = ok ? t("fair.ok") : t("fair.bad");
      })
      .catch(() => {});
  }
  return box;
}

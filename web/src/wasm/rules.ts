// The Rummikub rules the browser needs (crates/rules-wasm: the rules crate compiled to
// WebAssembly; scripts/build-client builds rules.wasm here). One set check per call:
// the tile codes go in as text in the module's memory, a verdict number comes back,
// the details are read after it. Loaded once, before a Rummikub table renders.
import rulesUrl from "./rules.wasm?url&no-inline";

/** What crates/rules-wasm's `check_set` returns (its `Verdict`, by number). */
export type Verdict = "valid" | "too_short" | "too_many_jokers" | "neither";
const VERDICTS: Verdict[] = ["valid", "too_short", "too_many_jokers", "neither"];
/** The verdict on input the module could not read (an unknown tile code, too long). */
const UNREADABLE = 4;

interface RulesExports {
  memory: WebAssembly.Memory;
  input_buffer(): number;
  input_capacity(): number;
  check_set(length: number, jokersPerSet: number, runWrapsAround: number): number;
  last_tile_count(): number;
  last_joker_count(): number;
  last_value(): number;
  order_buffer(): number;
}

const EXPORTS = ["input_buffer", "input_capacity", "check_set", "last_tile_count", "last_joker_count", "last_value", "order_buffer"] as const;

let rules: RulesExports | null = null;
let loading: Promise<void> | null = null;

/** Fetches and instantiates the module once; later calls return the same promise. */
export function loadRules(): Promise<void> {
  loading ??= (async () => {
    const response = await fetch(rulesUrl);
    if (!response.ok) throw new Error(`the rules module ${rulesUrl} did not load: HTTP ${response.status}`);
    const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
    const exports = instance.exports as Record<string, unknown>;
    const missing = ["memory", ...EXPORTS].filter((name) => !(name in exports));
    if (missing.length) throw new Error(`the rules module lacks ${missing.join(", ")}: rebuild it (scripts/build-client)`);
    rules = exports as unknown as RulesExports;
  })();
  // A failed load may be retried (a network hiccup).
  loading.catch(() => (loading = null));
  return loading;
}

/** Whether `loadRules` has finished: the check functions may be called. */
export function rulesLoaded(): boolean {
  return rules !== null;
}

export interface SetCheck {
  verdict: Verdict;
  /** Tiles and jokers in the set. */
  tiles: number;
  jokers: number;
  /** Value of the best reading (K4; a joker counts as the tile it stands for); 0 unless valid. */
  value: number;
  /** For a valid set, the index of each tile in the order of its best reading (runs
   * ascending, each joker where it stands); else as laid. */
  order: number[];
}

const encoder = new TextEncoder();

/** The rules crate's check of one set under the table's rules. */
export function checkSet(codes: string[], setRules: { jokers_per_set: number; run_wraps_around: boolean }): SetCheck {
  if (!rules) throw new Error("the rules module is not loaded yet (await loadRules())");
  const text = codes.join(" ");
  const capacity = rules.input_capacity();
  const input = new Uint8Array(rules.memory.buffer, rules.input_buffer(), capacity);
  const { read, written } = encoder.encodeInto(text, input);
  if (read !== text.length) throw new Error(`a set of ${codes.length} tiles is longer than the rules module reads (${capacity} bytes)`);
  const verdict = rules.check_set(written, setRules.jokers_per_set, setRules.run_wraps_around ? 1 : 0);
  if (verdict === UNREADABLE || VERDICTS[verdict] === undefined) throw new Error(`the rules module cannot read the set [${text}] (verdict ${verdict})`);
  const tiles = rules.last_tile_count();
  // (the memory may have grown during the check: a fresh view of it)
  const order = [...new Uint8Array(rules.memory.buffer, rules.order_buffer(), tiles)];
  return { verdict: VERDICTS[verdict], tiles, jokers: rules.last_joker_count(), value: rules.last_value(), order };
}

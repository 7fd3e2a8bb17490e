// Typed client for the rumi server API (docs/server-api.md).

export type Cell = [number, number, number];

export interface Seat {
  seat: number;
  name: string | null;
  kind: "human" | "bot";
  bot: string | null;
  claimed: boolean;
  connected: boolean;
}

export interface GameResult {
  winners: number[];
  scores: number[];
  text: string;
}

export interface RumisScenario {
  key: string;
  name: string;
  width: number;
  depth: number;
  /** limits[y][x]: height limit of column (x, y); 0 = outside the footprint. */
  limits: number[][];
  regions?: string[][];
}

export interface RumisCube {
  x: number;
  y: number;
  z: number;
  colour: string;
  stone: number;
}

export interface RumisColour {
  colour: string;
  owner: number | null;
  out: boolean;
  supply: string[];
  score: number;
}

export interface Placement {
  stone: string;
  cells: Cell[];
}

export interface RumisView {
  scenario: RumisScenario;
  players: number;
  variant: string;
  cubes: RumisCube[];
  colours: RumisColour[];
  to_move_colour: string | null;
  /** Only in a connection's first view (and HTTP views): it never changes. */
  stones?: Record<string, Cell[][]>;
  legal?: Placement[] | null;
  history: string[];
}

export interface RummikubRules {
  name: string;
  initial_meld: number;
  turn_seconds: number | null;
  jokers_per_set: number;
  run_wraps_around: boolean;
  frozen_joker_sets: boolean;
}

export interface RoundOver {
  winners: number[];
  scores: number[];
  reason: string;
}

export interface RummikubView {
  rules: RummikubRules;
  rack?: string[] | null;
  rack_sizes: number[];
  melded: boolean[];
  pool_size: number;
  table: string[][];
  round: number;
  rounds: number;
  totals: number[];
  round_over: RoundOver | null;
  can_claim_redeal: boolean;
  last: string | null;
}

export interface TableView {
  id: string;
  game: "rumis" | "rummikub";
  version: number;
  you: number | null;
  seats: Seat[];
  to_move: number | null;
  over: boolean;
  deadline_ms: number | null;
  result: GameResult | null;
  rumis?: RumisView;
  rummikub?: RummikubView;
}

export interface ScenarioMeta {
  key: string;
  name: string;
  players: number[];
  variants: string[];
}

export interface PresetMeta {
  name: string;
  turn_seconds?: number | null;
}

export interface Meta {
  scenarios: ScenarioMeta[];
  presets: PresetMeta[];
  rumisBots: string[];
  rummikubBots: string[];
}

export interface SeatRequest {
  kind: "human" | "bot";
  name?: string;
  bot?: string;
}

export interface CreateRequest {
  game: "rumis" | "rummikub";
  rumis?: { scenario: string; players: number; variant: string };
  rummikub?: { rules: string; turn_seconds?: number | null; rounds: number };
  seats: SeatRequest[];
  seed?: number;
}

export interface CreatedSeat {
  seat: number;
  kind: string;
  token?: string | null;
  invite?: string | null;
}

export interface Created {
  id: string;
  spectator: string;
  seats: CreatedSeat[];
}

export interface OpenTable {
  id: string;
  game: string;
  seats: Partial<Seat>[];
  /** Seats nobody has claimed yet. */
  open_seats?: number[];
  detail?: string;
  description?: string;
}

export type RumisAction = { move: string } | Placement;
export type RummikubAction =
  | { type: "play"; table: string[][] }
  | { type: "draw" }
  | { type: "redeal" }
  | { type: "next_round" };
export type Action = RumisAction | RummikubAction;

/** The solver's best play for a Rummikub seat (`GET /api/tables/{id}/hint`). */
export interface HintPlay {
  placed: string[];
  table: string[][];
  tiles: number;
  value: number;
  changed_sets: number;
}

/** An error answered by the server: its status and its message for a person. */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown, token?: string | null): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `cannot reach the server (${(e as Error).message})`);
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const message =
      json && typeof json === "object" && "error" in json
        ? String((json as { error: unknown }).error)
        : `${response.status} ${response.statusText}${text ? ": " + text.slice(0, 200) : ""}`;
    throw new ApiError(response.status, message);
  }
  return json as T;
}

function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((b) => (typeof b === "string" ? b : b && typeof b === "object" ? String((b as { name?: unknown; key?: unknown }).name ?? (b as { key?: unknown }).key ?? "") : ""))
    .filter((s) => s !== "");
}

/** Reads `/api/meta`, accepting the few shapes a server may reasonably answer. */
export function normaliseMeta(raw: unknown): Meta {
  const m = (raw ?? {}) as Record<string, unknown>;
  const scenarios: ScenarioMeta[] = (Array.isArray(m.scenarios) ? m.scenarios : []).map((s: Record<string, unknown>) => ({
    key: String(s.key),
    name: String(s.name ?? s.key),
    players: (Array.isArray(s.players) ? s.players : Array.isArray(s.player_counts) ? s.player_counts : [2, 3, 4]).map(Number),
    variants: names(s.variants).length ? names(s.variants) : ["standard"],
  }));
  const rk = (m.rummikub ?? {}) as Record<string, unknown>;
  const rawPresets = (Array.isArray(rk.presets) ? rk.presets : Array.isArray(m.rummikub_presets) ? m.rummikub_presets : Array.isArray(m.presets) ? m.presets : []) as unknown[];
  const presets: PresetMeta[] = rawPresets.map((p) =>
    typeof p === "string" ? { name: p } : { name: String((p as PresetMeta).name), turn_seconds: (p as PresetMeta).turn_seconds },
  );
  let rumisBots: string[] = [];
  let rummikubBots: string[] = [];
  if (Array.isArray(m.bots)) {
    rumisBots = names(m.bots);
    rummikubBots = names(m.bots);
  } else if (m.bots && typeof m.bots === "object") {
    const b = m.bots as Record<string, unknown>;
    rumisBots = names(b.rumis);
    rummikubBots = names(b.rummikub);
  }
  if (Array.isArray(rk.bots)) rummikubBots = names(rk.bots);
  const rumis = (m.rumis ?? {}) as Record<string, unknown>;
  if (Array.isArray(rumis.bots)) rumisBots = names(rumis.bots);
  if (Array.isArray(rumis.scenarios) && scenarios.length === 0) {
    // The server's shape: {"rumis": {"scenarios", "variants", "bots"}, "rummikub": {"presets", "bots"}}.
    const variants = names(rumis.variants);
    const scen = (rumis.scenarios as Record<string, unknown>[]).map((s) => ({ ...s, variants: s.variants ?? variants }));
    return normaliseMeta({ ...m, scenarios: scen });
  }
  return {
    scenarios,
    presets: presets.length ? presets : [{ name: "current" }, { name: "old" }],
    rumisBots: rumisBots.length ? rumisBots : ["random", "greedy"],
    rummikubBots: rummikubBots.length ? rummikubBots : ["random"],
  };
}

export const api = {
  meta: async (): Promise<Meta> => normaliseMeta(await call<unknown>("GET", "/api/meta")),
  openTables: async (): Promise<OpenTable[]> => {
    const raw = await call<unknown>("GET", "/api/tables");
    const list = Array.isArray(raw) ? raw : ((raw as { tables?: unknown[] })?.tables ?? []);
    return list as OpenTable[];
  },
  create: (req: CreateRequest) => call<Created>("POST", "/api/tables", req),
  view: (id: string, token: string | null) => call<TableView>("GET", `/api/tables/${enc(id)}`, undefined, token),
  join: (id: string, name: string) => call<{ seat: number; token: string }>("POST", `/api/tables/${enc(id)}/join`, { name }),
  act: (id: string, token: string | null, version: number, action: Action) =>
    call<unknown>("POST", `/api/tables/${enc(id)}/actions`, { version, action }, token),
  check: (id: string, token: string | null, placement: Placement) =>
    call<{ legal: boolean; reason?: string | null }>("POST", `/api/tables/${enc(id)}/check`, placement, token),
  seatToBot: (id: string, token: string | null, seat: number, bot: string) =>
    call<unknown>("POST", `/api/tables/${enc(id)}/seats/${seat}/bot`, { bot }, token),
  hint: (id: string, token: string | null, objective: "tiles" | "value" = "tiles") =>
    call<{ play: HintPlay | null }>("GET", `/api/tables/${enc(id)}/hint?objective=${objective}`, undefined, token),
  replay: (id: string) => call<{ steps: TableView[]; record?: string }>("GET", `/api/tables/${enc(id)}/replay`),
};

function enc(s: string): string {
  return encodeURIComponent(s);
}

export type ConnectionState = "connecting" | "open" | "closed";

/**
 * A live connection to a table: the WebSocket with reconnect and backoff. Every `state`
 * message replaces the whole view, so a reconnect restores everything.
 */
export class TableSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private stopped = false;
  private timer: number | null = null;

  constructor(
    private id: string,
    private token: string | null,
    private onView: (view: TableView) => void,
    private onError: (message: string) => void,
    private onState: (state: ConnectionState) => void,
  ) {
    this.open();
  }

  private url(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/api/tables/${enc(this.id)}/ws${q}`;
  }

  private open(): void {
    if (this.stopped) return;
    this.onState("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.onState("open");
    };
    ws.onmessage = (event) => {
      let msg: { type?: string; view?: TableView; message?: string; error?: string };
      try {
        msg = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (msg.type === "state" && msg.view) this.onView(msg.view);
      else if (msg.type === "error") this.onError(msg.message ?? msg.error ?? "refused");
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.onState("closed");
      if (this.stopped) return;
      // Backoff: 0.5 s, 1 s, 2 s, … up to 10 s.
      const delay = Math.min(10_000, 500 * 2 ** this.attempt);
      this.attempt += 1;
      this.timer = window.setTimeout(() => this.open(), delay);
    };
  }

  /** Sends an action on the socket; false if it is not open (then use HTTP). */
  send(version: number, action: Action): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "action", version, action }));
    return true;
  }

  close(): void {
    this.stopped = true;
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.ws?.close();
  }
}

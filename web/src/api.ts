// Typed client for the rumi server API (docs/server-api.md).

export type Cell = [number, number, number];

/** A seat's kind: `human` is invited (only its link's holder may take it), `open` is for
 * anyone joining from the lobby, `bot` plays by itself. */
export type SeatKind = "human" | "open" | "bot";

export interface Seat {
  seat: number;
  name: string | null;
  kind: SeatKind;
  bot: string | null;
  claimed: boolean;
  connected: boolean;
  /** Server clock (Unix ms) since when the player is away (no socket, no request). */
  away_since_ms?: number | null;
  /** Server clock (Unix ms) from when others may hand this seat to a bot; null: never. */
  handover_ms?: number | null;
}

/** The fairness commitment: SHA-256 of `rumi-seed:{seed}:{salt}`, revealed when over. */
export interface Fairness {
  commitment: string;
  practice_seed: number | null;
  seed: number | null;
  salt: string | null;
}

export type TableStatus = "waiting" | "playing" | "over";

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
  /** `waiting` until every human seat is taken (no clock, no moves). */
  status?: TableStatus;
  /** The seats still to be taken while waiting. */
  waiting_for?: number[];
  fairness?: Fairness;
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
  kind: SeatKind;
  name?: string;
  bot?: string;
}

export interface CreateRequest {
  game: "rumis" | "rummikub";
  rumis?: { scenario: string; players: number; variant: string };
  rummikub?: { rules: string; turn_seconds?: number | null; rounds: number };
  seats: SeatRequest[];
  /** The creator's own seat (a `human` one), theirs at creation. */
  creator_seat?: number;
  /** Only when every other seat is a bot ("practice"). */
  seed?: number;
}

export interface CreatedSeat {
  seat: number;
  name?: string | null;
  kind: SeatKind;
  /** The invite link `/t/ID#token=…` of an invited seat other than the creator's. */
  invite?: string | null;
}

export interface YourSeat {
  seat: number;
  token: string;
  url: string;
}

export interface Created {
  id: string;
  spectator: string;
  you: YourSeat | null;
  seats: CreatedSeat[];
  commitment?: string;
  practice_seed?: number | null;
}

export interface Joined {
  seat: number;
  token: string;
  name?: string | null;
  url?: string;
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

/** An error answered by the server: its status, its message for a person and its code. */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public code: string | null = null,
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
    const body = json && typeof json === "object" ? (json as { error?: unknown; code?: unknown }) : null;
    const message =
      body && "error" in body ? String(body.error) : `${response.status} ${response.statusText}${text ? ": " + text.slice(0, 200) : ""}`;
    throw new ApiError(response.status, message, body && typeof body.code === "string" ? body.code : null);
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
  join: (id: string, name: string, seat?: number) =>
    call<Joined>("POST", `/api/tables/${enc(id)}/join`, seat === undefined ? { name } : { name, seat }),
  act: (id: string, token: string | null, version: number, action: Action) =>
    call<unknown>("POST", `/api/tables/${enc(id)}/actions`, { version, action }, token),
  check: (id: string, token: string | null, placement: Placement) =>
    call<{ legal: boolean; reason?: string | null }>("POST", `/api/tables/${enc(id)}/check`, placement, token),
  seatToBot: (id: string, token: string | null, seat: number, bot: string) =>
    call<unknown>("POST", `/api/tables/${enc(id)}/seats/${seat}/bot`, { bot }, token),
  /** Takes your own seat back from the bot it was handed to. */
  takeBack: (id: string, token: string | null, seat: number) => call<unknown>("DELETE", `/api/tables/${enc(id)}/seats/${seat}/bot`, undefined, token),
  hint: (id: string, token: string | null, objective: "tiles" | "value" = "tiles") =>
    call<{ play: HintPlay | null }>("GET", `/api/tables/${enc(id)}/hint?objective=${objective}`, undefined, token),
  replay: (id: string) => call<{ steps: TableView[]; record?: string; fairness?: Fairness }>("GET", `/api/tables/${enc(id)}/replay`),
};

function enc(s: string): string {
  return encodeURIComponent(s);
}

// ---- seat tokens: kept in sessionStorage, never in an address --------------------

const tokenKey = (id: string) => `rumi-token-${id}`;
const invitesKey = (id: string) => `rumi-invites-${id}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** This tab's seat token for a table (from its invite link, creation or joining). */
export function storedToken(id: string): string | null {
  return storage()?.getItem(tokenKey(id)) ?? null;
}

export function storeToken(id: string, token: string): void {
  storage()?.setItem(tokenKey(id), token);
}

export function forgetToken(id: string): void {
  storage()?.removeItem(tokenKey(id));
}

/** The invite links the creator got at creation, to show while the table waits. */
export interface StoredInvite {
  seat: number;
  name?: string | null;
  invite: string;
}

export function storeInvites(id: string, invites: StoredInvite[]): void {
  storage()?.setItem(invitesKey(id), JSON.stringify(invites));
}

export function storedInvites(id: string): StoredInvite[] {
  try {
    const list = JSON.parse(storage()?.getItem(invitesKey(id)) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The token in a link's fragment (`#token=…`), or null. */
export function fragmentToken(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return params.get("token");
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
    private onError: (message: string, code: string | null) => void,
    private onState: (state: ConnectionState) => void,
  ) {
    this.open();
  }

  /** No token in the URL: it goes in the first message, `hello`. */
  private url(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/api/tables/${enc(this.id)}/ws`;
  }

  private open(): void {
    if (this.stopped) return;
    this.onState("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
      this.attempt = 0;
      this.onState("open");
    };
    ws.onmessage = (event) => {
      let msg: { type?: string; view?: TableView; message?: string; error?: string; code?: string };
      try {
        msg = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (msg.type === "state" && msg.view) this.onView(msg.view);
      else if (msg.type === "error") this.onError(msg.message ?? msg.error ?? "refused", msg.code ?? null);
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

/** The table's status (a view without one is an older server's: playing or over). */
export function statusOf(v: TableView): TableStatus {
  return v.status ?? (v.over ? "over" : "playing");
}

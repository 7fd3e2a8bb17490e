// Typed client for the rumi server API (docs/server-api.md). The wire types are generated
// from the server's (crates/server/src/wire/) into src/generated/api.ts.
import { applyPatch } from "fast-json-patch";
import type {
  BotMeta,
  CheckResult,
  ClaimRequest,
  CreateTableRequest,
  CreateTableResponse,
  GameAction,
  HintAnswer,
  JoinRequest,
  LobbyTable,
  LobbyTables,
  Meta,
  ReplayAnswer,
  RummikubSettings,
  SeatGrant,
  ServerMessage,
  TableStatus,
  TableView as WireTableView,
  Tutorial,
  TutorialCheck,
  PlacementView,
  Reason,
  RumisView,
  RummikubView,
} from "./generated/api";

export type {
  BotMeta,
  RatingPool,
  CheckResult,
  CreatedSeat,
  CreateTableResponse,
  Fairness,
  GameAction as Action,
  HintPlay,
  LobbyTable,
  Meta,
  PlacementView as Placement,
  RulesView as RummikubRules,
  RummikubView,
  RumisView,
  ScenarioMeta,
  ScenarioView as RumisScenario,
  CubeView as RumisCube,
  ColourView as RumisColour,
  SeatKind,
  SeatRequest,
  SeatView as Seat,
  TableStatus,
  Reason,
  Event,
  ErrorCode,
  RefusalCode,
  RumisSuggestion,
  Tutorial,
  TutorialCheck,
  TutorialStep,
  TutorialKey,
} from "./generated/api";

/** A table as one seat sees it. The wire type carries exactly one game's part
 * (`rumis` or `rummikub`, as `game` says); here both may be asked for, the other
 * game's being `undefined`. */
export type TableView = WireTableView & { rumis?: RumisView; rummikub?: RummikubView };

export type Cell = [number, number, number];

/** A create request as sent: `turn_seconds: null` switches the clock off (K7). */
export type CreateRequest = Omit<CreateTableRequest, "rummikub"> & {
  rummikub?: Omit<RummikubSettings, "turn_seconds"> & { turn_seconds?: number | null };
};

/** An error answered by the server: its status, its message for a person and its code. */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public code: string | null = null,
    /** For a move the rules refuse: the reason as a key with parameters. */
    public why: Reason | null = null,
  ) {
    super(message);
  }
}

/** A request to the API: JSON in and out, the session cookie with it (same origin),
 * an error answer as an ApiError with its code. */
export async function call<T>(method: string, path: string, body?: unknown, token?: string | null): Promise<T> {
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
    const body = json && typeof json === "object" ? (json as { error?: unknown; code?: unknown; why?: Reason }) : null;
    const message =
      body && "error" in body ? String(body.error) : `${response.status} ${response.statusText}${text ? ": " + text.slice(0, 200) : ""}`;
    throw new ApiError(response.status, message, body && typeof body.code === "string" ? body.code : null, body?.why ?? null);
  }
  return json as T;
}

export const api = {
  meta: () => call<Meta>("GET", "/api/meta"),
  openTables: async (): Promise<LobbyTable[]> => (await call<LobbyTables>("GET", "/api/tables")).tables,
  create: (req: CreateRequest) => call<CreateTableResponse>("POST", "/api/tables", req),
  view: (id: string, token: string | null) => call<TableView>("GET", `/api/tables/${enc(id)}`, undefined, token),
  join: (id: string, name: string, seat?: number) => {
    const body: JoinRequest = seat === undefined ? { name } : { name, seat };
    return call<SeatGrant>("POST", `/api/tables/${enc(id)}/join`, body);
  },
  /** Takes an invited seat with its invite link's token: answers the seat's own, new
   * token (the link is spent; a second use says `seat_taken`). */
  claim: (id: string, invite: string, name?: string) => {
    const body: ClaimRequest = name === undefined ? {} : { name };
    return call<SeatGrant>("POST", `/api/tables/${enc(id)}/claim`, body, invite);
  },
  act: (id: string, token: string | null, version: number, action: GameAction) =>
    call<TableView>("POST", `/api/tables/${enc(id)}/actions`, { version, action }, token),
  check: (id: string, token: string | null, placement: PlacementView) =>
    call<CheckResult>("POST", `/api/tables/${enc(id)}/check`, placing(placement), token),
  seatToBot: (id: string, token: string | null, seat: number, bot: string) =>
    call<unknown>("POST", `/api/tables/${enc(id)}/seats/${seat}/bot`, { bot }, token),
  /** Takes your own seat back from the bot it was handed to. */
  takeBack: (id: string, token: string | null, seat: number) => call<unknown>("DELETE", `/api/tables/${enc(id)}/seats/${seat}/bot`, undefined, token),
  hint: (id: string, token: string | null, objective: "tiles" | "value" = "tiles") =>
    call<HintAnswer>("GET", `/api/tables/${enc(id)}/hint?objective=${objective}`, undefined, token),
  /** Rumis: the strongest bot's best three moves with win chances (on your turn). */
  rumisHint: (id: string, token: string | null) => call<HintAnswer>("GET", `/api/tables/${enc(id)}/hint`, undefined, token),
  /** Renames your own seat. */
  rename: (id: string, token: string | null, seat: number, name: string) => call<unknown>("POST", `/api/tables/${enc(id)}/seats/${seat}/name`, { name }, token),
  replay: (id: string) => call<ReplayAnswer>("GET", `/api/tables/${enc(id)}/replay`),
  /** A finished table's rematch with your seat token there: made on the first request,
   * answers your own seat at the new table (`you`). */
  rematch: (id: string, token: string | null) => call<CreateTableResponse>("POST", `/api/tables/${enc(id)}/rematch`, {}, token),
  /** A game's tutorial, and the engine's answer to a move on one of its steps. */
  tutorial: (game: string) => call<Tutorial>("GET", `/api/tutorial/${enc(game)}`),
  tutorialCheck: (game: string, step: number, action: GameAction) => call<TutorialCheck>("POST", `/api/tutorial/${enc(game)}/${step}/check`, action),
};

/** Joins an open seat under the typed name, or with none as `guest` ("Guest"), and if a
 * guest sits there already, under the server's own default name (names at a table
 * must differ). */
export async function joinAs(id: string, typed: string, guest: string): Promise<SeatGrant> {
  if (typed) return api.join(id, typed);
  try {
    return await api.join(id, guest);
  } catch (e) {
    if (e instanceof ApiError && e.code === "name_taken") return call<SeatGrant>("POST", `/api/tables/${enc(id)}/join`, {});
    throw e;
  }
}

/** The bots a game offers (names for seat requests, with level and description): the
 * server's registry from `/api/meta`, none until it has arrived. */
/** The action that places a Rumis placement (a legal one of the view's, or the board's). */
export function placing(placement: PlacementView): GameAction {
  return { type: "rumis_place", stone: placement.stone, cells: placement.cells };
}

export function botsOf(meta: Meta | null, game: string): BotMeta[] {
  return meta ? (game === "rumis" ? meta.rumis.bots : meta.rummikub.bots) : [];
}

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

/** This tab's seat token for a table (from taking an invited seat, creation, joining,
 * or a seat's own link). */
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

/** How long an action sent on the socket waits for its ack before it goes by HTTP. */
const ACK_TIMEOUT_MS = 8000;

/** An action sent on the socket, waiting for its `ack` or `error` (by its id). */
interface PendingAction {
  version: number;
  action: GameAction;
  resolve: (view: TableView | null) => void;
  reject: (e: unknown) => void;
  timer: number;
}

/**
 * A live connection to a table: the WebSocket with reconnect and backoff. The first
 * message after hello (and after a reconnect) is the whole view; later ones are patches
 * (RFC 6902) to the view it holds, applied only when they start from exactly that view
 * (`from`, `from_seq`); otherwise, or when one does not apply, it asks for the whole
 * view again (`resync`). Actions go on the socket with an id and are settled by the
 * server's `ack` or `error` with that id.
 */
export class TableSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private stopped = false;
  private timer: number | null = null;
  /** The view as the server sent it (patches apply to it) and its change `seq`. */
  private held: { view: TableView; seq: number } | null = null;
  private nextId = 1;
  private pending = new Map<number, PendingAction>();

  constructor(
    private id: string,
    private token: string | null,
    private onView: (view: TableView) => void,
    private onError: (message: string, code: string | null, why: Reason | null) => void,
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
    this.held = null;
    ws.onopen = () => {
      ws.send(JSON.stringify(this.token ? { type: "hello", token: this.token, patches: true } : { type: "hello", patches: true }));
      this.attempt = 0;
      this.onState("open");
    };
    ws.onmessage = (event) => {
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (msg.type === "state" && msg.view) this.hold(msg.view, msg.seq);
      else if (msg.type === "patch") this.patch(ws, msg);
      else if (msg.type === "ack") this.settle(msg.id)?.resolve(null);
      else if (msg.type === "error") {
        const waiting = msg.id === undefined ? undefined : this.settle(msg.id);
        if (waiting) waiting.reject(new ApiError(409, msg.message ?? "refused", msg.code ?? null, msg.why ?? null));
        else this.onError(msg.message ?? "refused", msg.code ?? null, msg.why ?? null);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.held = null;
      // Whether they were stored is unknown: HTTP asks again at the same version,
      // which the server refuses if the socket's copy was stored.
      for (const id of [...this.pending.keys()]) this.overHttp(id);
      this.onState("closed");
      if (this.stopped) return;
      // Backoff: 0.5 s, 1 s, 2 s, … up to 10 s.
      const delay = Math.min(10_000, 500 * 2 ** this.attempt);
      this.attempt += 1;
      this.timer = window.setTimeout(() => this.open(), delay);
    };
  }

  /** Keeps the server's view as sent and shows a copy (the page may change its own). */
  private hold(view: TableView, seq: number): void {
    this.held = { view, seq };
    this.onView(structuredClone(view));
  }

  private patch(ws: WebSocket, msg: Extract<ServerMessage, { type: "patch" }>): void {
    const held = this.held;
    if (held && held.view.version === msg.from && held.seq === msg.from_seq) {
      try {
        const next = applyPatch(held.view, msg.ops, true, false).newDocument;
        if (next.version === msg.version) return this.hold(next, msg.seq);
      } catch {
        // A patch that does not apply: the whole view again, below.
      }
    }
    this.held = null;
    ws.send(JSON.stringify({ type: "resync" }));
  }

  /** The pending action with `id`, no longer pending. */
  private settle(id: number): PendingAction | undefined {
    const waiting = this.pending.get(id);
    if (!waiting) return undefined;
    this.pending.delete(id);
    window.clearTimeout(waiting.timer);
    return waiting;
  }

  /** Sends a pending action by HTTP instead (no ack in time, or the socket closed). */
  private overHttp(id: number): void {
    const waiting = this.settle(id);
    if (waiting) api.act(this.id, this.token, waiting.version, waiting.action).then(waiting.resolve, waiting.reject);
  }

  /** Acts at `version`: on the socket when it is open, else (or with no answer in
   * time) by HTTP. Resolves once the action is stored: with no view when the socket
   * brought it (before its ack), with the HTTP answer's view otherwise; rejects with
   * the server's refusal as an ApiError. */
  act(version: number, action: GameAction): Promise<TableView | null> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || !this.held) return api.act(this.id, this.token, version, action);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = window.setTimeout(() => this.overHttp(id), ACK_TIMEOUT_MS);
      this.pending.set(id, { version, action, resolve, reject, timer });
      ws.send(JSON.stringify({ type: "action", id, version, action }));
    });
  }

  close(): void {
    this.stopped = true;
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.ws?.close();
  }
}

/** The table's status (a view without one is an older server's: playing or over). */
export function statusOf(v: TableView): TableStatus {
  return v.status;
}

// ---- your tables: this tab's seats, kept in sessionStorage like their tokens ----------
// (localStorage would keep every seat's token for anyone who uses the browser later.)

export interface MyTable {
  id: string;
  game: string;
  seat: number;
  token: string;
  name?: string | null;
  at: number;
  /** For the table's title in the lobby: its board or rules, and its seats. */
  what?: { scenario?: string; rules?: string };
  seats?: { seat: number; name: string; kind: string; bot: string | null; claimed: boolean }[];
}

const MY_TABLES = "rumi.my-tables";

export function myTables(): MyTable[] {
  try {
    const list = JSON.parse(storage()?.getItem(MY_TABLES) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function rememberTable(entry: MyTable): void {
  try {
    const list = myTables().filter((m) => m.id !== entry.id);
    list.unshift(entry);
    storage()?.setItem(MY_TABLES, JSON.stringify(list.slice(0, 30)));
  } catch {
    /* no storage */
  }
}

export function forgetMyTable(id: string): void {
  try {
    storage()?.setItem(MY_TABLES, JSON.stringify(myTables().filter((m) => m.id !== id)));
  } catch {
    /* no storage */
  }
}

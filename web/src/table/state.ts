// The table page's state: the table's view, the seat token, the server's meta, the live
// socket and the page's timers, with one owner and one teardown. Every socket, timer and
// listener of the page registers with it (`onStop`, `every`, `after`, `signal`); `stop`
// ends them all at once, whether the page leaves for another seat, watches after a
// refused token or says the table is gone. The views (page.ts and its parts) draw from
// it and call its actions; it tells them through `TableEvents` when to draw again.
import { api, ApiError, TableSocket, type Action, type ConnectionState, type Meta, type Reason, type TableView } from "../api";
import { seatName } from "../dom";
import { setSeatNames } from "../i18n/server";
import { setBots } from "../names";

/** Codes of a seat token the server does not take: the page forgets it and watches. */
export const REFUSED_TOKEN = ["bad_token", "seat_taken", "claim_needed"];

/** What the state tells the page. */
export interface TableEvents {
  /** A newer view arrived (also the first one). */
  view(view: TableView): void;
  /** The server's meta arrived (the bots' names and levels). */
  meta(meta: Meta): void;
  /** A message for the person (a refusal, a reason). */
  error(message: string, code?: string | null, why?: Reason | null): void;
  clearError(): void;
  connection(state: ConnectionState): void;
  /** The server does not take the seat token: watch instead (the state has stopped). */
  refused(message: string, code: string): void;
  /** The table does not exist (the state has stopped). */
  gone(): void;
  /** The session holds a seat here (opened without a token): go on as that seat's
   * player (the state has stopped). */
  seated(token: string, seat: number | null, name: string | null): void;
  /** The first view could not be fetched. */
  failed(error: unknown): void;
}

export class TableState {
  view: TableView | null = null;
  meta: Meta | null = null;
  private socket: TableSocket | null = null;
  private stopped = false;
  private stops = new Set<() => void>();
  private aborts = new AbortController();

  constructor(
    readonly id: string,
    readonly token: string | null,
    private events: TableEvents,
  ) {}

  /** Fetches the meta and the view and opens the socket. */
  start(): void {
    this.loadMeta(0);
    this.socket = new TableSocket(
      this.id,
      this.token,
      (v) => this.accept(v, true),
      (message, code, why) => (this.token && code && REFUSED_TOKEN.includes(code) ? this.refuse(message, code) : code === "no_table" ? this.disappear() : this.events.error(message, code, why)),
      (state) => this.events.connection(state),
    );
    const socket = this.socket;
    this.onStop(() => socket.close());
    void this.refresh();
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** Aborted when the state stops: for the page's event listeners. */
  get signal(): AbortSignal {
    return this.aborts.signal;
  }

  /** Runs `end` when the state stops (at once if it has); returns a function that
   * forgets it (a timer that has run). */
  onStop(end: () => void): () => void {
    if (this.stopped) {
      end();
      return () => {};
    }
    this.stops.add(end);
    return () => this.stops.delete(end);
  }

  /** A timer every `ms`, cleared when the state stops. */
  every(ms: number, tick: () => void): void {
    const timer = window.setInterval(tick, ms);
    this.onStop(() => window.clearInterval(timer));
  }

  /** A timer once after `ms`, cleared when the state stops; returns a cancel. */
  after(ms: number, run: () => void): () => void {
    let forget = () => {};
    const timer = window.setTimeout(() => {
      forget();
      run();
    }, ms);
    forget = this.onStop(() => window.clearTimeout(timer));
    return () => {
      window.clearTimeout(timer);
      forget();
    };
  }

  /** The one teardown: the socket, the timers, the listeners and whatever the views
   * registered end here, once. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.aborts.abort();
    const ends = [...this.stops].reverse();
    this.stops.clear();
    for (const end of ends) end();
  }

  /** The bots to hand a seat to come from the server's meta. It may arrive after the
   * last view (a table waiting on my move sends no more), so the page draws the seats
   * again then; a failed fetch is tried again, a little later each time. */
  private loadMeta(attempt: number): void {
    api
      .meta()
      .then((m) => {
        if (this.stopped) return;
        this.meta = m;
        setBots(m);
        if (this.view) setSeatNames(this.view.seats.map(seatName));
        this.events.meta(m);
      })
      .catch(() => {
        if (attempt < 5) this.after(1000 * 2 ** attempt, () => this.loadMeta(attempt + 1));
      });
  }

  /** Sends an action made on the shown view; resolves true if the server accepted it. */
  async act(action: Action): Promise<boolean> {
    if (!this.view) return false;
    try {
      // On the socket, the new view arrives before the ack; by HTTP, in its answer.
      const version = this.view.version;
      const answer = this.socket ? await this.socket.act(version, action) : await api.act(this.id, this.token, version, action);
      this.events.clearError();
      if (answer) this.accept(answer, false);
      return true;
    } catch (e) {
      this.showError(e);
      return false;
    }
  }

  showError(e: unknown): void {
    if (e instanceof ApiError) this.events.error(e.message, e.code, e.why);
    else this.events.error(e instanceof Error ? e.message : String(e));
  }

  /** A newer view replaces the shown one; at the same version the socket's wins (it also
   * says who is connected as of the last change, where an HTTP answer may be older). */
  private accept(next: TableView, fromSocket: boolean): void {
    if (this.stopped) return;
    // Opened without a token, the account's seat found by the session: keep its token
    // like one from a link and go on as that seat's player (the socket needs the token).
    if (!this.token && next.seat_token) {
      this.stop();
      return this.events.seated(next.seat_token, next.you, next.seats[next.you ?? -1]?.name ?? null);
    }
    const view = this.view;
    if (view && (next.version < view.version || (next.version === view.version && !fromSocket))) return;
    // The stones' orientations come in the first views only: keep them, so that a game
    // view made after later views (the Rumis chunk loads meanwhile) still has them.
    if (next.rumis && !next.rumis.stones && view?.rumis?.stones) next.rumis.stones = view.rumis.stones;
    this.view = next;
    setSeatNames(next.seats.map(seatName));
    this.events.view(next);
  }

  /** Fetches the view (after an action of the page's, or to start). */
  async refresh(): Promise<void> {
    if (this.stopped) return;
    try {
      this.accept(await api.view(this.id, this.token), false);
    } catch (e) {
      if (this.stopped) return;
      if (this.token && e instanceof ApiError && e.code && REFUSED_TOKEN.includes(e.code)) return this.refuse(e.message, e.code);
      if (e instanceof ApiError && (e.status === 404 || e.code === "no_table")) return this.disappear();
      if (!this.view) this.events.failed(e);
    }
  }

  private refuse(message: string, code: string): void {
    if (this.stopped) return;
    this.stop();
    this.events.refused(message, code);
  }

  private disappear(): void {
    if (this.stopped) return;
    this.stop();
    this.events.gone();
  }
}

/** What the page's views may ask of the page: the state to draw from, and its actions. */
export interface TablePage {
  readonly state: TableState;
  /** Draws the page again from the state's view. */
  render(): void;
  showError(e: unknown): void;
  clearError(): void;
}

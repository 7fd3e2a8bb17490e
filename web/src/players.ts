// Players who come back: the signed-in account (asked once per page), profiles,
// leaderboards, "my games", and this tab's guest seats handed to the account on sign-up
// or sign-in. The session is an HttpOnly cookie: fetch sends it on same-site requests.
import type { AccountView, AdoptedSeats, GuestSeat, Leaderboard, MyGames, RatingPool, UserProfile } from "./generated/api";
import { ApiError, call, myTables } from "./api";
import { h } from "./dom";
import { lang, t } from "./i18n/i18n";

export const POOLS: RatingPool[] = ["rumis_two", "rumis_multi", "rummikub"];

const enc = encodeURIComponent;

export const players = {
  profile: (name: string) => call<UserProfile>("GET", `/api/users/${enc(name)}`),
  leaderboard: (pool: RatingPool) => call<Leaderboard>("GET", `/api/leaderboard/${enc(pool)}`),
  myGames: () => call<MyGames>("GET", "/api/me/games"),
  adoptSeats: (seats: GuestSeat[]) => call<AdoptedSeats>("POST", "/api/me/seats", { seats }),
  /** Takes the seat kept for the signed-in account (no token: the session says who). */
  takeSeat: (id: string) => call<{ seat: number; name: string; token: string }>("POST", `/api/tables/${enc(id)}/claim`, {}),
};

let meOnce: Promise<AccountView | null> | null = null;

/** The signed-in account, or null for a guest (asked once per page; a failure counts as a guest). */
export function signedIn(): Promise<AccountView | null> {
  meOnce ??= call<AccountView>("GET", "/api/me").catch((e) => {
    if (!(e instanceof ApiError) || e.status !== 401) console.warn("GET /api/me:", e);
    return null;
  });
  return meOnce;
}

/** Forgets the asked account (after signing in or out). */
export function forgetSignedIn(): void {
  meOnce = null;
}

/** Account names are one name in any case ("Ana" is "ana"). */
export function sameName(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/** The seats this tab holds as a guest: every stored seat token (sessionStorage). */
export function guestSeats(): GuestSeat[] {
  const seen = new Map<string, GuestSeat>();
  const add = (table: string, token: string) => {
    if (table && token) seen.set(`${table} ${token}`, { table, token });
  };
  try {
    const store = window.sessionStorage;
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i) ?? "";
      const m = key.match(/^rumi-token-(.+)$/);
      if (m) add(m[1], store.getItem(key) ?? "");
    }
  } catch {
    /* no storage */
  }
  for (const m of myTables()) add(m.id, m.token);
  // (the server takes at most 100 at once)
  return [...seen.values()].slice(0, 100);
}

/** Hands this tab's guest seats to the signed-in account; the tables it took. */
export async function bringGuestSeats(): Promise<string[]> {
  const seats = guestSeats();
  if (seats.length === 0) return [];
  return (await players.adoptSeats(seats)).tables;
}

/** A pool's name: "Rumis, two players". */
export function poolName(pool: RatingPool): string {
  return t(`pool.${pool}`);
}

/** A link to a player's profile. */
export function profileLink(name: string, testid?: string): HTMLAnchorElement {
  return h("a", { href: `/u/${enc(name)}`, className: "player-link", testid: testid ?? null }, name);
}

/** A date (and time) in the page's language. */
export function dateText(ms: number, withTime = false): string {
  const locale = lang() === "de" ? "de-DE" : "en-GB";
  return new Date(ms).toLocaleString(locale, withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" });
}

/** A rating change with its sign: "+12", "−8", "±0". */
export function signed(n: number): string {
  const r = Math.round(n);
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : "±0";
}

// Seats, invitations and hand-over:
// - seats: three browsers on a three-seat table: the creator's seat is theirs, the open
//   seats go to others (from the lobby and from the table page), a full table leaves the
//   lobby, the hand-over countdown once a player has gone.
// - waiting: an invited seat: the table waits, the invitee names themselves before
//   sitting down, tokens never in an address, the old link form, spent and unknown tokens.
// (handover: e2e/handover.spec.ts, on a server with slower bots)
import { test, expect } from "./fixtures";
import { createInLobby, errorText, joinFromLobby, log, recordRequests, sessionToken, shot, tid, waitAttr, waitText } from "./helpers";

const SHAPE = { viewport: { width: 1280, height: 860 } };

test("seats: the creator's seat is theirs, open seats go to others", async ({ open, base, api }) => {
  const A = await open({ ...SHAPE, name: "A" });
  // Ana takes seat 2 (not the first); seats 1 and 3 are open to anyone.
  const a = await createInLobby(A, base, { game: "rummikub", name: "Ana", seats: ["open", "human", "open"], mine: 1, noClock: true });
  expect(a.token, "the creator has a token").toBeTruthy();
  const va = await api("GET", `/api/tables/${a.id}`, undefined, a.token);
  expect(va.you, "the creator picked seat 2").toBe(1);
  expect([va.status, va.waiting_for], "status and the seats waited for").toEqual(["waiting", [0, 2]]);
  await expect(A.locator(tid("turn-status")), "waiting for seats 1 and 3").toHaveAttribute("data-waiting-for", "0,2");
  await expect(A.locator(tid("turn-status")), "what the creator sees").toHaveText("Waiting for Player 1, Player 3");
  await A.locator(tid("open-seat-0")).waitFor({ timeout: 5_000 });

  // Bo joins from the lobby: offered only the open seats, never the creator's.
  const B = await open({ ...SHAPE, name: "B" });
  const b = await joinFromLobby(B, base, a.id, "Bo");
  expect(b.offered, "the seats the lobby offered").toEqual([0, 2]);
  const vb = await api("GET", `/api/tables/${a.id}`, undefined, b.token);
  expect([0, 2], "Bo's seat").toContain(vb.you);
  expect(b.token, "Bo got the creator's token").not.toBe(a.token);
  const lobbyAgain = await open({ ...SHAPE, name: "lobby" });
  await lobbyAgain.goto(base + "/");
  await lobbyAgain.locator(tid(`join-${a.id}`)).waitFor({ timeout: 10_000 });
  await expect(lobbyAgain.locator(tid(`open-table-${a.id}`)), `after Bo took seat ${vb.you + 1} the lobby offers the other`).toHaveAttribute("data-open-seats", String(2 - vb.you));
  // The lobby says how long the seat has been open.
  const since = Number(await lobbyAgain.locator(tid(`open-table-${a.id}`)).getAttribute("data-open-since"));
  expect(since > 0 && since <= Date.now(), `the lobby line has no time the seat opened: ${since}`).toBe(true);
  await expect(lobbyAgain.locator(tid(`open-table-${a.id}`)), "the lobby line says how long the seat is open").toHaveText(/open seat \(open for (less than a minute|\d+ min)\)/);

  // Cy opens the table's address and takes the last open seat from the table page.
  const C = await open({ ...SHAPE, name: "C" });
  await C.goto(`${base}/t/${a.id}`);
  await C.locator(tid("join-table")).waitFor({ timeout: 10_000 });
  await C.fill(tid("join-name"), "Cy");
  await C.click(tid("join-table"));
  // The page reloads on the new seat (before, it watched).
  await expect(C.locator(tid("table-title")), "Cy on a seat").toHaveAttribute("data-you", /^\d$/);
  await expect(C.locator(tid("turn-status")), "playing once Cy sat down").toHaveAttribute("data-status", "playing");
  const c = await sessionToken(C, a.id);
  const vc = await api("GET", `/api/tables/${a.id}`, undefined, c);
  expect(vc.you, `Cy's seat (Bo has ${vb.you}, Ana 1)`).toBe(2 - vb.you);
  expect(new Set([a.token, b.token, c]).size, "two people share a token").toBe(3);
  for (const p of [A, B]) await expect(p.locator(tid("turn-status")), "playing").toHaveAttribute("data-status", "playing");
  expect(C.url(), "Cy's address").toBe(`${base}/t/${a.id}`);

  // The table is full: the lobby no longer lists it, and a join is refused with a code.
  await lobbyAgain.click(tid("refresh-tables"));
  await expect(lobbyAgain.locator(tid(`open-table-${a.id}`)), "a full table is still in the lobby").toHaveCount(0);
  const r = await fetch(`${base}/api/tables/${a.id}/join`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Dee" }) });
  const body = await r.json().catch(() => null);
  expect(r.status === 409 && body && typeof body.error === "string" && typeof body.code === "string", `joining a full table: ${r.status} ${JSON.stringify(body)}`).toBe(true);
  log(`seats: Ana 2 (hers from creation), Bo ${vb.you + 1} from the lobby, Cy ${vc.you + 1} from the table; a fourth join: ${body.code}`);

  // Hand to bot: Ana may hand her own seat, not a connected player's; once Bo has gone the
  // control counts down to when the server allows it.
  await expect(A.locator(tid("hand-bot-1")), "a hand-to-bot control for your own seat").toHaveCount(1);
  await expect(A.locator(tid(`hand-bot-${vb.you}`)), "a present player's seat may be handed to a bot").toHaveCount(0);
  await expect(A.locator(tid(`hand-bot-${vc.you}`)), "a present player's seat may be handed to a bot").toHaveCount(0);
  await shot(A, "seats.png");
  await B.close();
  const text = await waitText(A, `handover-${vb.you}`, (t) => /you may hand Bo's seat to a bot in \d+ s/.test(t), 15_000, "(countdown once Bo left)");
  const secs = Number(text.match(/in (\d+) s/)![1]);
  expect(secs > 0 && secs <= 60, `the hand-over countdown says ${secs} s`).toBe(true);
  await expect(A.locator(tid(`hand-bot-${vb.you}`)), "Bo's seat may be handed over before the server allows it").toHaveCount(0);
  log(`Bo left: "${text.trim()}"`);
  await shot(A, "seats-handover-countdown.png");
});

test("waiting: an invite link, a name before sitting down, no token in any address", async ({ open, base, api }) => {
  const A = await open({ ...SHAPE, name: "A" });
  const a = await createInLobby(A, base, { game: "rummikub", name: "Ana", seats: ["human", "human"], turnSeconds: 60 });
  await expect(A.locator(tid("turn-status")), "waiting for the invitee").toHaveAttribute("data-status", "waiting");
  await expect(A.locator(tid("turn-status")), "what the creator sees").toHaveText("Waiting for Player 2");
  await expect(A.locator(tid("rack"))).toHaveAttribute("data-count", "14");
  await expect(A.locator(tid("countdown")), "a clock runs while the table waits").toHaveAttribute("data-seconds", "");
  const v0 = await api("GET", `/api/tables/${a.id}`, undefined, a.token);
  expect([v0.status, v0.deadline_ms], "waiting table: status, deadline").toEqual(["waiting", null]);
  const refused = await fetch(`${base}/api/tables/${a.id}/actions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Seat-Token": a.token! },
    body: JSON.stringify({ version: v0.version, action: { type: "draw" } }),
  });
  const refusal = await refused.json().catch(() => null);
  expect(refused.status === 409 && !!refusal?.code, `an action while waiting: ${refused.status} ${JSON.stringify(refusal)}`).toBe(true);
  const invite = await A.locator(tid("invite-1")).inputValue();
  expect(invite, "the invite link").toMatch(/\/t\/[^/?#]+#token=[0-9a-zA-Z]+$/);
  const token = new URLSearchParams(new URL(invite).hash.slice(1)).get("token")!;
  await shot(A, "rummikub-waiting.png");

  // The invitee opens the link: the token leaves the address and no request carries it.
  const B = await open({ ...SHAPE, name: "B" });
  const sent = recordRequests(B);
  await B.goto(invite);
  // Asked for a name before sitting down (the seat is still "Player 2"); the others see it.
  await B.locator(tid("ask-name")).waitFor({ timeout: 10_000 });
  await expect(A.locator(tid("turn-status")), "the invitee sat down before saying a name").toHaveAttribute("data-status", "waiting");
  await shot(B, "invite-name.png");
  await B.fill(tid("ask-name-input"), "Bo");
  await B.click(tid("ask-name-sit"));
  await waitAttr(B, "turn-status", "data-version", (x) => x !== null, 10_000, "(the invitee's view)");
  await waitText(A, "seat-1", (t) => t.includes("Bo"), 10_000, "(the creator sees the invitee's name)");
  await waitText(B, "seat-1", (t) => t.includes("Bo"), 10_000, "(the invitee's own name)");
  log("the invitee named themselves Bo before sitting down");
  expect(B.url(), "the address after opening the invite").toBe(`${base}/t/${a.id}`);
  // Taking the seat spent the invite: the tab keeps the seat's new token, which the
  // creator never saw; the creator's copy of the link no longer opens the seat.
  const bToken = await sessionToken(B, a.id);
  expect(bToken, "the invitee's tab keeps a token").toBeTruthy();
  expect(bToken, "the invitee's tab keeps a new token of its own").not.toBe(token);
  const spent = await fetch(`${base}/api/tables/${a.id}`, { headers: { "X-Seat-Token": token } });
  const spentBody = await spent.json().catch(() => null);
  expect(spent.status === 409 && spentBody?.code === "seat_taken" && !spentBody.rummikub, `the spent invite still reads: ${spent.status} ${JSON.stringify(spentBody)}`).toBe(true);
  expect(await B.evaluate(() => location.href + document.referrer), "the token is still in the page's address").not.toContain(token);
  await expect(B.locator(tid("turn-status")), "playing once the invitee came").toHaveAttribute("data-status", "playing");
  await expect(B.locator(tid("table-title")), "the invitee is on seat 2").toHaveAttribute("data-you", "1");
  const seconds = Number(await waitAttr(A, "countdown", "data-seconds", (x) => !!x && Number(x) > 0, 10_000, "(the clock started)"));
  expect(seconds, "the clock of a 60 s turn").toBeLessThanOrEqual(60);
  const v1 = await api("GET", `/api/tables/${a.id}`, undefined, a.token);
  expect(v1.status === "playing" && v1.deadline_ms !== null, `started table: status ${v1.status}, deadline ${v1.deadline_ms}`).toBe(true);
  await B.reload();
  await waitAttr(B, "turn-status", "data-version", (x) => x !== null);
  await expect(B.locator(tid("table-title")), "after a reload the invitee keeps the seat").toHaveAttribute("data-you", "1");
  await expect(B.locator(tid("ask-name")), "a reload asks the name again").toHaveCount(0);
  // A player renames themselves; the others see it.
  await B.click(tid("rename-seat"));
  await B.fill(tid("rename-input"), "Bodo");
  await B.click(tid("rename-save"));
  await waitText(A, "seat-1", (t) => t.includes("Bodo"), 10_000, "(the creator sees the new name)");
  log("the invitee renamed themselves Bodo");
  expect(sent.length > 3 && sent.some((u) => u.includes("/ws")), `too few requests recorded (${sent.length})`).toBe(true);
  expect(sent.filter((u) => u.includes(token)), "requests carrying the token").toEqual([]);
  log(`invite: ${sent.length} requests, none with the token; the clock started at ${seconds} s`);
  await shot(A, "rummikub-started.png");

  // The old link form (?seat=&token=) gives no seat (a token is read from the fragment
  // only) and leaves the address.
  const D = await open({ ...SHAPE, name: "D" });
  await D.goto(`${base}/t/${a.id}?seat=1&token=${bToken}`);
  await waitAttr(D, "turn-status", "data-version", (x) => x !== null);
  expect(D.url(), "the old link form leaves the address").toBe(`${base}/t/${a.id}`);
  await waitText(D, "table-title", (t) => t.includes("(spectator)"), 10_000, "(the old link form only watches)");
  expect(await sessionToken(D, a.id), "the old link form's token was kept").toBeNull();
  // The spent invite link, opened again: the page says the seat is taken, and watches.
  await D.goto(`${base}/t/${a.id}#token=${token}`);
  await D.waitForURL(`${base}/t/${a.id}`);
  await waitText(D, "table-title", (t) => t.includes("(spectator)"), 10_000, "(watching after a spent invite)");
  expect((await errorText(D)) ?? "", "a word about the taken seat").toMatch(/this seat is taken/i);
  expect(await sessionToken(D, a.id), "the spent invite stayed in sessionStorage").toBeNull();
  // A token the server does not know: dropped, and the page watches, saying why.
  await D.goto(`${base}/t/${a.id}#token=${"0".repeat(32)}`);
  await D.waitForURL(`${base}/t/${a.id}`);
  await waitText(D, "table-title", (t) => t.includes("(spectator)"), 10_000, "(watching after a bad token)");
  expect((await errorText(D)) ?? "", "a word about the bad token").toMatch(/you are watching/);
  expect(await sessionToken(D, a.id), "the bad token stayed in sessionStorage").toBeNull();
});

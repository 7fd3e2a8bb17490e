// The account page (/account): sign up or in; signed in: sign out (here or everywhere),
// change the password, download one's data, delete the account; one's games on every
// device and a link to one's profile. Guests never need it: seat tokens keep working.
// Signing up or in hands this tab's guest seats to the account, so that a guest who
// signs up keeps their tables. The session is an HttpOnly cookie the page never sees.
import type { AccountData, AccountView, Credentials } from "./generated/api";
import { ApiError, call } from "./api";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { reason } from "./i18n/server";
import { bringGuestSeats, forgetSignedIn } from "./players";
import { myGamesSection } from "./my-games";
import { passkeysMissing, passkeysSection, signInWithPasskey } from "./passkeys";
import { blocksSection } from "./blocks";

export const accounts = {
  /** The signed-in account, or null for a guest. */
  me: async (): Promise<AccountView | null> => {
    try {
      return await call<AccountView>("GET", "/api/me");
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return null;
      throw e;
    }
  },
  signUp: (c: Credentials) => call<AccountView>("POST", "/api/accounts", c),
  signIn: (c: Credentials) => call<AccountView>("POST", "/api/session", c),
  signOut: () => call<null>("DELETE", "/api/session"),
  signOutEverywhere: () => call<null>("DELETE", "/api/sessions"),
  changePassword: (current: string, next: string, removePasskeys: boolean) => call<null>("POST", "/api/me/password", { current, new: next, remove_passkeys: removePasskeys }),
  remove: (password: string) => call<null>("DELETE", "/api/me", { password }),
  data: () => call<AccountData>("GET", "/api/me/data"),
};

/** A message line of fixed place: errors and confirmations appear without moving the form. */
function messageLine(testid: string): { el: HTMLElement; say: (text: string, ok?: boolean) => void } {
  const el = h("p", { className: "account-message", testid, role: "status", "aria-live": "polite" });
  return {
    el,
    say: (text, ok = false) => {
      el.textContent = text;
      el.classList.toggle("error", !ok && text !== "");
    },
  };
}

function errorText(e: unknown): string {
  if (e instanceof ApiError) return reason(e.message, e.code).text;
  return String(e);
}

function field(testid: string, label: string, type: string, autocomplete: string): { row: HTMLElement; input: HTMLInputElement } {
  const input = h("input", { testid, type, autocomplete, required: true, maxlength: type === "password" ? "256" : "20" });
  const row = h("label", { className: "account-field" }, h("span", {}, label), input);
  return { row, input };
}

/** The sign-up or sign-in form. */
function credentialsForm(kind: "up" | "in", done: (kept: number) => void): HTMLElement {
  const name = field(`sign-${kind}-name`, t("account.name"), "text", "username");
  const password = field(`sign-${kind}-password`, t("account.password"), "password", kind === "up" ? "new-password" : "current-password");
  const message = messageLine(`sign-${kind}-message`);
  const form = h(
    "form",
    { className: "card account-form", testid: `sign-${kind}-form` },
    h("h2", {}, t(kind === "up" ? "account.sign_up" : "account.sign_in")),
    name.row,
    password.row,
    kind === "up" ? h("p", { className: "hint" }, t("account.rules")) : null,
    h("button", { type: "submit", className: "primary", testid: `sign-${kind}-submit` }, t(kind === "up" ? "account.sign_up" : "account.sign_in")),
    message.el,
  );
  // Signed in by password or passkey: the same next steps.
  const signInWith = async (how: () => Promise<unknown>) => {
    message.say("");
    try {
      await how();
      forgetSignedIn();
      // The tables this tab sat at as a guest become the account's (a failure here
      // loses nothing: the seats' tokens still work in this tab).
      let kept = 0;
      try {
        kept = (await bringGuestSeats()).length;
      } catch (e) {
        console.warn("POST /api/me/seats:", e);
      }
      done(kept);
    } catch (e) {
      message.say(errorText(e));
    }
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const c = { name: name.input.value, password: password.input.value };
    await signInWith(() => (kind === "up" ? accounts.signUp(c) : accounts.signIn(c)));
  });
  if (kind === "in") {
    // A passkey instead of the password: the name field says whose.
    const missing = passkeysMissing();
    const passkey = h(
      "button",
      {
        type: "button",
        testid: "passkey-sign-in",
        disabled: missing !== null,
        onclick: () => {
          if (!name.input.reportValidity()) return;
          void signInWith(() => signInWithPasskey(name.input.value));
        },
      },
      t("account.passkey_sign_in"),
    );
    message.el.before(passkey, h("p", { className: "hint", testid: "passkey-sign-in-hint" }, missing ?? t("account.passkey_sign_in_hint")));
  }
  return form;
}

function signedIn(me: AccountView, again: () => void, kept: number): HTMLElement {
  const message = messageLine("account-message");
  if (kept > 0) message.say(t("account.kept_tables", { n: kept }), true);
  let passkeys = passkeysSection(message.say, errorText);
  const current = field("password-current", t("account.password_current"), "password", "current-password");
  const next = field("password-new", t("account.password_new"), "password", "new-password");
  // A passkey someone added with a stolen session outlives a new password unless it goes too.
  const removePasskeys = h("input", { testid: "password-remove-passkeys", type: "checkbox" });
  const change = h(
    "form",
    { className: "card account-form", testid: "password-form" },
    h("h2", {}, t("account.change_password")),
    current.row,
    next.row,
    h("label", { className: "account-check" }, removePasskeys, " ", t("account.remove_passkeys_too")),
    h("button", { type: "submit", testid: "password-submit" }, t("account.change_password")),
  );
  change.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await accounts.changePassword(current.input.value, next.input.value, removePasskeys.checked);
      current.input.value = next.input.value = "";
      if (removePasskeys.checked) {
        // The list shows none now.
        const fresh = passkeysSection(message.say, errorText);
        passkeys.replaceWith(fresh);
        passkeys = fresh;
        removePasskeys.checked = false;
      }
      message.say(t("account.password_changed"), true);
    } catch (e) {
      message.say(errorText(e));
    }
  });
  const confirmPassword = field("delete-password", t("account.password"), "password", "current-password");
  const remove = h(
    "form",
    { className: "card account-form danger", testid: "delete-form" },
    h("h2", {}, t("account.delete")),
    h("p", {}, t("account.delete_explained")),
    confirmPassword.row,
    h("button", { type: "submit", className: "danger", testid: "delete-submit" }, t("account.delete")),
  );
  remove.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!confirm(t("account.delete_confirm", { name: me.name }))) return;
    try {
      await accounts.remove(confirmPassword.input.value);
      again();
    } catch (e) {
      message.say(errorText(e));
    }
  });
  const action = (testid: string, label: string, run: () => Promise<unknown>) =>
    h(
      "button",
      {
        testid,
        onclick: async () => {
          try {
            await run();
            again();
          } catch (e) {
            message.say(errorText(e));
          }
        },
      },
      label,
    );
  return h(
    "section",
    { className: "lobby account", testid: "account" },
    h("h1", { testid: "account-name" }, t("account.signed_in_as", { name: me.name })),
    h(
      "p",
      { className: "account-links" },
      h("a", { href: `/u/${encodeURIComponent(me.name)}`, testid: "my-profile" }, t("account.my_profile")),
      " · ",
      h("a", { href: "/leaderboard", testid: "account-leaderboard" }, t("nav.leaderboard")),
    ),
    message.el,
    h(
      "div",
      { className: "account-actions" },
      action("sign-out", t("account.sign_out"), accounts.signOut),
      action("sign-out-everywhere", t("account.sign_out_everywhere"), accounts.signOutEverywhere),
      h("a", { className: "button", href: "/api/me/data", download: "", testid: "download-data" }, t("account.download")),
    ),
    myGamesSection(),
    passkeys,
    blocksSection(message.say, errorText),
    change,
    remove,
  );
}

export async function showAccount(app: HTMLElement, kept = 0): Promise<void> {
  clear(app);
  document.title = `rumi — ${t("account.title")}`;
  const again = (n = 0) => {
    forgetSignedIn();
    void showAccount(app, n);
  };
  let me: AccountView | null;
  try {
    me = await accounts.me();
  } catch (e) {
    app.append(h("p", { className: "error" }, errorText(e)));
    return;
  }
  if (me) {
    app.append(signedIn(me, () => again(), kept));
    return;
  }
  app.append(
    h(
      "section",
      { className: "lobby account", testid: "account" },
      h("h1", {}, t("account.title")),
      h("p", {}, t("account.why")),
      h("div", { className: "account-forms" }, credentialsForm("in", again), credentialsForm("up", again)),
      h("p", {}, h("a", { href: "/leaderboard", testid: "account-leaderboard" }, t("nav.leaderboard"))),
    ),
  );
}

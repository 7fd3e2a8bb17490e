// Passkeys on the account page: add, list and remove them signed in; sign in with one
// signed out. The server runs the WebAuthn ceremonies (its options are WebAuthn's JSON
// form, which the browser parses and answers with `credential.toJSON()`); the page
// only passes them between the server and the browser's authenticator. Adding or
// removing a passkey needs the password proved within the last minutes (signing in
// counts): when the server answers `reauth_needed`, the section asks for the password
// and then does what was asked.
import type { AccountView, PasskeyChallenge, PasskeyView, Passkeys } from "./generated/api";
import { ApiError } from "./api";
import { call } from "./api";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { dateText } from "./players";

export const passkeyApi = {
  list: () => call<Passkeys>("GET", "/api/me/passkeys"),
  start: () => call<PasskeyChallenge>("POST", "/api/me/passkeys/start", {}),
  finish: (ceremony: string, name: string, credential: unknown) => call<PasskeyView>("POST", "/api/me/passkeys/finish", { ceremony, name, credential }),
  remove: (id: string) => call<null>("DELETE", `/api/me/passkeys/${encodeURIComponent(id)}`),
  reauth: (password: string) => call<null>("POST", "/api/me/reauth", { password }),
  signInStart: (name: string) => call<PasskeyChallenge>("POST", "/api/session/passkey/start", { name }),
  signInFinish: (ceremony: string, credential: unknown) => call<AccountView>("POST", "/api/session/passkey/finish", { ceremony, credential }),
};

/** Why this page cannot use passkeys (a text to show), or null when it can. */
export function passkeysMissing(): string | null {
  // The JSON helpers came with passkeys in every current browser; without them, no passkeys.
  if (typeof PublicKeyCredential === "undefined" || typeof PublicKeyCredential.parseCreationOptionsFromJSON !== "function") return t("account.passkeys_no_browser");
  // WebAuthn needs a domain name: the server answers `passkeys_unavailable` on an address.
  const host = location.hostname;
  if (/^[\d.]+$/.test(host) || host.includes(":") || host.startsWith("[")) return t("code.passkeys_unavailable");
  return null;
}

/** The browser's own refusals: a cancelled or timed-out prompt is a NotAllowedError. */
function isDomError(e: unknown, name: string): boolean {
  return e instanceof DOMException && e.name === name;
}

/** Signs in to the account of `name` with a passkey of this device. */
export async function signInWithPasskey(name: string): Promise<AccountView> {
  const challenge = await passkeyApi.signInStart(name);
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(challenge.options.publicKey) });
  } catch (e) {
    // No passkey of this name here (or the prompt was cancelled): answered like a wrong
    // passkey, as the server does, so the page does not tell which names have passkeys.
    if (isDomError(e, "NotAllowedError")) throw new ApiError(401, t("code.bad_credentials"), "bad_credentials");
    throw e;
  }
  if (!(credential instanceof PublicKeyCredential)) throw new ApiError(401, t("code.bad_credentials"), "bad_credentials");
  return passkeyApi.signInFinish(challenge.ceremony, credential.toJSON());
}

/** The signed-in account's passkeys: the list, and a form to add one. */
export function passkeysSection(say: (text: string, ok?: boolean) => void, errorText: (e: unknown) => string): HTMLElement {
  const list = h("ul", { className: "passkeys", testid: "passkeys" });
  const missing = passkeysMissing();
  const name = h("input", { testid: "passkey-name", type: "text", maxlength: "40", required: true, value: t("account.passkey_name_default") });
  const add = h("button", { type: "submit", testid: "passkey-add", disabled: missing !== null }, t("account.passkey_add"));
  const form = h(
    "form",
    { className: "card account-form", testid: "passkeys-form" },
    h("h2", {}, t("account.passkeys")),
    h("p", { className: "hint" }, t("account.passkeys_explained")),
    list,
    missing ? h("p", { className: "hint", testid: "passkeys-missing" }, missing) : null,
    h("label", { className: "account-field" }, h("span", {}, t("account.passkey_name")), name),
    add,
  );
  if (missing) name.disabled = true;

  // The password, asked for when the server wants it proved again; then `pending` runs.
  let pending: (() => Promise<void>) | null = null;
  const reauthPassword = h("input", { testid: "reauth-password", type: "password", autocomplete: "current-password", maxlength: "256" });
  const reauthButton = h("button", { type: "button", testid: "reauth-submit" }, t("account.reauth_confirm"));
  const reauthRow = h(
    "div",
    { className: "reauth", testid: "reauth", hidden: true },
    h("p", { className: "hint" }, t("account.reauth_explained")),
    h("label", { className: "account-field" }, h("span", {}, t("account.password")), reauthPassword),
    reauthButton,
  );
  /** Runs `action`; if the password must be proved first, asks for it and runs it after. */
  const withReauth = async (action: () => Promise<void>) => {
    try {
      await action();
    } catch (e) {
      if (!(e instanceof ApiError && e.code === "reauth_needed")) throw e;
      pending = action;
      reauthRow.hidden = false;
      say(t("code.reauth_needed"));
      reauthPassword.focus();
    }
  };
  reauthButton.addEventListener("click", async () => {
    try {
      await passkeyApi.reauth(reauthPassword.value);
      reauthPassword.value = "";
      reauthRow.hidden = true;
      say("");
      const action = pending;
      pending = null;
      if (action) await withReauth(action);
    } catch (e) {
      say(errorText(e));
    }
  });
  form.append(reauthRow);

  const render = (keys: PasskeyView[]) => {
    clear(list);
    if (keys.length === 0) list.append(h("li", { className: "muted", testid: "no-passkeys" }, t("account.no_passkeys")));
    for (const k of keys) {
      const used = k.used_ms == null ? t("account.passkey_never_used") : t("account.passkey_used_on", { date: dateText(k.used_ms, true) });
      list.append(
        h(
          "li",
          { testid: "passkey" },
          h("strong", { testid: "passkey-label" }, k.name),
          " ",
          h("span", { className: "muted" }, `${t("account.passkey_added_on", { date: dateText(k.created_ms) })} · ${used}`),
          " ",
          h(
            "button",
            {
              type: "button",
              testid: "passkey-remove",
              onclick: async () => {
                if (!confirm(t("account.passkey_remove_confirm", { name: k.name }))) return;
                try {
                  await withReauth(async () => {
                    await passkeyApi.remove(k.id);
                    say(t("account.passkey_removed"), true);
                    await refresh();
                  });
                } catch (e) {
                  say(errorText(e));
                }
              },
            },
            t("account.passkey_remove"),
          ),
        ),
      );
    }
  };
  const refresh = async () => render((await passkeyApi.list()).passkeys);
  refresh().catch((e) => say(errorText(e)));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    say("");
    add.disabled = true;
    try {
      await withReauth(async () => {
        const challenge = await passkeyApi.start();
        let credential: Credential | null;
        try {
          credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(challenge.options.publicKey) });
        } catch (e) {
          // Cancelled, or (InvalidStateError) this device holds one of the account's passkeys already.
          say(isDomError(e, "NotAllowedError") ? t("account.passkey_cancelled") : isDomError(e, "InvalidStateError") ? t("code.passkey_refused") : errorText(e));
          return;
        }
        if (!(credential instanceof PublicKeyCredential)) return;
        const added = await passkeyApi.finish(challenge.ceremony, name.value.trim(), credential.toJSON());
        say(t("account.passkey_added", { name: added.name }), true);
        name.value = t("account.passkey_name_default");
        await refresh();
      });
    } catch (e) {
      say(errorText(e));
    } finally {
      add.disabled = false;
    }
  });
  return form;
}

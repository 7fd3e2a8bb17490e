// Blocked accounts: a player may block an account from the challenge card; its
// challenges and invitations no longer reach them (the server refuses new ones and
// leaves the waiting ones out of the list). The account page lists the blocked
// accounts, each with a button to unblock it.
import type { Blocks } from "./generated/api";
import { call } from "./api";
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";
import { dateText } from "./players";

export const blockApi = {
  list: () => call<Blocks>("GET", "/api/me/blocks"),
  block: (name: string) => call<null>("POST", "/api/me/blocks", { name }),
  unblock: (name: string) => call<null>("DELETE", `/api/me/blocks/${encodeURIComponent(name)}`),
};

/** The account page's list of blocked accounts. */
export function blocksSection(say: (text: string, ok?: boolean) => void, errorText: (e: unknown) => string): HTMLElement {
  const list = h("ul", { className: "blocks", testid: "blocks" });
  const render = (blocks: Blocks["blocks"]) => {
    clear(list);
    if (blocks.length === 0) list.append(h("li", { className: "muted", testid: "no-blocks" }, t("blocks.none")));
    for (const b of blocks) {
      list.append(
        h(
          "li",
          { testid: "block" },
          h("strong", { testid: "block-name" }, b.name),
          " ",
          h("span", { className: "muted" }, t("blocks.since", { date: dateText(b.since_ms) })),
          " ",
          h(
            "button",
            {
              type: "button",
              className: "secondary",
              testid: `unblock-${b.name}`,
              onclick: async () => {
                try {
                  await blockApi.unblock(b.name);
                  say(t("blocks.unblocked", { name: b.name }), true);
                  await refresh();
                } catch (e) {
                  say(errorText(e));
                }
              },
            },
            t("blocks.unblock"),
          ),
        ),
      );
    }
  };
  const refresh = async () => render((await blockApi.list()).blocks);
  refresh().catch((e) => say(errorText(e)));
  return h(
    "section",
    { className: "card account-form", testid: "blocks-section" },
    h("h2", {}, t("blocks.title")),
    h("p", { className: "hint" }, t("blocks.explained")),
    list,
  );
}

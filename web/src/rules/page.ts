// The rules pages, /rules/rumis and /rules/rummikub: every rule with its anchor (`#R7`),
// so that a refusal at the table can link to the paragraph it enforces.
import { api } from "../api";
import { clear, h } from "../dom";
import { pick, t } from "../i18n/i18n";
import { stoneSvg } from "../rumis/tray";
import { variantLabel } from "../create-form";
import { RUMIS_RULES } from "./rumis";
import { RUMMIKUB_RULES } from "./rummikub";
import { parseTiles, STONE_SHAPES, stoneName, tileEl, tileNames } from "../pictures";

export async function showRules(app: HTMLElement, game: "rumis" | "rummikub"): Promise<void> {
  clear(app);
  const page = game === "rumis" ? RUMIS_RULES : RUMMIKUB_RULES;
  document.title = `rumi — ${pick(page.title)}`;
  const toc = h("ol", { className: "rules-toc" });
  const article = h(
    "article",
    { className: "rules", testid: `rules-${game}` },
    h("h1", {}, pick(page.title)),
    h("p", { className: "rules-intro" }, pick(page.intro)),
    h("p", { className: "rules-learn" }, h("a", { href: `/learn/${game}`, testid: `rules-learn-${game}` }, t("tutorial.rules_link"))),
  );
  article.append(h("nav", { "aria-label": t("rules.contents") }, h("h2", {}, t("rules.contents")), toc));
  for (const s of page.sections) {
    toc.append(h("li", {}, h("a", { href: `#${s.id}` }, pick(s.title))));
    const section = h("section", { id: s.id, className: "rule", testid: `rule-${s.id}` }, h("h2", {}, pick(s.title), " ", h("a", { href: `#${s.id}`, className: "anchor", "aria-label": t("rules.link_to", { id: s.id }) }, "#")));
    let list: HTMLElement | null = null;
    for (const p of s.body) {
      const text = pick(p);
      if (text.startsWith("- ")) {
        if (!list) section.append((list = h("ul", {})));
        list.append(h("li", {}, text.slice(2)));
      } else {
        list = null;
        section.append(h("p", {}, text));
      }
    }
    if (s.pictures) {
      const pics = h("div", { className: "rule-pictures" });
      for (const p of s.pictures) {
        if (game === "rumis" && STONE_SHAPES[p]) {
          pics.append(h("figure", {}, stoneSvg(STONE_SHAPES[p], 0xb5542c, 56), h("figcaption", {}, `${stoneName(p)} (${p})`)));
        } else {
          pics.append(h("figure", {}, h("div", { className: "tile-row" }, ...parseTiles(p).map(tileEl)), h("figcaption", {}, tileNames(parseTiles(p)))));
        }
      }
      section.append(pics);
    }
    if (s.id === "setup" && game === "rumis") section.append(await scenarioTable());
    article.append(section);
  }
  article.append(h("p", { className: "muted" }, t("rules.source")));
  app.append(article);
  // The anchor of the address, once the page is drawn.
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

/** The scenarios of this server, with their player counts and variants. */
async function scenarioTable(): Promise<HTMLElement> {
  try {
    const meta = await api.meta();
    return h(
      "table",
      { className: "scores scenario-table", testid: "scenario-table" },
      h("caption", {}, t("rules.scenarios")),
      h("tr", {}, h("th", { scope: "col" }, t("lobby.scenario")), h("th", { scope: "col" }, t("lobby.players")), h("th", { scope: "col" }, t("lobby.variant"))),
      ...meta.rumis.scenarios.map((s) =>
        h(
          "tr",
          {},
          h("td", {}, s.name),
          h("td", {}, s.players.join(", ")),
          h("td", {}, Object.entries(s.variant_players).map(([v, n]) => `${variantLabel(v)} (${n.join(", ")})`).join("; ")),
        ),
      ),
    );
  } catch {
    return h("p", { className: "muted" }, "");
  }
}

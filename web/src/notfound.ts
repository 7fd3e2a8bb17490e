// The not-found page: an unknown address or a table the server does not know.
import { clear, h } from "./dom";
import { t } from "./i18n/i18n";

export function showNotFound(app: HTMLElement, what: "page" | "table", id?: string): void {
  clear(app);
  document.title = `rumi — ${t("notfound.title")}`;
  app.append(
    h(
      "section",
      { className: "lobby not-found", testid: "not-found", "data-what": what },
      h("h1", {}, t("notfound.title")),
      h("p", {}, what === "table" ? t("notfound.table", { id: id ?? "" }) : t("notfound.page", { path: location.pathname })),
      h("p", {}, h("a", { href: "/", testid: "back-to-lobby", className: "button primary" }, t("notfound.back"))),
    ),
  );
}

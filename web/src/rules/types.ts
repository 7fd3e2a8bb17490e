// A rules page: sections with an anchor each (`#R7`), in German and English.
import type { Both } from "../i18n/i18n";

export interface RuleSection {
  /** The anchor: a ruling (`R7`, `K4`) or a name (`setup`, `faq`). */
  id: string;
  title: Both;
  /** Paragraphs; a paragraph starting with "- " is a list item. */
  body: Both[];
  /** Pictures: Rumis stone codes, or Rummikub sets as tile codes ("r3 b3 k3"). */
  pictures?: string[];
}

export interface RulesPage {
  game: "rumis" | "rummikub";
  title: Both;
  intro: Both;
  sections: RuleSection[];
}

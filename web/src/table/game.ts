// What a game's view at a table needs from the page (`GameContext`) and offers it
// (`GameUI`): the table page, the tutorial, the puzzles and the replay mount the Rumis
// and Rummikub views through these; the boards inside them are components of their own
// (`rumis/board.ts`, `rummikub/board.ts`).
import type { Action, CheckResult, Placement, Reason, TableView } from "../api";

export interface GameContext {
  id: string;
  token: string | null;
  /** Sends an action made on the given view; resolves true if the server accepted it. */
  act(action: Action): Promise<boolean>;
  /** Shows a message for a person (a refusal, a reason), with the server's code if any. */
  error(message: string, code?: string | null, why?: Reason | null): void;
  clearError(): void;
  current(): TableView | null;
  /** Rumis: whether a placement is legal now, and why not (the red ghost); the table's
   * `POST …/check` when missing (a tutorial asks its step instead). */
  check?(placement: Placement): Promise<CheckResult>;
  /** Rummikub: the end-turn button's text where a play is checked, not played (a puzzle). */
  endTurnLabel?: string;
  /** The table page: the board fills the screen under the player strip, where the game
   * may put its own part (the Rummikub clock). */
  strip?: HTMLElement;
}

export interface GameUI {
  update(view: TableView): void;
  destroy(): void;
  /** Where the table's messages float: by the board or the rack, not at the page's top. */
  messageSlot?: HTMLElement;
}

/** The Rumis view, with three.js: a separate chunk, fetched only for Rumis tables. */
export async function rumisUI(root: HTMLElement, ctx: GameContext, readOnly = false, replay: { jump(move: number): void; final(): TableView } | null = null): Promise<GameUI> {
  const { RumisUI } = await import("../rumis/rumis");
  return new RumisUI(root, ctx, readOnly, replay);
}

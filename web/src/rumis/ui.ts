// Rumis at a table (the table page, the tutorial, the replay): the board component fed
// the table's views. A table view becomes a position (whose turn, the seats' names), the
// board's placements and typed moves become the table's actions.
import { api, statusOf, type Cell, type TableView } from "../api";
import { seatName } from "../dom";
import { botOwnName } from "../names";
import type { GameContext, GameUI } from "../table";
import { RumisBoard, type RumisPosition } from "./board";

/** A table view as the board's position. `readOnly`: nobody places (a replay). */
export function rumisPosition(view: TableView, readOnly = false): RumisPosition {
  return {
    rumis: view.rumis!,
    version: view.version,
    you: view.you,
    toPlay: !readOnly && statusOf(view) === "playing" && view.you !== null && view.to_move === view.you,
    over: view.over,
    seats: view.seats.map((s) => ({ name: seatName(s), short: s.kind === "bot" && !s.claimed ? botOwnName(s.seat, s.name) : seatName(s) })),
    hints: view.hints,
  };
}

export class RumisUI implements GameUI {
  private board: RumisBoard;
  readonly messageSlot: HTMLElement;

  constructor(
    root: HTMLElement,
    ctx: GameContext,
    private readOnly = false,
    /** The replay: every move of the game listed, a click on one shows the game after it. */
    replay: { jump(move: number): void; final(): TableView } | null = null,
  ) {
    this.board = new RumisBoard(root, {
      readOnly,
      spectator: readOnly || ctx.current()?.you === null,
      fill: !!ctx.strip,
      check: (placement) => (ctx.check ? ctx.check(placement) : api.check(ctx.id, ctx.token, placement)),
      onPlace: ({ stone, cells }) => ctx.act({ type: "rumis_place", stone, cells }),
      onTypedMove: (move) => ctx.act({ type: "rumis_move", move }),
      suggest: () => api.rumisHint(ctx.id, ctx.token),
      onError: (message, code, why) => ctx.error(message, code, why),
      onClearError: () => ctx.clearError(),
      replay: replay && { jump: (move) => replay.jump(move), final: () => replay.final().rumis! },
    });
    this.messageSlot = this.board.messageSlot;
  }

  update(view: TableView): void {
    this.board.set(rumisPosition(view, this.readOnly));
  }

  /** The replay's review: a better move as the ghost on the position on show. */
  showBetter(cells: Cell[] | null): void {
    this.board.showBetter(cells);
  }

  destroy(): void {
    this.board.destroy();
  }
}

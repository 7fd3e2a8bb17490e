// The Rumis board fetched on demand: three.js is a separate chunk, loaded only by the
// pages that show a board (this module is small and in the main chunk).
import type { RumisBoard, RumisBoardConfig } from "./board";

export type { RumisBoard, RumisBoardConfig, RumisPosition } from "./board";

/** A Rumis board in `root` (see `RumisBoard`). */
export async function loadRumisBoard(root: HTMLElement, config: RumisBoardConfig): Promise<RumisBoard> {
  const { RumisBoard } = await import("./rumis");
  return new RumisBoard(root, config);
}

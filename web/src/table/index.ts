// The table page and what other pages borrow from it: `showTable` (page.ts), the game
// views' interface (game.ts) and the small helpers (links.ts).
export { showTable } from "./page";
export { rumisUI, type GameContext, type GameUI } from "./game";
export { copyField, resultText, seatLink } from "./links";

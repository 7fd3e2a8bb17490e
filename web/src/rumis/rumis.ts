// The entry of the Rumis chunk (loaded by a dynamic import from the table, replay, solo
// and analysis pages): the Rumis board and its table adapter and, through them, three.js.
export { RumisBoard } from "./board";
export { RumisUI } from "./ui";

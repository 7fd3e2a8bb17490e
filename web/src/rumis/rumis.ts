// The entry of the Rumis chunk (loaded by a dynamic import from the table and replay
// pages): the Rumis view and, through it, three.js.
export { RumisUI } from "./ui";

// The Rummikub rules in the project's own words (from the German rule text and the
// rulings K1–K10 in RULINGS.md, with the decisions of docs/rummikub-rules.md).
import type { RulesPage } from "./types";

export const RUMMIKUB_RULES: RulesPage = {
  game: "rummikub",
  title: { en: "Rummikub: the rules", de: "Rummikub: die Regeln" },
  intro: {
    en: "Two to four players try to be first to lay every tile of their rack on the table, in runs and groups. The table belongs to everyone: once you are in, you may rearrange it freely, as long as every set is valid when your turn ends. This server plays the current rules by default; the old rules (before 2005) are a choice in the lobby.",
    de: "Zwei bis vier Personen versuchen, als Erste alle Steine ihrer Bank in Reihen und Gruppen auf den Tisch zu legen. Der Tisch gehört allen: wer einmal ausgelegt hat, darf ihn frei umbauen, solange am Zugende jede Serie gültig ist. Dieser Server spielt standardmäßig die aktuellen Regeln; die alten Regeln (vor 2005) sind in der Lobby wählbar.",
  },
  sections: [
    {
      id: "K1",
      title: { en: "K1 · The tiles", de: "K1 · Die Steine" },
      body: [
        { en: "106 tiles: the numbers 1 to 13 in red, blue, black and orange, each twice, and two jokers. In this client each colour also has its own mark (red ◆, blue ●, black ■, orange ▲), so colours never depend on hue alone.", de: "106 Steine: die Zahlen 1 bis 13 in Rot, Blau, Schwarz und Orange, jede zweimal, dazu zwei Joker. In diesem Programm hat jede Farbe zusätzlich ein Zeichen (Rot ◆, Blau ●, Schwarz ■, Orange ▲), damit Farben nie nur am Farbton hängen." },
      ],
    },
    {
      id: "K2",
      title: { en: "K2 · Getting started", de: "K2 · Spielbeginn" },
      body: [
        { en: "Everyone draws a tile; the highest number begins (jokers and ties draw again). The tiles go back, and each player takes 14; the rest is the pool. A player dealt three pairs (three different tiles, each twice) may demand a new deal before the first turn — not under the old rules.", de: "Alle ziehen einen Stein; die höchste Zahl beginnt (Joker und Gleichstand ziehen neu). Die Steine kommen zurück, und jede Person nimmt 14; der Rest ist der Vorrat. Wer drei Paare bekommt (drei verschiedene Steine, je zweimal), darf vor dem ersten Zug neu verteilen lassen — nicht nach den alten Regeln." },
      ],
    },
    {
      id: "K3",
      title: { en: "K3 · Runs, groups and jokers", de: "K3 · Reihen, Gruppen und Joker" },
      body: [
        { en: "A group is three or four tiles of the same number in different colours. A run is three or more consecutive numbers of one colour; 1 is low and 13 is never followed by 1 (old rules: 12-13-1 is allowed). A joker stands for any tile; up to two jokers in a set (old rules: one). A set need not say whether it is a run or a group: it is valid if some reading is.", de: "Eine Gruppe sind drei oder vier Steine derselben Zahl in verschiedenen Farben. Eine Reihe sind drei oder mehr aufeinanderfolgende Zahlen einer Farbe; die 1 ist unten, und auf die 13 folgt nie die 1 (alte Regeln: 12-13-1 ist erlaubt). Ein Joker steht für jeden Stein; bis zu zwei Joker pro Serie (alte Regeln: einer). Eine Serie muss nicht sagen, ob sie Reihe oder Gruppe ist: sie gilt, wenn eine Lesart gilt." },
        { en: "This client shows a run in order as you build it, and an invalid set with its problem spelled out.", de: "Dieses Programm zeigt eine Reihe beim Bauen in Zahlenfolge und eine ungültige Serie mit ausgeschriebenem Fehler." },
      ],
      pictures: ["r3 b3 k3", "o7 o8 o9 o10", "b11 J b13"],
    },
    {
      id: "K4",
      title: { en: "K4 · The initial meld: 30 points", de: "K4 · Die Erstauslage: 30 Punkte" },
      body: [
        { en: "Your first play must be one or more new sets from your own rack worth at least 30 points together (a joker counts as the tile it stands for), without touching the table. Old rules: the initial meld may also add to and rearrange the table. While you build it, this client adds up its value against 30.", de: "Dein erster Zug muss aus einer oder mehreren neuen Serien von deiner Bank bestehen, zusammen mindestens 30 Punkte wert (ein Joker zählt wie der Stein, für den er steht), ohne den Tisch anzufassen. Alte Regeln: die Erstauslage darf auch anlegen und umbauen. Während du sie baust, zählt dieses Programm ihren Wert gegen 30." },
      ],
      pictures: ["r10 b10 k10"],
    },
    {
      id: "K5",
      title: { en: "K5 · Laying off and rearranging", de: "K5 · Anlegen und Umbauen" },
      body: [
        { en: "After your initial meld you may change the whole table as you like — split sets, move tiles, swap jokers — with no limit, provided that at the end every table tile is still on the table, every set is valid and you played at least one tile from your rack.", de: "Nach deiner Erstauslage darfst du den ganzen Tisch beliebig ändern — Serien teilen, Steine umlegen, Joker tauschen — ohne Grenze, vorausgesetzt, am Ende liegt jeder Tischstein noch auf dem Tisch, jede Serie ist gültig und du hast mindestens einen Stein von deiner Bank gelegt." },
        { en: "Old rules: a set with a joker is frozen; only its joker may be swapped for the tile it stands for, from your rack, and the freed joker must be laid again in the same turn.", de: "Alte Regeln: eine Serie mit Joker ist gesperrt; nur ihr Joker darf gegen den Stein getauscht werden, für den er steht, von deiner Bank, und der frei gewordene Joker muss im selben Zug wieder gelegt werden." },
      ],
    },
    {
      id: "K6",
      title: { en: "K6 · Drawing", de: "K6 · Ziehen" },
      body: [
        { en: "If you do not (or cannot) play, you draw one tile from the pool, and your turn ends. This client marks your drawn tile on the rack.", de: "Wenn du nicht legst (oder nicht kannst), ziehst du einen Stein aus dem Vorrat, und dein Zug endet. Dieses Programm markiert den gezogenen Stein auf deiner Bank." },
      ],
    },
    {
      id: "K7",
      title: { en: "K7 · The clock", de: "K7 · Die Uhr" },
      body: [
        { en: "A turn lasts 60 seconds unless the table was made with another clock or none. Who runs out of time gets the table back as it was at the start of the turn and draws three penalty tiles. The server keeps the clock, not your browser.", de: "Ein Zug dauert 60 Sekunden, außer der Tisch wurde mit einer anderen oder ohne Uhr angelegt. Wer die Zeit überschreitet, bekommt den Tisch wie zu Zugbeginn zurück und zieht drei Strafsteine. Die Uhr führt der Server, nicht dein Browser." },
      ],
    },
    {
      id: "K8",
      title: { en: "K8 · End of a round", de: "K8 · Ende einer Runde" },
      body: [
        { en: "A round ends when someone has laid every tile (“Rummikub!”). When the pool is empty and a full round of turns passes without a tile played, the round ends too, and the lowest rack wins it.", de: "Eine Runde endet, wenn jemand alle Steine gelegt hat („Rummikub!“). Ist der Vorrat leer und vergeht eine ganze Runde von Zügen ohne gelegten Stein, endet sie auch, und die kleinste Bank gewinnt." },
      ],
    },
    {
      id: "K9",
      title: { en: "K9 · Scoring", de: "K9 · Wertung" },
      body: [
        { en: "Every other player scores minus the sum of their rack (a joker counts 50); the winner scores plus the sum of those. Example: the others hold 12, 25 and a joker plus 3: the winner scores 12 + 25 + 53 = 90. Totals add up over the rounds of the game; the highest total wins.", de: "Alle anderen bekommen minus die Summe ihrer Bank (ein Joker zählt 50); die Gewinnerin bekommt plus die Summe davon. Beispiel: die anderen halten 12, 25 und einen Joker plus 3: die Gewinnerin bekommt 12 + 25 + 53 = 90. Über die Runden eines Spiels wird addiert; die höchste Summe gewinnt." },
      ],
    },
    {
      id: "K10",
      title: { en: "K10 · Current and old rules", de: "K10 · Aktuelle und alte Regeln" },
      body: [
        { en: "The old rules (before 2005) differ: runs may go on from 13 to 1; a set with a joker is frozen except for swapping its joker with a tile from your rack; one joker per set at most; no new deal for three pairs; the initial meld may lay off and rearrange.", de: "Die alten Regeln (vor 2005) weichen ab: Reihen dürfen von 13 auf 1 weitergehen; eine Serie mit Joker ist gesperrt, außer man tauscht ihren Joker gegen einen Stein von der Bank; höchstens ein Joker pro Serie; kein Neuverteilen bei drei Paaren; die Erstauslage darf anlegen und umbauen." },
      ],
    },
    {
      id: "faq",
      title: { en: "Questions players ask", de: "Häufige Fragen" },
      body: [
        { en: "- Does a joker count for the initial meld? Yes, as the tile it stands for (K4).", de: "- Zählt ein Joker für die Erstauslage? Ja, wie der Stein, für den er steht (K4)." },
        { en: "- May I take a tile from the table into my rack? No, tiles on the table stay there (K5).", de: "- Darf ich einen Stein vom Tisch auf meine Bank nehmen? Nein, Tischsteine bleiben auf dem Tisch (K5)." },
        { en: "- What if my time runs out mid-rearrangement? The table goes back as it was and you draw three tiles (K7).", de: "- Was, wenn die Zeit mitten im Umbauen abläuft? Der Tisch wird zurückgesetzt, und du ziehst drei Steine (K7)." },
      ],
    },
    {
      id: "mistakes",
      title: { en: "Common mistakes", de: "Häufige Irrtümer" },
      body: [
        { en: "- “12-13-1 is a run.” Not under the current rules (K3).", de: "- „12-13-1 ist eine Reihe.“ Nicht nach den aktuellen Regeln (K3)." },
        { en: "- “A group may have two tiles of one colour.” Every colour at most once (K3).", de: "- „Eine Gruppe darf eine Farbe doppelt haben.“ Jede Farbe höchstens einmal (K3)." },
        { en: "- “I may add to the table for my first meld.” Only under the old rules (K4).", de: "- „Für die Erstauslage darf ich anlegen.“ Nur nach den alten Regeln (K4)." },
      ],
    },
  ],
};

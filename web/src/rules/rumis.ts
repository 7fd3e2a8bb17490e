// The Rumis rules in the project's own words (from the German rule texts and the
// rulings R1–R16 in RULINGS.md, with the decisions of docs/rumis-rules.md).
import type { RulesPage } from "./types";

export const RUMIS_RULES: RulesPage = {
  game: "rumis",
  title: { en: "Rumis: the rules", de: "Rumis: die Regeln" },
  intro: {
    en: "Two to four players (six with Rumis+) build one Inca building together, each with stones of their own colour. When nobody can place any more, you look at the building from above: every visible square of your colour is a point, every stone you could not place costs one. The highest score wins.",
    de: "Zwei bis vier Personen (mit Rumis+ bis sechs) bauen gemeinsam ein Inka-Bauwerk, jede mit Steinen der eigenen Farbe. Wenn niemand mehr legen kann, schaut ihr von oben auf das Bauwerk: jedes sichtbare Feld deiner Farbe ist ein Punkt, jeder Stein, den du nicht unterbringen konntest, kostet einen. Die meisten Punkte gewinnen.",
  },
  sections: [
    {
      id: "setup",
      title: { en: "Setting up", de: "Vorbereitung" },
      body: [
        { en: "Everyone takes the eleven stones of one colour. You choose a scenario (a building plan): Chullpa (tower), Pirka (wall), Tambo (rest house), Pisac (stairs), Coricancha (pyramid), Cucho (corner), and with Rumis+ Colca, Puncu, Apachita, Chaka, Huaca and Incahuasi.", de: "Jede Person nimmt die elf Steine einer Farbe. Ihr wählt ein Szenario (einen Bauplan): Chullpa (Turm), Pirka (Mauer), Tambo (Rasthaus), Pisac (Treppe), Coricancha (Pyramide), Cucho (Ecke), mit Rumis+ auch Colca, Puncu, Apachita, Chaka, Huaca und Incahuasi." },
        { en: "- How much you may build depends on the scenario and on the number of players: fewer players build on a smaller area (inside the red or blue line) and often less high. The table below is read from this server.", de: "- Wie viel gebaut werden darf, hängt von Szenario und Spielerzahl ab: weniger Personen bauen auf einer kleineren Fläche (innerhalb der roten oder blauen Linie) und oft weniger hoch. Die Tabelle unten kommt von diesem Server." },
        { en: "- In this client the board shows the allowed space as an outline; columns outside it are dark.", de: "- In diesem Programm zeigt der Plan den erlaubten Raum als Umriss; Säulen außerhalb sind dunkel." },
      ],
    },
    {
      id: "R1",
      title: { en: "R1 · The board and the cubes", de: "R1 · Plan und Würfel" },
      body: [
        { en: "The board is a grid of squares; every stone is made of cubes as large as one square. A height unit is one cube. Columns are named by letters from the left (A, B, …), rows by numbers (1, 2, …), levels by numbers from the board up: “C3, level 2” is column C, row 3, second level (the notation writes it c3:2).", de: "Der Plan ist ein Raster aus Feldern; jeder Stein besteht aus Würfeln von der Größe eines Feldes. Eine Höheneinheit ist ein Würfel. Spalten heißen von links A, B, …, Reihen 1, 2, …, Ebenen zählen vom Plan nach oben: „C3, Ebene 2“ ist Spalte C, Reihe 3, zweite Ebene (die Notation schreibt c3:2)." },
        { en: "A cell holds one cube only.", de: "Jedes Feld nimmt nur einen Würfel auf." },
      ],
    },
    {
      id: "R2",
      title: { en: "R2 · Touching: faces, edges, corners", de: "R2 · Berühren: Flächen, Kanten, Ecken" },
      body: [
        { en: "Two cubes touch face to face when they share a whole square side (beside each other, or one on the other). Sharing only an edge is edge contact; sharing only a corner is no contact at all. Where a rule says “touch”, it means face to face unless it says edge.", de: "Zwei Würfel berühren sich mit einer Fläche, wenn sie eine ganze Quadratseite teilen (nebeneinander oder übereinander). Nur eine gemeinsame Kante ist Kantenkontakt; nur eine Ecke ist gar keine Berührung. Wo eine Regel „berühren“ sagt, ist eine Fläche gemeint, außer es steht Kante da." },
      ],
    },
    {
      id: "R3",
      title: { en: "R3 · No hole under a stone", de: "R3 · Kein Hohlraum unter einem Stein" },
      body: [
        { en: "Every cube of a stone lies on the board or directly on another cube (of any stone, its own included). Overhangs are not allowed, not even high up. So the building is always a set of columns, and a stone is lowered from above until it rests — this is how the ghost in this client falls.", de: "Jeder Würfel eines Steins liegt auf dem Plan oder direkt auf einem anderen Würfel (gleich welchen Steins, auch des eigenen). Überhänge sind verboten, auch weit oben. Das Bauwerk besteht also immer aus Säulen, und ein Stein wird von oben abgesenkt, bis er aufliegt — so fällt auch der Geist-Stein in diesem Programm." },
      ],
    },
    {
      id: "R4",
      title: { en: "R4 · Area and height", de: "R4 · Fläche und Höhe" },
      body: [
        { en: "No cube may stick out of the scenario's area for your number of players, and none may rise above its column's height limit. On Chullpa for two the limit is 4, as long as the longest stone.", de: "Kein Würfel darf über die Fläche des Szenarios für eure Spielerzahl hinausragen, und keiner über die Höchsthöhe seiner Säule. Bei Chullpa zu zweit ist die Grenze 4, so lang wie der längste Stein." },
      ],
    },
    {
      id: "R5",
      title: { en: "R5 · The eleven stones", de: "R5 · Die elf Steine" },
      body: [
        { en: "Each colour has one of each: the domino (D2), the straight and the bent three (I3, L3), and the eight fours: straight I4, square O4, T4, L4, S4, the tripod Y4 (three arms from one corner) and the two screws A4 and B4, mirror images of each other. 40 cubes in all. A stone may be turned in every way (24 positions), but never mirrored — the mirror of one screw is the other screw.", de: "Jede Farbe hat je einen: den Zweier (D2), den geraden und den gewinkelten Dreier (I3, L3) und die acht Vierer: gerade I4, Quadrat O4, T4, L4, S4, den Dreibein Y4 (drei Arme aus einer Ecke) und die beiden Schrauben A4 und B4, Spiegelbilder voneinander. Zusammen 40 Würfel. Ein Stein darf beliebig gedreht werden (24 Lagen), aber nie gespiegelt — das Spiegelbild einer Schraube ist die andere." },
      ],
      pictures: ["D2", "I3", "L3", "I4", "O4", "T4", "L4", "S4", "Y4", "A4", "B4"],
    },
    {
      id: "R6",
      title: { en: "R6 · Turns and first stones", de: "R6 · Reihenfolge und erste Steine" },
      body: [
        { en: "Players place one stone each in turn, in seat order. The very first stone of the game may go anywhere in the area. Everyone else's first stone must touch a stone already placed (face to face) and must lie on the board with at least one cube.", de: "Reihum in Sitzordnung legt jede Person einen Stein. Der allererste Stein des Spiels darf irgendwo in die Fläche. Der erste Stein jeder anderen Person muss einen schon liegenden Stein mit einer Fläche berühren und mit mindestens einem Würfel auf dem Plan aufliegen." },
      ],
    },
    {
      id: "R7",
      title: { en: "R7 · Every later stone touches your own colour", de: "R7 · Jeder weitere Stein berührt die eigene Farbe" },
      body: [
        { en: "From your second stone on, each stone must touch a stone of your own colour face to face — beside it or lying on it. Other colours may carry your stone, but touching them is not enough.", de: "Ab deinem zweiten Stein muss jeder Stein einen Stein deiner Farbe mit einer Fläche berühren — daneben oder darauf. Fremde Farben dürfen deinen Stein tragen, aber sie zu berühren genügt nicht." },
      ],
    },
    {
      id: "R8",
      title: { en: "R8 · You must place; out is out", de: "R8 · Legen ist Pflicht; raus ist raus" },
      body: [
        { en: "If you can place a stone, you must. When your turn comes and none of your stones fits anywhere, you are out for the rest of the game — even if room appears later. The game ends when everyone is out (a player without stones is out too).", de: "Wenn du legen kannst, musst du. Passt in deinem Zug keiner deiner Steine irgendwo, bist du für den Rest des Spiels raus — auch wenn später wieder Platz entsteht. Das Spiel endet, wenn alle raus sind (wer keine Steine mehr hat, ist auch raus)." },
      ],
    },
    {
      id: "R9",
      title: { en: "R9 · Scoring", de: "R9 · Wertung" },
      body: [
        { en: "Look at the building from above. Each column whose top cube is yours is one point; a stone can bring at most four. Each of your stones not placed costs one point — per stone, not per cube. That is why every score starts at −11 and grows as stones are placed. The highest score wins; equal scores share the win.", de: "Schaut von oben auf das Bauwerk. Jede Säule, deren oberster Würfel dir gehört, ist ein Punkt; ein Stein bringt höchstens vier. Jeder nicht verbaute eigene Stein kostet einen Punkt — pro Stein, nicht pro Würfel. Deshalb beginnt jede Wertung bei −11 und wächst mit jedem gelegten Stein. Die meisten Punkte gewinnen; Gleichstand teilt den Sieg." },
        { en: "Worked example: four players; from above you see 7 red, 5 blue, 4 green and 4 yellow squares. Yellow kept one stone: 4 − 1 = 3. Red wins with 7, then blue 5, green 4, yellow 3.", de: "Rechenbeispiel: vier Personen; von oben sieht man 7 rote, 5 blaue, 4 grüne und 4 gelbe Felder. Gelb hat einen Stein übrig: 4 − 1 = 3. Rot gewinnt mit 7 vor Blau 5, Grün 4, Gelb 3." },
        { en: "In this client the top view shows each column's height, and the score table counts live.", de: "In diesem Programm zeigt die Draufsicht die Höhe jeder Säule, und die Punktetabelle zählt laufend mit." },
      ],
    },
    {
      id: "R10",
      title: { en: "R10 · Two players with four colours", de: "R10 · Zu zweit mit vier Farben" },
      body: [
        { en: "Each player takes two colours and plays them in turn (A's first colour, B's first, A's second, B's second). The area and heights for four players apply. Each colour is out on its own; the player whose best colour scores most wins.", de: "Jede Person nimmt zwei Farben und spielt sie abwechselnd (A erste Farbe, B erste, A zweite, B zweite). Es gelten Fläche und Höhen für vier Personen. Jede Farbe scheidet für sich aus; es gewinnt, wessen beste Farbe die meisten Punkte hat." },
      ],
    },
    {
      id: "R11",
      title: { en: "R11 · Ruinas: a ruin first", de: "R11 · Ruinas: zuerst eine Ruine" },
      body: [
        { en: "For two or three players. Before the game all eleven stones of an unused colour are built in, the players placing them in turn, following the placement rules as if the ruin were a player. Then the area and heights for one player more apply. Ruin squares score for nobody. The server can also build a random ruin. If the ruin gets stuck, it ends there.", de: "Für zwei oder drei Personen. Vor dem Spiel werden alle elf Steine einer unbenutzten Farbe reihum eingebaut, nach den Legeregeln, als wäre die Ruine ein Mitspieler. Danach gelten Fläche und Höhen für eine Person mehr. Felder der Ruine zählen für niemanden. Der Server kann auch eine zufällige Ruine bauen. Bleibt die Ruine stecken, endet sie dort." },
      ],
    },
    {
      id: "R12",
      title: { en: "R12 · Solo: the cube", de: "R12 · Allein: der Würfel" },
      body: [
        { en: "Alone you build a full cube of edge 3, 4 or 5 from the stones of one or more colours. Harder: keep the normal placement rules, or place the colours alternately. The cube is solved when every cell is filled.", de: "Allein baust du einen vollen Würfel mit Kantenlänge 3, 4 oder 5 aus den Steinen einer oder mehrerer Farben. Schwerer: mit den normalen Legeregeln, oder mit abwechselnden Farben. Gelöst ist der Würfel, wenn jedes Feld gefüllt ist." },
      ],
    },
    {
      id: "R13",
      title: { en: "R13 · Rumis+: orange, violet, five and six players", de: "R13 · Rumis+: Orange, Violett, fünf und sechs Personen" },
      body: [
        { en: "Orange and violet are the fifth and sixth colours. Five or six play on the larger boards (Chaka, Huaca, Incahuasi, where their tables allow).", de: "Orange und Violett sind die fünfte und sechste Farbe. Zu fünft oder sechst spielt ihr auf den großen Plänen (Chaka, Huaca, Incahuasi, soweit ihre Tabellen es erlauben)." },
      ],
    },
    {
      id: "R14",
      title: { en: "R14 · Five and six: first stones touch by edges", de: "R14 · Zu fünft und sechst: erste Steine nur über Kanten" },
      body: [
        { en: "So that the starter is not walled in at once, first stones may touch each other only along edges. Every first stone after the starter's lies on the board, touches a placed stone along an edge, and touches no other first stone face to face.", de: "Damit die Startperson nicht sofort eingemauert wird, dürfen sich erste Steine nur an Kanten berühren. Jeder erste Stein nach dem der Startperson liegt auf dem Plan, berührt einen liegenden Stein an einer Kante und berührt keinen anderen ersten Stein mit einer Fläche." },
      ],
    },
    {
      id: "R15",
      title: { en: "R15 · The inverse variant", de: "R15 · Die inverse Variante" },
      body: [
        { en: "For five and six players: no stone may touch a stone of its own colour face to face. Every stone after your first must touch a stone of another colour face to face.", de: "Für fünf und sechs Personen: kein Stein darf einen Stein der eigenen Farbe mit einer Fläche berühren. Jeder Stein nach deinem ersten muss einen Stein einer anderen Farbe mit einer Fläche berühren." },
      ],
    },
    {
      id: "R16",
      title: { en: "R16 · The dismantling game (two players)", de: "R16 · Die Abbauvariante (zu zweit)" },
      body: [
        { en: "On Colca, Puncu or Apachita. First you build by the normal rules inside the red line until nobody can place there. Interim score: your visible squares minus your unplaced stones; unplaced stones leave the game.", de: "Auf Colca, Puncu oder Apachita. Zuerst baut ihr nach den normalen Regeln innerhalb der roten Linie, bis dort niemand mehr legen kann. Zwischenwertung: sichtbare eigene Felder minus nicht verbaute Steine; nicht verbaute Steine scheiden aus." },
        { en: "- Then whoever placed last begins, and you take turns: take one of your stones off inside the red line, so that no hole is left under another stone (compulsory while possible), then place it outside the red line.", de: "- Dann beginnt, wer zuletzt gelegt hat, und ihr wechselt euch ab: einen eigenen Stein innerhalb der roten Linie abbauen, ohne dass unter einem anderen Stein ein Loch bleibt (Pflicht, solange es geht), und ihn außerhalb der roten Linie wieder setzen." },
        { en: "- Your first rebuilt stone lies on the board and touches one of your stones inside the red line; later ones follow R7; no cube may enter the red area. Who cannot take a stone off is out; who cannot place the stone taken off sets it aside and is out.", de: "- Dein erster wieder aufgebauter Stein liegt auf dem Plan und berührt einen deiner Steine innerhalb der roten Linie; weitere folgen R7; kein Würfel darf in den roten Bereich. Wer nicht abbauen kann, ist raus; wer den abgebauten Stein nicht unterbringt, legt ihn beiseite und ist raus." },
        { en: "- Final score: the interim score + your visible squares outside the red line − 1 per stone set aside or still inside the red line.", de: "- Schlusswertung: Zwischenwertung + sichtbare eigene Felder außerhalb der roten Linie − 1 je beiseitegelegtem oder innerhalb gebliebenem Stein." },
      ],
    },
    {
      id: "faq",
      title: { en: "Questions players ask", de: "Häufige Fragen" },
      body: [
        { en: "- Where may the first stone go? The game's first stone anywhere in the area; every other first stone beside a placed stone and on the board (R6).", de: "- Wohin darf der erste Stein? Der erste Stein des Spiels irgendwohin in die Fläche; jeder andere erste Stein an einen liegenden Stein und auf den Plan (R6)." },
        { en: "- May I build on other colours? Yes, they may carry your stone, but it must also touch your own colour (R7).", de: "- Darf ich auf fremde Farben bauen? Ja, sie dürfen deinen Stein tragen, aber er muss auch die eigene Farbe berühren (R7)." },
        { en: "- Can I come back after passing? No: who cannot place is out for good (R8).", de: "- Kann ich nach dem Aussetzen wieder einsteigen? Nein: wer nicht legen kann, ist endgültig raus (R8)." },
        { en: "- How high may I build? As the scenario's table says for your player count; this client draws the limit as an outline (R4).", de: "- Wie hoch darf ich bauen? So, wie die Tabelle des Szenarios für eure Spielerzahl sagt; dieses Programm zeichnet die Grenze als Umriss (R4)." },
        { en: "- Who wins a tie? Nobody alone: tied players share the win (R9).", de: "- Wer gewinnt bei Gleichstand? Niemand allein: wer gleich viele Punkte hat, teilt sich den Sieg (R9)." },
      ],
    },
    {
      id: "mistakes",
      title: { en: "Common mistakes", de: "Häufige Irrtümer" },
      body: [
        { en: "- “I may build anywhere.” Only first stones may join other colours; later ones must touch your own (R7).", de: "- „Ich darf überall anbauen.“ Nur erste Steine dürfen an fremde Farben; spätere müssen die eigene berühren (R7)." },
        { en: "- “An edge is enough.” A whole face is needed, beside or on top (R2, R7).", de: "- „Eine Kante reicht.“ Nötig ist eine ganze Fläche, daneben oder obendrauf (R2, R7)." },
        { en: "- “An overhang is fine if it holds.” No hole may stay under any stone (R3).", de: "- „Ein Überhang geht, wenn er hält.“ Unter keinem Stein darf ein Loch bleiben (R3)." },
        { en: "- “All placed cubes count.” Only the squares seen from above count, and every unplaced stone costs one (R9).", de: "- „Alle verbauten Würfel zählen.“ Es zählen nur die von oben sichtbaren Felder, und jeder nicht verbaute Stein kostet einen Punkt (R9)." },
      ],
    },
  ],
};

// The lobby's picture of Rumis (issue #46, point 1): a small fixed build drawn once by
// the game's own scene in an offscreen container, kept as an image, and the renderer
// let go. `/picture/rumis` shows it; the lobby shows the same picture as a static PNG
// (web/public/pictures/rumis-build.png, written by the `lobby-picture` browser
// scenario with RUMI_WRITE_PICTURE=1), so that the lobby loads no three.js.
import type { RumisCube, RumisScenario } from "../api";
import { heightMap } from "./geometry";
import { RumisScene } from "./scene";

const W = 5;
const D = 4;
/** A 5×4 plan, lower at the edges, as the printed scenarios are. */
const LIMITS = [
  [0, 2, 2, 2, 0],
  [2, 3, 3, 3, 2],
  [2, 3, 3, 3, 2],
  [0, 2, 2, 2, 0],
];
/** Stones of three players, some resting on others: [x, y, z, colour]. */
const CUBES: [number, number, number, string][] = [
  [1, 1, 0, "red"], [2, 1, 0, "red"], [1, 2, 0, "red"],
  [3, 1, 0, "blue"], [3, 2, 0, "blue"], [4, 2, 0, "blue"],
  [2, 2, 0, "green"], [2, 3, 0, "green"], [1, 3, 0, "green"],
  [2, 1, 1, "blue"], [2, 2, 1, "blue"], [3, 2, 1, "blue"],
  [1, 1, 1, "green"], [1, 2, 1, "green"],
  [2, 2, 2, "red"], [2, 1, 2, "red"],
];

/** The build as a PNG data address of `width`×`height` pixels: drawn a quarter larger
 * (the scene leaves room around the board) and its middle kept. */
export async function rumisPicture(width: number, height: number): Promise<string> {
  const box = document.createElement("div");
  box.style.cssText = `position:fixed;left:-10000px;top:0;width:${width * 1.25}px;height:${height * 1.25}px;`;
  document.body.append(box);
  const scene = new RumisScene(box, () => {}, () => {});
  try {
    const scenario: RumisScenario = { key: "lobby", name: "", width: W, depth: D, limits: LIMITS };
    const cubes: RumisCube[] = CUBES.map(([x, y, z, colour]) => ({ x, y, z, colour, stone: null }));
    scene.setBoard(scenario);
    scene.setCubes(cubes, heightMap(W, D, cubes), []);
    // Two frames: the resize and the drawing.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const c = scene.canvas;
    const out = document.createElement("canvas");
    out.width = width;
    out.height = height;
    const [sw, sh] = [c.width * 0.8, c.height * 0.8];
    out.getContext("2d")!.drawImage(c, (c.width - sw) / 2, (c.height - sh) / 2 + c.height * 0.03, sw, sh, 0, 0, width, height);
    return out.toDataURL("image/png");
  } finally {
    scene.destroy();
    box.remove();
  }
}

/** The `/picture/rumis` page: the build drawn live. */
export async function showPicture(app: HTMLElement): Promise<void> {
  const img = document.createElement("img");
  img.alt = "Rumis";
  img.dataset.testid = "live-picture";
  img.width = 480;
  img.height = 300;
  app.append(img);
  img.src = await rumisPicture(480, 300);
  img.dataset.drawn = "true";
}

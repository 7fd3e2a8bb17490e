// The Rumis build in 3D: board, footprint and height limits, placed cubes, the ghost,
// orbit and zoom, and a top view (orthographic, from above) for scoring.
//
// Board coordinates (x column, y row, z level) map to three.js as X = x, Y = z (up),
// Z = y, so row 1 is at the back and column a on the left, as on the printed plan.
//
// Every geometry, material and texture is made once and reused: materials by colour,
// last-stone rank, ghost verdict and label (a ghost hover makes none), the cube, ring and
// label shapes once per scene; the board's own shapes when its scenario changes, the old
// ones disposed then. `destroy` disposes all of them and the WebGL context.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import type { Cell, RumisCube, RumisScenario } from "../api";
import { columnName, type HeightMap } from "./geometry";

import { CONTRAST_EVENT, highContrast } from "../contrast";
import { colourCss, colourPattern, colourSymbol, inkOn } from "./palette";
export { colourHex } from "./palette";

/** Where a column's height stands in the top view (from the cell's corner, in cells)
 * and how large: beside the symbol, which takes the face's middle. */
const HEIGHT_LABEL_AT = 0.16;
const HEIGHT_LABEL_SIZE = 0.3;
/** The symbol's font size, as a share of the face (its glyph is at most 0.4 of it). */
const SYMBOL_SIZE = 0.5;

/** Size of a face's texture, in texels. */
const FACE = 128;

/** A cube face: the colour with its pattern and symbol (colour is never the only sign:
 * the pattern still reads where a face is a few pixels wide, the symbol where it is
 * larger), as a texture. High contrast: bolder patterns and a dark rim. */
function faceTexture(colour: string, high: boolean): THREE.CanvasTexture {
  const c = document.createElement("canvas");
  c.width = FACE;
  c.height = FACE;
  const g = c.getContext("2d")!;
  g.fillStyle = colourCss(colour);
  g.fillRect(0, 0, FACE, FACE);
  const dark = inkOn(colour) === "#000000";
  const ink = (alpha: number) => (dark ? `rgba(0,0,0,${alpha})` : `rgba(255,255,255,${alpha})`);
  g.fillStyle = ink(high ? 0.5 : 0.22);
  g.strokeStyle = g.fillStyle;
  drawPattern(g, colourPattern(colour), high);
  if (high) {
    g.strokeStyle = "rgba(0,0,0,0.85)";
    g.lineWidth = 10;
    g.strokeRect(5, 5, FACE - 10, FACE - 10);
  }
  const symbol = colourSymbol(colour);
  if (symbol) {
    g.fillStyle = ink(high ? 0.95 : 0.75);
    g.font = `bold ${Math.round(FACE * SYMBOL_SIZE)}px sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(symbol, FACE / 2, FACE * 0.54);
  }
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.anisotropy = 4;
  return tex;
}

/** A face's pattern, in the current fill and stroke: each colour its own. */
function drawPattern(g: CanvasRenderingContext2D, pattern: string, high: boolean): void {
  const step = FACE / 4;
  g.lineWidth = high ? 9 : 6;
  g.beginPath();
  switch (pattern) {
    case "dots":
      for (let y = step / 2; y < FACE; y += step) for (let x = step / 2; x < FACE; x += step) g.moveTo(x + 6, y), g.arc(x, y, high ? 8 : 6, 0, Math.PI * 2);
      g.fill();
      return;
    case "checks":
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) if ((x + y) % 2 === 0) g.rect(x * step, y * step, step, step);
      g.fill();
      return;
    case "rows":
      for (let y = step / 2; y < FACE; y += step) g.moveTo(0, y), g.lineTo(FACE, y);
      break;
    case "columns":
      for (let x = step / 2; x < FACE; x += step) g.moveTo(x, 0), g.lineTo(x, FACE);
      break;
    case "diagonals":
      for (let d = -FACE; d < FACE; d += step) g.moveTo(d, FACE), g.lineTo(d + FACE, 0);
      break;
    case "crosses":
      for (let d = -FACE; d < FACE; d += step) g.moveTo(d, FACE), g.lineTo(d + FACE, 0), g.moveTo(d, 0), g.lineTo(d + FACE, FACE);
      break;
    default:
      return;
  }
  g.stroke();
}

export interface Hover {
  x: number;
  y: number;
}

type Resource = THREE.BufferGeometry | THREE.Material | THREE.Texture;

/** The geometries, materials and textures that scenes made and have not disposed yet,
 * all scenes of the page together (a scene left undisposed keeps its own here). */
const live = { geometries: 0, materials: 0, textures: 0 };

function kind(r: Resource): keyof typeof live {
  return r instanceof THREE.BufferGeometry ? "geometries" : r instanceof THREE.Material ? "materials" : "textures";
}

/** What the page's scenes hold (for the browser test that hovering and coming back
 * leak nothing). */
export function liveResources(): { geometries: number; materials: number; textures: number } {
  return { ...live };
}

declare global {
  interface Window {
    /** What the page's scenes hold, also once every board is gone (a test hook). */
    __rumisLive?: typeof liveResources;
  }
}
window.__rumisLive = liveResources;

/** What one scene holds: the renderer's count of geometries and textures on the GPU and
 * the scene's own materials. */
export interface SceneMemory {
  geometries: number;
  textures: number;
  materials: number;
}

export class RumisScene {
  readonly canvas: HTMLCanvasElement;
  private renderer: THREE.WebGLRenderer;
  private scene = new THREE.Scene();
  private perspective: THREE.PerspectiveCamera;
  private ortho: THREE.OrthographicCamera;
  private controls: OrbitControls;
  private topView = false;
  private boardGroup = new THREE.Group();
  private cubeGroup = new THREE.Group();
  private ghostGroup = new THREE.Group();
  private markGroup = new THREE.Group();
  private heightGroup = new THREE.Group();
  /** Milliseconds from navigation start to the first frame with the board drawn. */
  firstFrameMs: number | null = null;
  private pickables: THREE.Object3D[] = [];
  private scenarioKey = "";
  private width = 0;
  private depth = 0;
  private maxHeight = 1;
  private heights: HeightMap = [];
  private raycaster = new THREE.Raycaster();
  private pending = false;
  private destroyed = false;
  /** Everything this scene made and has not disposed: `destroy` disposes it. */
  private owned = new Set<Resource>();
  /** Materials by what they show (`cube:red:2`, `ghost:legal`, `label:…`). */
  private materials = new Map<string, THREE.Material>();
  /** The board's shapes of the scenario on show, disposed when another comes. */
  private boardResources: Resource[] = [];
  private redLineGeometry: THREE.BufferGeometry | null = null;
  private cubeGeometry = this.own(new THREE.BoxGeometry(0.97, 0.97, 0.97));
  private edgeGeometry: THREE.EdgesGeometry;
  private ringGeometry = this.own(new THREE.RingGeometry(0.16, 0.3, 24).rotateX(-Math.PI / 2));
  private outerGeometry = this.own(new THREE.RingGeometry(0.3, 0.36, 24).rotateX(-Math.PI / 2));
  private discGeometry = this.own(new THREE.CircleGeometry(0.46, 16).rotateX(-Math.PI / 2));
  private resize: ResizeObserver;

  constructor(
    private container: HTMLElement,
    private onHover: (hover: Hover | null) => void,
    private onClick: (hover: Hover | null, touch: boolean) => void,
  ) {
    const box = new THREE.BoxGeometry(0.97, 0.97, 0.97);
    this.edgeGeometry = this.own(new THREE.EdgesGeometry(box));
    box.dispose();
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.canvas = this.renderer.domElement;
    this.canvas.setAttribute("data-testid", "rumis-canvas");
    this.canvas.tabIndex = 0;
    container.append(this.canvas);
    this.scene.background = new THREE.Color(0xf4efe6);
    this.perspective = new THREE.PerspectiveCamera(45, 1, 0.1, 200);
    this.ortho = new THREE.OrthographicCamera(-5, 5, 5, -5, 0.1, 200);
    this.controls = new OrbitControls(this.perspective, this.canvas);
    this.controls.addEventListener("change", () => this.requestRender());
    this.controls.addEventListener("start", () => (this.userMoved = true));
    window.addEventListener(CONTRAST_EVENT, this.contrastChanged);
    // Touch: one finger turns the build, two fingers pinch to zoom and turn it.
    this.controls.touches = { ONE: THREE.TOUCH.ROTATE, TWO: THREE.TOUCH.DOLLY_ROTATE };
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a7d6b, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(-4, 12, 7);
    this.scene.add(sun);
    this.scene.add(this.boardGroup, this.cubeGroup, this.ghostGroup, this.markGroup, this.heightGroup);
    this.heightGroup.visible = false;

    let down: { x: number; y: number } | null = null;
    this.canvas.addEventListener("pointermove", (e) => this.onHover(this.pick(e.clientX, e.clientY)));
    this.canvas.addEventListener("pointerleave", () => this.onHover(null));
    this.canvas.addEventListener("pointerdown", (e) => (down = { x: e.clientX, y: e.clientY }));
    this.canvas.addEventListener("pointerup", (e) => {
      if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 10) this.onClick(this.pick(e.clientX, e.clientY), e.pointerType === "touch");
      down = null;
    });
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(container);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    window.removeEventListener(CONTRAST_EVENT, this.contrastChanged);
    for (const r of [...this.owned]) this.release(r);
    this.materials.clear();
    this.textures.clear();
    this.boardResources = [];
    this.resize.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    // (the page may make many boards, the browser allows few WebGL contexts at once)
    this.renderer.forceContextLoss();
  }

  /** Keeps a made geometry, material or texture to dispose with the scene. */
  private own<T extends Resource>(r: T): T {
    if (!this.owned.has(r)) {
      this.owned.add(r);
      live[kind(r)]++;
    }
    return r;
  }

  private release(r: Resource): void {
    if (!this.owned.delete(r)) return;
    live[kind(r)]--;
    r.dispose();
  }

  /** The material of a key, made the first time it is asked for. */
  private material<T extends THREE.Material>(key: string, make: () => T): T {
    let m = this.materials.get(key) as T | undefined;
    if (!m) this.materials.set(key, (m = this.own(make())));
    return m;
  }

  /** The renderer's geometries and textures and this scene's materials (a test hook). */
  memory(): SceneMemory {
    const { geometries, textures } = this.renderer.info.memory;
    let materials = 0;
    for (const r of this.owned) if (r instanceof THREE.Material) materials++;
    return { geometries, textures, materials };
  }

  private camera(): THREE.Camera {
    return this.topView ? this.ortho : this.perspective;
  }

  private fit(): void {
    const w = Math.max(100, this.container.clientWidth);
    const hgt = Math.max(100, this.container.clientHeight);
    this.renderer.setSize(w, hgt, false);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${hgt}px`;
    this.perspective.aspect = w / hgt;
    this.perspective.updateProjectionMatrix();
    if (!this.userMoved && this.scenarioKey) this.frame();
    this.fitOrtho();
    this.requestRender();
  }

  /** Whether the player turned or zoomed the view (then a resize keeps their view). */
  private userMoved = false;

  /** The camera in front, to the right and above, as near as the whole allowed space
   * (board and height limits) still fits the canvas, in portrait as in landscape. */
  private frame(): void {
    const cx = this.width / 2;
    const cz = this.depth / 2;
    const size = Math.max(this.width, this.depth, this.maxHeight);
    const target = new THREE.Vector3(cx, Math.min(this.maxHeight / 3, 2), cz);
    const dir = new THREE.Vector3(size * 0.6, this.maxHeight + size * 1.3, size * 1.9).normalize();
    const radius = 0.5 * Math.hypot(this.width + 1, this.maxHeight, this.depth + 1);
    const vfov = (this.perspective.fov * Math.PI) / 180;
    const hfov = 2 * Math.atan(Math.tan(vfov / 2) * this.perspective.aspect);
    const distance = (radius / Math.sin(Math.min(vfov, hfov) / 2)) * 0.92;
    this.controls.target.copy(target);
    this.perspective.position.copy(target).addScaledVector(dir, distance);
    this.controls.update();
  }

  private fitOrtho(): void {
    const w = Math.max(100, this.container.clientWidth);
    const hgt = Math.max(100, this.container.clientHeight);
    const aspect = w / hgt;
    const span = Math.max(this.width + 2, (this.depth + 2) * aspect) / 2;
    this.ortho.left = -span;
    this.ortho.right = span;
    this.ortho.top = span / aspect;
    this.ortho.bottom = -span / aspect;
    this.ortho.updateProjectionMatrix();
  }

  requestRender(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      if (this.destroyed) return;
      this.renderer.render(this.scene, this.camera());
      if (this.firstFrameMs === null && this.scenarioKey) {
        this.firstFrameMs = performance.now();
        this.canvas.dataset.firstFrameMs = String(Math.round(this.firstFrameMs));
      }
    });
  }

  /** The board is drawn again only when the scenario changes. */
  setBoard(scenario: RumisScenario): void {
    const key = JSON.stringify([scenario.key, scenario.limits]);
    if (key === this.scenarioKey) return;
    this.scenarioKey = key;
    this.width = scenario.width;
    this.depth = scenario.depth;
    this.maxHeight = Math.max(1, ...scenario.limits.flat());
    this.boardGroup.clear();
    for (const r of this.boardResources) this.release(r);
    this.pickables = [];
    const limit = (x: number, y: number) => scenario.limits[y]?.[x] ?? 0;
    const mine = <T extends Resource>(r: T): T => (this.boardResources.push(r), this.own(r));

    // The plan: a base slab, footprint squares, the rest of the grid darker.
    const base = new THREE.Mesh(mine(new THREE.BoxGeometry(this.width + 1, 0.2, this.depth + 1)), this.material("base", () => new THREE.MeshStandardMaterial({ color: 0x8b6d4c })));
    base.position.set(this.width / 2, -0.1, this.depth / 2);
    this.boardGroup.add(base);
    const inMat = this.material("square:in", () => new THREE.MeshStandardMaterial({ color: 0xe9dcc0 }));
    const outMat = this.material("square:out", () => new THREE.MeshStandardMaterial({ color: 0x6f5a42 }));
    const square = mine(new THREE.PlaneGeometry(0.94, 0.94));
    square.rotateX(-Math.PI / 2);
    for (let y = 0; y < this.depth; y++) {
      for (let x = 0; x < this.width; x++) {
        const m = new THREE.Mesh(square, limit(x, y) > 0 ? inMat : outMat);
        m.position.set(x + 0.5, 0.002, y + 0.5);
        m.userData = { column: { x, y } };
        this.boardGroup.add(m);
        this.pickables.push(m);
      }
    }

    // Height limits: the outline of the allowed space, a square at each column's limit
    // and vertical edges where the limit steps down (or the footprint ends).
    const pts: number[] = [];
    const seg = (a: number[], b: number[]) => pts.push(...a, ...b);
    for (let y = 0; y < this.depth; y++) {
      for (let x = 0; x < this.width; x++) {
        const l = limit(x, y);
        if (l <= 0) continue;
        const x0 = x, x1 = x + 1, z0 = y, z1 = y + 1;
        seg([x0, l, z0], [x1, l, z0]);
        seg([x1, l, z0], [x1, l, z1]);
        seg([x1, l, z1], [x0, l, z1]);
        seg([x0, l, z1], [x0, l, z0]);
        const sides: [number, number, number[], number[]][] = [
          [x - 1, y, [x0, z0], [x0, z1]],
          [x + 1, y, [x1, z0], [x1, z1]],
          [x, y - 1, [x0, z0], [x1, z0]],
          [x, y + 1, [x0, z1], [x1, z1]],
        ];
        for (const [nx, ny, p, q] of sides) {
          const nl = limit(nx, ny);
          if (nl < l) {
            seg([p[0], nl, p[1]], [p[0], l, p[1]]);
            seg([q[0], nl, q[1]], [q[0], l, q[1]]);
            if (nl === 0) seg([p[0], 0, p[1]], [q[0], 0, q[1]]);
          }
        }
      }
    }
    const lines = mine(new THREE.BufferGeometry());
    lines.setAttribute("position", new THREE.Float32BufferAttribute(pts, 3));
    this.boardGroup.add(new THREE.LineSegments(lines, this.material("limits", () => new THREE.LineBasicMaterial({ color: 0x7a5c3a, transparent: true, opacity: 0.45 }))));

    // Labels: column letters in front, row numbers on the left.
    for (let x = 0; x < this.width; x++) this.boardGroup.add(this.label(columnName(x).toUpperCase(), x + 0.5, this.depth + 0.35));
    for (let y = 0; y < this.depth; y++) this.boardGroup.add(this.label(String(y + 1), -0.35, y + 0.5));

    const cx = this.width / 2;
    const cz = this.depth / 2;
    this.userMoved = false;
    this.frame();
    this.ortho.position.set(cx, 60, cz);
    this.ortho.up.set(0, 0, -1);
    this.ortho.lookAt(cx, 0, cz);
    this.fit();
  }

  /** The placed cubes; `lastStones` (latest first) are each colour's last stone, lit up. */
  setCubes(cubes: RumisCube[], heights: HeightMap, lastStones: number[]): void {
    this.heights = heights;
    this.setHeights(heights);
    this.cubeGroup.clear();
    const edgeMat = this.material("edge", () => new THREE.LineBasicMaterial({ color: 0x222222, transparent: true, opacity: 0.35 }));
    const lastEdge = this.material("edge:last", () => new THREE.LineBasicMaterial({ color: 0xffffff }));
    for (const c of cubes) {
      const rank = c.stone === null ? -1 : lastStones.indexOf(c.stone);
      const lit = rank === 0 ? 2 : rank > 0 ? 1 : 0;
      const key = `cube:${c.colour}:${lit}`;
      const mat = this.material(key, () => this.cubeMaterial(c.colour, lit));
      const m = new THREE.Mesh(this.cubeGeometry, mat);
      m.position.set(c.x + 0.5, c.z + 0.5, c.y + 0.5);
      m.userData = { column: { x: c.x, y: c.y }, cube: true, stone: c.stone, colour: c.colour, material: key };
      const e = new THREE.LineSegments(this.edgeGeometry, rank >= 0 ? lastEdge : edgeMat);
      e.position.copy(m.position);
      this.cubeGroup.add(m, e);
    }
    this.requestRender();
  }

  /** Lights the given stones (indexes in `history`) up for a moment: a player sees where
   * the others just placed. Pulsing twice; one steady glow where motion is unwanted. The
   * cubes drawn again meanwhile (the same view once more) go on glowing. */
  flash(stones: number[]): void {
    const id = ++this.flashes;
    this.flashing = { stones: new Set(stones), start: performance.now(), id };
    this.container.dataset.flash = stones.join(",");
    this.container.dataset.flashes = String(id);
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    const step = () => {
      const f = this.flashing;
      if (!f || f.id !== id) return;
      const k = Math.min(1, (performance.now() - f.start) / 1600);
      this.paintFlash(k >= 1 ? 0 : still ? 0.8 : 0.85 * Math.abs(Math.sin(k * Math.PI * 2)) * (1 - k / 2));
      this.requestRender();
      if (k < 1) requestAnimationFrame(step);
      else {
        this.flashing = null;
        delete this.container.dataset.flash;
      }
    };
    step();
  }
  private flashes = 0;
  private flashing: { stones: Set<number>; start: number; id: number } | null = null;

  private paintFlash(amount: number): void {
    const f = this.flashing;
    if (!f) return;
    const glow = new THREE.Color(0xffd34d);
    for (const o of this.cubeGroup.children) {
      if (!(o instanceof THREE.Mesh) || !f.stones.has(o.userData.stone)) continue;
      // (a material of its own: the colour's is shared by all its cubes; one per colour
      // and rank, kept for the next flash)
      const base = o.userData.material as string;
      const mat = this.material(`flash:${base}`, () => (this.materials.get(base) as THREE.MeshStandardMaterial).clone());
      o.material = mat;
      mat.emissive.copy((this.materials.get(base) as THREE.MeshStandardMaterial).emissive).lerp(glow, amount);
    }
  }

  /** A cube's material: its colour's face, lit up for the last stones (`lit` 2: the
   * latest move, 1: each colour's last stone). */
  private cubeMaterial(colour: string, lit: number): THREE.MeshStandardMaterial {
    const m = new THREE.MeshStandardMaterial({ map: this.texture(colour), emissive: lit === 2 ? 0x444444 : lit === 1 ? 0x222222 : 0x000000, roughness: 0.7 });
    m.userData.colour = colour;
    return m;
  }

  private textures = new Map<string, THREE.CanvasTexture>();
  private texture(colour: string): THREE.CanvasTexture {
    let tex = this.textures.get(colour);
    if (!tex) this.textures.set(colour, (tex = this.own(faceTexture(colour, highContrast()))));
    return tex;
  }

  /** The contrast setting changed: new faces for the cubes' materials. */
  private contrastChanged = (): void => {
    for (const tex of this.textures.values()) this.release(tex);
    this.textures.clear();
    for (const mat of this.materials.values()) {
      const colour = mat.userData.colour as string | undefined;
      if (!colour || !(mat instanceof THREE.MeshStandardMaterial)) continue;
      mat.map = this.texture(colour);
      mat.needsUpdate = true;
    }
    this.requestRender();
  };

  private redLineKey = "";
  private redGroup = new THREE.Group();
  /** The dismantling game's red line (R16): the border of the columns inside it. */
  setRedLine(inside: boolean[][] | null): void {
    const key = JSON.stringify(inside);
    if (key === this.redLineKey) return;
    this.redLineKey = key;
    this.redGroup.clear();
    if (this.redLineGeometry) this.release(this.redLineGeometry);
    this.redLineGeometry = null;
    if (!this.redGroup.parent) this.scene.add(this.redGroup);
    if (!inside) return this.requestRender();
    const at = (x: number, y: number) => !!inside[y]?.[x];
    const pts: number[] = [];
    for (let y = 0; y < inside.length; y++)
      for (let x = 0; x < (inside[y]?.length ?? 0); x++) {
        if (!at(x, y)) continue;
        if (!at(x - 1, y)) pts.push(x, 0.03, y, x, 0.03, y + 1);
        if (!at(x + 1, y)) pts.push(x + 1, 0.03, y, x + 1, 0.03, y + 1);
        if (!at(x, y - 1)) pts.push(x, 0.03, y, x + 1, 0.03, y);
        if (!at(x, y + 1)) pts.push(x, 0.03, y + 1, x + 1, 0.03, y + 1);
      }
    const g = (this.redLineGeometry = this.own(new THREE.BufferGeometry()));
    g.setAttribute("position", new THREE.Float32BufferAttribute(pts, 3));
    this.redGroup.add(new THREE.LineSegments(g, this.material("red-line", () => new THREE.LineBasicMaterial({ color: 0xd0021b }))));
    this.requestRender();
  }

  /** The column heights as numbers, seen in the top view. */
  private setHeights(heights: HeightMap): void {
    this.heightGroup.clear();
    heights.forEach((row, y) =>
      row.forEach((hgt, x) => {
        if (hgt <= 0) return;
        // In the cell's corner, beside the stone's symbol, not on it.
        // (drawn over the build: a label of its own material)
        const s = this.label(String(hgt), x + HEIGHT_LABEL_AT, y + HEIGHT_LABEL_AT, "#1b1b1b", "#ffffffe6", false);
        s.position.y = hgt + 0.05;
        s.scale.set(HEIGHT_LABEL_SIZE, HEIGHT_LABEL_SIZE, HEIGHT_LABEL_SIZE);
        s.renderOrder = 10;
        this.heightGroup.add(s);
      }),
    );
  }

  /** The columns where the selected stone fits (anchor of a legal placement): rings
   * drawn over everything (a tower in front does not hide them) and picked before the
   * build, each with a wider invisible disc, so a mark behind a tower can be pointed at. */
  setMarks(marks: Hover[], heights: HeightMap): void {
    this.markGroup.clear();
    const mat = this.material("mark", () => new THREE.MeshBasicMaterial({ color: 0x1565c0, transparent: true, opacity: 0.85, depthWrite: false, depthTest: false }));
    const halo = this.material("mark:halo", () => new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.75, depthWrite: false, depthTest: false }));
    const hit = this.material("mark:hit", () => new THREE.MeshBasicMaterial({ transparent: true, opacity: 0, depthWrite: false, depthTest: false }));
    const [ring, outer, disc] = [this.ringGeometry, this.outerGeometry, this.discGeometry];
    for (const m of marks) {
      const y = (heights[m.y]?.[m.x] ?? 0) + 0.02;
      const mesh = new THREE.Mesh(ring, mat);
      const rim = new THREE.Mesh(outer, halo);
      const pick = new THREE.Mesh(disc, hit);
      for (const o of [mesh, rim, pick]) {
        o.position.set(m.x + 0.5, y, m.y + 0.5);
        o.renderOrder = 5;
      }
      pick.userData = { column: { x: m.x, y: m.y }, mark: true };
      this.markGroup.add(rim, mesh, pick);
    }
    this.requestRender();
  }

  setGhost(cells: Cell[] | null, legal: boolean): void {
    this.ghostGroup.clear();
    if (cells) {
      // Green where legal; red where not, paler and with bright edges so that it does
      // not read as a red player's stone.
      const verdict = legal ? "legal" : "illegal";
      const mat = this.material(`ghost:${verdict}`, () => new THREE.MeshStandardMaterial({ color: legal ? 0x2fd35a : 0xff3030, emissive: legal ? 0x0b4a1a : 0x550000, transparent: true, opacity: legal ? 0.6 : 0.38, depthWrite: false }));
      const edge = this.material(`ghost-edge:${verdict}`, () => new THREE.LineBasicMaterial({ color: legal ? 0x0b6a24 : 0xffe000 }));
      for (const [x, y, z] of cells) {
        const m = new THREE.Mesh(this.cubeGeometry, mat);
        m.position.set(x + 0.5, z + 0.5, y + 0.5);
        const e = new THREE.LineSegments(this.edgeGeometry, edge);
        e.position.copy(m.position);
        this.ghostGroup.add(m, e);
      }
    }
    this.requestRender();
  }

  setTopView(on: boolean): void {
    this.topView = on;
    this.controls.enabled = !on;
    this.heightGroup.visible = on;
    this.fitOrtho();
    this.requestRender();
  }

  isTopView(): boolean {
    return this.topView;
  }

  /** The column under a point of the page: a board square, or a cube's column (a side face gives the neighbour). */
  pick(clientX: number, clientY: number): Hover | null {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera());
    // A mark wins over whatever is in front of it (marks are drawn on top).
    const marks = this.raycaster.intersectObjects(this.markGroup.children.filter((o) => o.userData.mark), false);
    if (marks.length) return marks[0].object.userData.column as Hover;
    const cubes = this.cubeGroup.children.filter((o) => o.userData.cube);
    const hits = this.raycaster.intersectObjects([...cubes, ...this.pickables], false);
    for (const hit of hits) {
      const col = hit.object.userData.column as Hover | undefined;
      if (!col) continue;
      if (hit.object.userData.cube && hit.face) {
        const n = hit.face.normal;
        if (Math.abs(n.y) > 0.5) return col;
        return { x: col.x + Math.round(n.x), y: col.y + Math.round(n.z) };
      }
      return col;
    }
    return null;
  }

  /** Whether a column's top centre is hidden behind a cube nearer the camera (for tests:
   * a mark behind a tower). */
  hiddenColumn(x: number, y: number): boolean {
    const h = this.heights[y]?.[x] ?? 0;
    const target = new THREE.Vector3(x + 0.5, h + 0.02, y + 0.5);
    const cam = this.camera();
    const from = this.topView ? new THREE.Vector3(target.x, 60, target.z) : cam.position.clone();
    const dir = target.clone().sub(from);
    const dist = dir.length();
    const ray = new THREE.Raycaster(from, dir.normalize(), 0, dist - 0.05);
    return ray.intersectObjects(this.cubeGroup.children.filter((o) => o.userData.cube), false).length > 0;
  }

  /** The 3D camera's distance and turn around the build (for tests of the gestures). */
  cameraState(): { distance: number; azimuth: number; polar: number } {
    return { distance: this.controls.getDistance(), azimuth: this.controls.getAzimuthalAngle(), polar: this.controls.getPolarAngle() };
  }

  /** Page rectangles, in the top view, of a column's height label and of its face's
   * symbol (the middle of the face), for the test that the one is beside the other. */
  topViewBoxes(x: number, y: number): { label: DOMRect; symbol: DOMRect } {
    const hgt = this.heights[y]?.[x] ?? 0;
    const rect = this.canvas.getBoundingClientRect();
    const page = (px: number, pz: number) => {
      const v = new THREE.Vector3(px, hgt + 0.001, pz).project(this.camera());
      return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
    };
    const box = (cx: number, cz: number, half: number) => {
      const a = page(cx - half, cz - half);
      const b = page(cx + half, cz + half);
      return new DOMRect(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.abs(b.x - a.x), Math.abs(b.y - a.y));
    };
    // The label's disc is 26/32 of its sprite; the symbol's glyph at most 0.8 of its font.
    return {
      label: box(x + HEIGHT_LABEL_AT, y + HEIGHT_LABEL_AT, (HEIGHT_LABEL_SIZE / 2) * (26 / 32)),
      symbol: box(x + 0.5, y + 0.5, (SYMBOL_SIZE * 0.8) / 2),
    };
  }

  /** Page coordinates of the top centre of a column (for tests and tooltips). */
  columnPoint(x: number, y: number): { x: number; y: number } {
    const h = this.heights[y]?.[x] ?? 0;
    const v = new THREE.Vector3(x + 0.5, h + 0.001, y + 0.5).project(this.camera());
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
  }

  /** A label as a sprite; its text's texture and material are made once per scene. */
  private label(text: string, x: number, z: number, ink = "#f6ead2", back: string | null = null, depthTest = true): THREE.Sprite {
    const material = this.material(`label:${text}:${ink}:${back}:${depthTest}`, () => new THREE.SpriteMaterial({ map: this.own(labelTexture(text, ink, back)), depthTest }));
    const sprite = new THREE.Sprite(material);
    sprite.scale.set(0.45, 0.45, 0.45);
    sprite.position.set(x, 0.25, z);
    return sprite;
  }
}

/** A text drawn on a small canvas (a board label, a column's height). */
function labelTexture(text: string, ink: string, back: string | null): THREE.CanvasTexture {
  const c = document.createElement("canvas");
  c.width = 64;
  c.height = 64;
  const g = c.getContext("2d")!;
  if (back) {
    g.fillStyle = back;
    g.beginPath();
    g.arc(32, 32, 26, 0, Math.PI * 2);
    g.fill();
  }
  g.fillStyle = ink;
  g.font = "bold 40px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(text, 32, 34);
  return new THREE.CanvasTexture(c);
}

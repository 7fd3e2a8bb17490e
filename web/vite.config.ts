import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

/** Files worth compressing, by extension: text, and the rules module (WebAssembly halves). */
const TEXT = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml|map|wasm)$/;

/**
 * Writes `FILE.br` and `FILE.gz` beside every text file of the build that compression
 * makes smaller, once, at the best levels: `rumi serve` embeds them and sends the one
 * the browser accepts (and serves them from a `--web-dir` too).
 */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "rumi-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const path of walk(outDir).filter((p) => TEXT.test(p))) {
        const raw = readFileSync(path);
        const br = brotliCompressSync(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
        if (br.length < raw.length) writeFileSync(`${path}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${path}.gz`, gz);
      }
    },
  };
}

// The rumi server serves web/dist at / (an SPA: unknown paths serve index.html); the
// `rumi` binary embeds it when it is compiled.
// `npm run dev` proxies the API to a running `rumi serve` (RUMI_URL, default :8080).
export default defineConfig({
  plugins: [precompress()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        // three.js is its own chunk; with the Rumis view (chunk `rumis`, src/rumis/rumis.ts)
        // it is fetched by a dynamic import only on Rumis pages: the lobby and Rummikub
        // never load it.
        manualChunks(id: string) {
          return id.includes("/node_modules/three/") ? "three" : undefined;
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: process.env.RUMI_URL ?? "http://127.0.0.1:8080", ws: true },
    },
  },
});

import { defineConfig } from "vite";

// The rumi server serves web/dist at / (an SPA: unknown paths serve index.html).
// `npm run dev` proxies the API to a running `rumi serve` (RUMI_URL, default :8080).
export default defineConfig({
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

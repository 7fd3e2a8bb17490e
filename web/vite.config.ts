import { defineConfig } from "vite";

// The rumi server serves web/dist at / (an SPA: unknown paths serve index.html).
// `npm run dev` proxies the API to a running `rumi serve` (RUMI_URL, default :8080).
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1200 },
  server: {
    proxy: {
      "/api": { target: process.env.RUMI_URL ?? "http://127.0.0.1:8080", ws: true },
    },
  },
});

// Vite turns `?url&no-inline` imports into the URL of the emitted file (never a data:
// URL, which the site's Content-Security-Policy would not let `fetch` load).
declare module "*.wasm?url&no-inline" {
  const url: string;
  export default url;
}

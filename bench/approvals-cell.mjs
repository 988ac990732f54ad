// The approvals part of `npm run bench`, in its own process (spawned by bench/run.mjs): the
// round trip and 10,000 pending approvals in Node, then the same source in headless Chromium
// unless `--no-chromium`. Prints one line of JSON on stdout.
import { approvalBench } from "./approvals.mjs";

const PKG = new URL("../pkg/", import.meta.url);

async function inChromium() {
  const { launchChromium } = await import("../tests/browser/chromium.mjs");
  const { serveRoot } = await import("../tests/differential/serve.mjs");
  const server = await serveRoot();
  const browser = await launchChromium(["--enable-precise-memory-info"]);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}blank.html`);
    return await page.evaluate(
      async ({ source }) => {
        const api = await import("/pkg/web/toolgate.js");
        const t0 = performance.now();
        await api.default();
        const init = performance.now() - t0;
        const bench = new Function(`return (${source})`)();
        return { init, ...(await bench(api)) };
      },
      { source: approvalBench.toString() },
    );
  } finally {
    await browser.close();
    server.close();
  }
}

const api = await import(new URL("node/index.mjs", PKG));
const out = { node: await approvalBench(api) };
if (!process.argv.includes("--no-chromium")) out.chromium = await inChromium();
process.stdout.write(`${JSON.stringify(out)}\n`);

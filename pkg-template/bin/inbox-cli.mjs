// `toolgate inbox [--port N] [--socket PATH]`: starts the approval inbox and prints the
// address that opens it (it carries the start token, which opens one page, once). Stops on
// Ctrl-C or SIGTERM; hooks still waiting then fall back to their agent's own prompt, told why.

import { createRequire } from "node:module";

import { startInbox } from "./inbox-server.mjs";

const USAGE = "usage: toolgate inbox [--port <n>] [--socket <path>]";

/** Runs `toolgate inbox ARGS`; resolves once the inbox is stopped. */
export async function main(args) {
  const options = {};
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === "--port" && /^\d+$/.test(value ?? "")) options.port = Number(value);
    else if (flag === "--socket" && value?.startsWith("/")) options.socket = value;
    else {
      process.stderr.write(`toolgate: error[INVALID_REQUEST] unexpected argument \`${flag}\` (or a missing or bad value)\n  hint: ${USAGE}\n`);
      process.exit(2);
    }
    i++;
  }
  options.engine = createRequire(import.meta.url)("../node/toolgate_bindgen.cjs");
  options.log = (line) => process.stderr.write(`${line}\n`);
  let inbox;
  try {
    inbox = await startInbox(options);
  } catch (e) {
    process.stderr.write(`toolgate: error[STORAGE] the inbox did not start: ${e.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`toolgate inbox: open ${inbox.url}\n(the address opens one page, once; hooks ask on ${inbox.socket}; Ctrl-C stops it)\n`);
  const stop = () => inbox.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

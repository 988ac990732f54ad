// Loads the package's browser build and shows values computed by the wasm engine.
import init, { toolDefaults, version } from "/pkg/web/toolgate.js";

const LEVEL_WORDS = { allow: "runs without asking", prompt: "asks a person", deny: "never runs" };
const TOOLS = ["Read", "Write", "Bash", "WebFetch"];

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

async function main() {
  await init();
  document.getElementById("version").textContent = version();
  const body = document.getElementById("defaults");
  for (const name of TOOLS) {
    const defaults = toolDefaults(name);
    const row = body.insertRow();
    row.dataset.tool = name;
    cell(row, name);
    cell(row, LEVEL_WORDS[defaults.level] ?? defaults.level, `level-${defaults.level}`);
    cell(row, defaults.risk, `risk-${defaults.risk}`);
    cell(row, defaults.trustable ? "yes" : "no");
  }
  try {
    toolDefaults("bash -c");
  } catch (err) {
    document.getElementById("error").textContent =
      `Unknown tools are refused: ${err.code}: ${err.message}`;
  }
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  document.getElementById("error").textContent = `The engine failed to load: ${err}`;
  document.body.dataset.ready = "error";
});

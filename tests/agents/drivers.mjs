// One driver per agent CLI: how to configure it offline against the fake model, how to
// start one run, and how to read what happened. The facts come from runs of the real CLIs
// (see the README beside this file).
//
// A driver is { name, hookAgent, prepare(run, model), writeHooks(run, command),
// keepHookEvents(run, events), invoke(run, model, options) }. `invoke` resolves to the process result plus `events`
// (parsed JSON lines where the CLI prints them).

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { AGENTS_ROOT, PROMPT, agentBin, baseEnv, jsonLines, readJson, runProcess, writeJson } from "./harness.mjs";

const RUN_TIMEOUT_MS = 90_000;

/** Adds `hooks` (event -> entries) to the settings object at `path`, keeping what is there. */
function mergeHooks(path, hooks) {
  const settings = readJson(path);
  settings.hooks = { ...(settings.hooks ?? {}), ...hooks };
  writeJson(path, settings);
}

/** Keeps only the hook `events` in whichever of the settings files `paths` exist. */
function keepHooks(paths, events) {
  for (const path of paths.filter((p) => existsSync(p))) {
    const settings = readJson(path);
    if (!settings.hooks) continue;
    for (const event of Object.keys(settings.hooks)) if (!events.includes(event)) delete settings.hooks[event];
    writeJson(path, settings);
  }
}

const jsonFilesIn = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => join(dir, f)) : []);

const claudeSettings = (run) => [
  join(run.proj, ".claude", "settings.json"),
  join(run.proj, ".claude", "settings.local.json"),
  join(run.home, ".claude", "settings.json"),
];

const claudeHookEntry = (command) => [{ matcher: "*", hooks: [{ type: "command", command, timeout: 30 }] }];

export function anthropicEnv(run, model) {
  return {
    ...baseEnv(run),
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "dummy",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    // Runs as root refuse to skip permissions without it.
    IS_SANDBOX: "1",
  };
}

/** Claude Code: hooks in proj/.claude/settings.json; `sdk: true` drives the SDK transport. */
export const claude = {
  name: "claude",
  hookAgent: "claude",
  prepare() {},
  writeHooks(run, command, events = ["PreToolUse", "PermissionRequest"]) {
    mergeHooks(
      join(run.proj, ".claude", "settings.json"),
      Object.fromEntries(events.map((e) => [e, claudeHookEntry(command)])),
    );
  },
  keepHookEvents(run, events) {
    keepHooks(claudeSettings(run), events);
  },
  async invoke(run, model, { sdk = false, args = [], promptDelayMs = 5000 } = {}) {
    const env = anthropicEnv(run, model);
    if (!sdk) {
      const result = await runProcess(agentBin("claude"), ["-p", PROMPT, "--output-format", "json", ...args], {
        cwd: run.proj,
        env,
        timeoutMs: RUN_TIMEOUT_MS,
      });
      return { ...result, events: jsonLines(result.stdout) };
    }
    // The SDK transport: initialize, one user message, and permission prompts over stdio.
    // The driver answers a `can_use_tool` prompt only after `promptDelayMs`, and then with a
    // deny, so whatever runs was allowed by the PermissionRequest hook, whose verdict cancels
    // the prompt (`control_cancel_request`). The run ends at the `result` message.
    const prompts = [];
    const cancelled = [];
    const answered = new Set();
    const timers = new Map();
    const result = await runProcess(
      agentBin("claude"),
      [
        "-p",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--verbose",
        "--permission-prompt-tool",
        "stdio",
        ...args,
      ],
      {
        cwd: run.proj,
        env,
        timeoutMs: RUN_TIMEOUT_MS,
        interact(child) {
          const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
          send({ type: "control_request", request_id: "init-1", request: { subtype: "initialize", hooks: null } });
          send({
            type: "user",
            message: { role: "user", content: [{ type: "text", text: PROMPT }] },
            parent_tool_use_id: null,
            session_id: "",
          });
          let buffer = "";
          child.stdout.on("data", (chunk) => {
            buffer += chunk;
            let nl;
            while ((nl = buffer.indexOf("\n")) >= 0) {
              const line = buffer.slice(0, nl);
              buffer = buffer.slice(nl + 1);
              let message;
              try {
                message = JSON.parse(line);
              } catch {
                continue;
              }
              if (message.type === "control_request" && message.request?.subtype === "can_use_tool") {
                prompts.push(message);
                const timer = setTimeout(() => {
                  answered.add(message.request_id);
                  send({
                    type: "control_response",
                    response: {
                      subtype: "success",
                      request_id: message.request_id,
                      response: { behavior: "deny", message: "denied by the test driver: no hook verdict" },
                    },
                  });
                }, promptDelayMs);
                timers.set(message.request_id, timer);
              } else if (message.type === "control_cancel_request") {
                cancelled.push(message.request_id);
                clearTimeout(timers.get(message.request_id));
              } else if (message.type === "result") {
                child.stdin.end();
              }
            }
          });
        },
      },
    );
    for (const timer of timers.values()) clearTimeout(timer);
    return { ...result, events: jsonLines(result.stdout), prompts, cancelled, answeredByDriver: [...answered] };
  },
};

/** Codex CLI: config.toml and hooks.json in CODEX_HOME; `approveForMe` takes the approval path. */
export const codex = {
  name: "codex",
  hookAgent: "codex",
  prepare(run, model) {
    const config = `model = "fake-model"
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "workspace-write"

[model_providers.fake]
name = "fake"
base_url = "${model.url}/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
hooks = true

[projects.${JSON.stringify(run.proj)}]
trust_level = "trusted"
`;
    mkdirSync(run.codexHome, { recursive: true });
    writeFileSync(join(run.codexHome, "config.toml"), config);
  },
  writeHooks(run, command, events = ["PreToolUse", "PermissionRequest"]) {
    mergeHooks(
      join(run.codexHome, "hooks.json"),
      Object.fromEntries(events.map((e) => [e, claudeHookEntry(command)])),
    );
  },
  keepHookEvents(run, events) {
    keepHooks([join(run.codexHome, "hooks.json"), join(run.proj, ".codex", "hooks.json")], events);
  },
  async invoke(run, model, { approveForMe = false } = {}) {
    const args = ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "--json"];
    if (approveForMe) args.push("--approve-for-me");
    args.push(PROMPT);
    const result = await runProcess(agentBin("codex"), args, {
      cwd: run.proj,
      env: { ...baseEnv(run), FAKE_API_KEY: "dummy" },
      timeoutMs: RUN_TIMEOUT_MS,
    });
    return { ...result, events: jsonLines(result.stdout) };
  },
};

/** Gemini CLI: user settings in HOME/.gemini/settings.json, shell tool enabled by --yolo. */
export const gemini = {
  name: "gemini",
  hookAgent: "gemini",
  prepare(run) {
    const path = join(run.home, ".gemini", "settings.json");
    const settings = readJson(path);
    Object.assign(settings, {
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    });
    writeJson(path, settings);
  },
  writeHooks(run, command) {
    mergeHooks(join(run.home, ".gemini", "settings.json"), {
      BeforeTool: [{ matcher: ".*", hooks: [{ type: "command", name: "BeforeTool", command, timeout: 30000 }] }],
    });
  },
  keepHookEvents(run, events) {
    keepHooks([join(run.home, ".gemini", "settings.json"), join(run.proj, ".gemini", "settings.json")], events);
  },
  async invoke(run, model) {
    const result = await runProcess(agentBin("gemini"), ["-p", PROMPT, "--output-format", "json", "--yolo"], {
      cwd: run.proj,
      env: {
        ...baseEnv(run),
        GEMINI_API_KEY: "dummy",
        GOOGLE_GEMINI_BASE_URL: model.url,
        GEMINI_CLI_NO_RELAUNCH: "true",
      },
      timeoutMs: RUN_TIMEOUT_MS,
    });
    return { ...result, events: jsonLines(result.stdout) };
  },
};

/** Copilot CLI in BYOK mode: repo hooks in proj/.github/hooks/, the folder pre-trusted. */
export const copilot = {
  name: "copilot",
  hookAgent: "copilot",
  prepare(run) {
    writeJson(join(run.copilotHome, "config.json"), { trusted_folders: [run.proj] });
    execFileSync("git", ["init", "-q", run.proj]);
  },
  writeHooks(run, command, events = ["preToolUse", "permissionRequest"]) {
    writeJson(join(run.proj, ".github", "hooks", "test-hook.json"), {
      version: 1,
      hooks: Object.fromEntries(events.map((e) => [e, [{ type: "command", bash: command, timeoutSec: 30 }]])),
    });
  },
  keepHookEvents(run, events) {
    keepHooks([...jsonFilesIn(join(run.proj, ".github", "hooks")), join(run.copilotHome, "settings.json")], events);
  },
  async invoke(run, model, { allowAllTools = false, args: extra = [] } = {}) {
    const args = ["-p", PROMPT, "--output-format", "json", "--log-dir", run.logs, ...extra];
    if (allowAllTools) args.push("--allow-all-tools");
    const result = await runProcess(agentBin("copilot"), args, {
      cwd: run.proj,
      env: {
        ...baseEnv(run),
        COPILOT_AUTO_UPDATE: "false",
        COPILOT_OFFLINE: "true",
        // The CLI unpacks about 235 MB of JS on first use: share that between runs.
        COPILOT_PKG_CACHE_HOME: join(AGENTS_ROOT, ".cache", "copilot-pkg"),
        COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
        COPILOT_PROVIDER_TYPE: "openai",
        COPILOT_PROVIDER_API_KEY: "dummy",
        COPILOT_PROVIDER_WIRE_API: "completions",
        COPILOT_MODEL: "gpt-5.4",
      },
      timeoutMs: RUN_TIMEOUT_MS,
    });
    return { ...result, events: jsonLines(result.stdout) };
  },
};

/**
 * claude-code-acp, driven by a small ACP client over its stdio. Claude's hooks in
 * proj/.claude/settings.json apply; the client answers `session/request_permission` with
 * `permissionChoice` (default `reject`, so a tool that runs was allowed by a hook).
 */
export const acp = {
  name: "acp",
  hookAgent: "claude",
  prepare() {},
  writeHooks: claude.writeHooks,
  keepHookEvents: claude.keepHookEvents,
  async invoke(run, model, { permissionChoice = "reject" } = {}) {
    const permissionRequests = [];
    const updates = [];
    let stopReason = null;
    const result = await runProcess(agentBin("claude-code-acp"), [], {
      cwd: run.proj,
      env: anthropicEnv(run, model),
      timeoutMs: RUN_TIMEOUT_MS,
      interact(child) {
        let nextId = 1;
        const pending = new Map();
        const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
        const call = (method, params) =>
          new Promise((resolve, reject) => {
            const id = nextId++;
            pending.set(id, { resolve, reject });
            send({ id, method, params });
          });
        let buffer = "";
        child.stdout.on("data", (chunk) => {
          buffer += chunk;
          let nl;
          while ((nl = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            let m;
            try {
              m = JSON.parse(line);
            } catch {
              continue;
            }
            if (m.method === "session/request_permission") {
              permissionRequests.push(m.params);
              send({ id: m.id, result: { outcome: { outcome: "selected", optionId: permissionChoice } } });
            } else if (m.method === "session/update") {
              updates.push(m.params);
            } else if (m.method) {
              send({ id: m.id, error: { code: -32601, message: `not supported: ${m.method}` } });
            } else if (pending.has(m.id)) {
              const { resolve, reject } = pending.get(m.id);
              pending.delete(m.id);
              if (m.error) reject(new Error(JSON.stringify(m.error)));
              else resolve(m.result);
            }
          }
        });
        (async () => {
          try {
            await call("initialize", {
              protocolVersion: 1,
              clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
            });
            const session = await call("session/new", { cwd: run.proj, mcpServers: [] });
            const done = await call("session/prompt", {
              sessionId: session.sessionId,
              prompt: [{ type: "text", text: PROMPT }],
            });
            stopReason = done?.stopReason ?? null;
          } catch (e) {
            stopReason = `error: ${e.message}`;
          }
          child.stdin.end();
          // The agent keeps running after its stdin closes; the harness kills its group.
          setTimeout(() => child.kill("SIGTERM"), 500);
        })();
      },
    });
    return { ...result, permissionRequests, updates, stopReason };
  },
};

export const DRIVERS = { claude, codex, gemini, copilot, acp };

// A scripted fake model server for driving real coding-agent CLIs offline.
//
// It listens on 127.0.0.1 only and speaks four wire formats:
//   - Anthropic messages        POST /v1/messages            (SSE or JSON)
//   - OpenAI responses          POST /v1/responses           (SSE or JSON)
//   - OpenAI chat completions   POST /v1/chat/completions    (SSE or JSON)
//   - Gemini                    POST /v1beta/models/M:generateContent
//                               POST /v1beta/models/M:streamGenerateContent?alt=sse
//
// Every request is answered from a script, never by a model:
//   1. it wants structured JSON (a JSON schema)      -> a minimal instance of the schema
//   2. it already carries a tool result              -> the final text
//      (with `commands`, once it carries one result per command)
//   3. it offers a shell tool                        -> one call of that tool running `command`
//                                                       (or the next of `commands`)
//   4. anything else (no tools: titles, side calls)  -> plain text
// The tool results it receives are logged in `toolResults`: that is what the model saw.
//
// usage (library): const model = await startFakeModel({ command: "touch out.txt" });
//                  ... model.url, model.toolResults, model.requests ...; await model.close();
// usage (CLI):     FAKE_CMD="touch out.txt" node tests/agents/fake-model.mjs   # prints the port

import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

/** Shell tools the agents offer, in order of preference. */
const SHELL_TOOLS = ["exec_command", "Bash", "bash", "run_shell_command", "shell", "local_shell"];

/**
 * Starts a fake model server.
 * @param {{command?: string, commands?: string[], final?: string, extraArgs?: object, text?: string}} script
 *   `command` is what the scripted tool call runs (`commands`: one call per turn, in order);
 *   `final` the text after the last tool result;
 *   `extraArgs` merged into the tool call's arguments where the tool's schema declares them.
 */
export async function startFakeModel(script) {
  const state = {
    script: { final: "Done.", text: "OK.", extraArgs: {}, ...script },
    requests: [],
    toolResults: [],
  };
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      try {
        answer(state, req, body, res);
      } catch (e) {
        reply(res, 500, { error: { message: `fake model: ${e.message}` } });
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests: state.requests,
    toolResults: state.toolResults,
    /** The tool results of the longest conversation the model was sent, in order. */
    conversation: () => state.requests.reduce((a, r) => ((r.toolResults?.length ?? 0) > a.length ? r.toolResults : a), []),
    /** Everything the model was shown as tool results, joined. */
    seen: () => state.toolResults.map((r) => r.text).join("\n"),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function answer(state, req, raw, res) {
  const url = new URL(req.url, "http://127.0.0.1");
  let body = {};
  try {
    body = raw ? JSON.parse(raw) : {};
  } catch {
    return reply(res, 400, { error: { message: "fake model: the body is not JSON" } });
  }
  const entry = { method: req.method, path: url.pathname, api: null, answer: null };
  state.requests.push(entry);
  if (req.method !== "POST") return reply(res, 404, { error: { message: "not found" } });
  const api = apiOf(url.pathname);
  entry.api = api;
  if (!api) return reply(res, 404, { error: { message: `fake model: no route ${url.pathname}` } });
  const view = VIEWS[api](body, url);
  entry.toolResults = view.toolResults;
  for (const text of view.toolResults) state.toolResults.push({ api, text });
  const plan = decide(state.script, view);
  entry.answer = plan.kind;
  WRITERS[api](res, plan, view);
}

function apiOf(path) {
  if (/\/messages$/.test(path)) return "anthropic";
  if (/\/responses$/.test(path)) return "responses";
  if (/\/chat\/completions$/.test(path)) return "chat";
  if (/\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(path)) return "gemini";
  return null;
}

/** What the script answers for a request seen through its API's view. */
function decide(script, view) {
  if (view.schema) return { kind: "json", text: JSON.stringify(minimalInstance(view.schema)) };
  const commands = script.commands ?? [script.command];
  if (view.toolResults.length >= commands.length) return { kind: "final", text: script.final };
  const tool = SHELL_TOOLS.map((n) => view.tools.find((t) => t.name === n)).find(Boolean);
  const command = commands[view.toolResults.length];
  if (tool) return { kind: "tool", name: tool.name, args: toolArgs({ ...script, command }, tool.schema) };
  return { kind: "text", text: script.text };
}

function toolArgs(script, schema) {
  const props = schema?.properties ?? {};
  const args = {};
  if ("cmd" in props && !("command" in props)) args.cmd = script.command;
  else args.command = script.command;
  if ("description" in props) args.description = "run scripted command";
  for (const [k, v] of Object.entries(script.extraArgs ?? {})) if (k in props) args[k] = v;
  return args;
}

/**
 * A minimal value of a JSON schema (OpenAPI-style upper-case types too): every property, the
 * first enum value, the smallest positive number and the shortest string allowed.
 */
export function minimalInstance(schema) {
  if (!schema || typeof schema !== "object") return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ("const" in schema) return schema.const;
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(schema[key]) && schema[key].length > 0) return minimalInstance(schema[key][0]);
  }
  const type = String(Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? "object")).toLowerCase();
  switch (type) {
    case "object": {
      const out = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = minimalInstance(v);
      return out;
    }
    case "array":
      return [];
    case "string":
      return "x".repeat(schema.minLength ?? 0);
    case "integer":
    case "number":
      // 1 rather than 0 when unbounded: scores and counts are often checked to be positive.
      return Math.min(
        schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1),
        schema.maximum ?? Number.MAX_SAFE_INTEGER,
      );
    case "boolean":
      return false;
    default:
      return null;
  }
}

const textOf = (content) =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((c) => (typeof c === "string" ? c : (c?.text ?? JSON.stringify(c)))).join("")
      : JSON.stringify(content);

// --- request views: tools offered, tool results carried, schema wanted --------------------

const VIEWS = {
  anthropic(body) {
    const toolResults = [];
    for (const m of body.messages ?? []) {
      if (!Array.isArray(m.content)) continue;
      for (const c of m.content) if (c?.type === "tool_result") toolResults.push(textOf(c.content));
    }
    const tools = (body.tools ?? []).map((t) => ({ name: t.name, schema: t.input_schema }));
    const schema = body.output_format?.schema ?? null;
    return { toolResults, tools, schema, stream: body.stream === true, model: body.model };
  },
  responses(body) {
    const toolResults = [];
    for (const item of Array.isArray(body.input) ? body.input : []) {
      if (item?.type === "function_call_output" || item?.type === "custom_tool_call_output") {
        toolResults.push(textOf(item.output));
      }
    }
    const tools = (body.tools ?? []).map((t) => ({ name: t.name ?? t.type, schema: t.parameters }));
    const format = body.text?.format;
    const schema = format?.type === "json_schema" ? (format.schema ?? {}) : null;
    return { toolResults, tools, schema, stream: body.stream === true, model: body.model };
  },
  chat(body) {
    const toolResults = (body.messages ?? []).filter((m) => m.role === "tool").map((m) => textOf(m.content));
    const tools = (body.tools ?? []).map((t) => ({ name: t.function?.name, schema: t.function?.parameters }));
    const format = body.response_format;
    const schema = format?.type === "json_schema" ? (format.json_schema?.schema ?? {}) : null;
    return { toolResults, tools, schema, stream: body.stream === true, model: body.model };
  },
  gemini(body, url) {
    const toolResults = [];
    for (const c of body.contents ?? []) {
      for (const p of c.parts ?? []) {
        if (p.functionResponse) toolResults.push(JSON.stringify(p.functionResponse.response ?? {}));
      }
    }
    const tools = (body.tools ?? []).flatMap((t) =>
      (t.functionDeclarations ?? []).map((f) => ({ name: f.name, schema: f.parametersJsonSchema ?? f.parameters })),
    );
    const gc = body.generationConfig ?? {};
    const schema = gc.responseJsonSchema ?? gc.responseSchema ?? null;
    const stream = url.pathname.endsWith(":streamGenerateContent");
    return { toolResults, tools, schema, stream, model: url.pathname.split("/").pop().split(":")[0] };
  },
};

// --- response writers ---------------------------------------------------------------------

let counter = 0;
const id = (prefix) => `${prefix}_${Date.now().toString(16)}${(++counter).toString(16).padStart(6, "0")}`;

function reply(res, status, json) {
  const text = JSON.stringify(json);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Writes server-sent events with chunked transfer encoding; `[name, data]` or `[null, data]`. */
function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const [name, data] of events) {
    const payload = typeof data === "string" ? data : JSON.stringify(data);
    res.write(`${name ? `event: ${name}\n` : ""}data: ${payload}\n\n`);
  }
  res.end();
}

const WRITERS = {
  anthropic(res, plan, view) {
    const msgId = id("msg");
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const block =
      plan.kind === "tool"
        ? { type: "tool_use", id: id("toolu"), name: plan.name, input: plan.args }
        : { type: "text", text: plan.text };
    const stop = plan.kind === "tool" ? "tool_use" : "end_turn";
    if (!view.stream) {
      return reply(res, 200, {
        id: msgId,
        type: "message",
        role: "assistant",
        model: view.model ?? "fake",
        content: [block],
        stop_reason: stop,
        stop_sequence: null,
        usage,
      });
    }
    const start = block.type === "tool_use" ? { ...block, input: {} } : { type: "text", text: "" };
    const delta =
      block.type === "tool_use"
        ? { type: "input_json_delta", partial_json: JSON.stringify(block.input) }
        : { type: "text_delta", text: block.text };
    sse(res, [
      [
        "message_start",
        {
          type: "message_start",
          message: {
            id: msgId,
            type: "message",
            role: "assistant",
            model: view.model ?? "fake",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...usage, output_tokens: 1 },
          },
        },
      ],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: start }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      [
        "message_delta",
        { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } },
      ],
      ["message_stop", { type: "message_stop" }],
    ]);
  },

  responses(res, plan, view) {
    const respId = id("resp");
    const item =
      plan.kind === "tool"
        ? {
            type: "function_call",
            id: id("fc"),
            call_id: id("call"),
            name: plan.name,
            arguments: JSON.stringify(plan.args),
            status: "completed",
          }
        : {
            type: "message",
            id: id("msg"),
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: plan.text, annotations: [] }],
          };
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    };
    const response = (status, output) => ({
      id: respId,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model: view.model ?? "fake",
      status,
      output,
      usage: status === "completed" ? usage : null,
    });
    if (!view.stream) return reply(res, 200, response("completed", [item]));
    const events = [
      ["response.created", { type: "response.created", sequence_number: 0, response: response("in_progress", []) }],
      [
        "response.output_item.added",
        {
          type: "response.output_item.added",
          sequence_number: 1,
          output_index: 0,
          item: item.type === "message" ? { ...item, status: "in_progress", content: [] } : item,
        },
      ],
    ];
    if (item.type === "message") {
      events.push([
        "response.output_text.delta",
        {
          type: "response.output_text.delta",
          sequence_number: 2,
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta: plan.text,
        },
      ]);
    }
    events.push(
      ["response.output_item.done", { type: "response.output_item.done", sequence_number: 3, output_index: 0, item }],
      ["response.completed", { type: "response.completed", sequence_number: 4, response: response("completed", [item]) }],
    );
    sse(res, events);
  },

  chat(res, plan, view) {
    const chatId = id("chatcmpl");
    const created = Math.floor(Date.now() / 1000);
    const model = view.model ?? "fake";
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const toolCall = plan.kind === "tool" && {
      id: id("call"),
      type: "function",
      function: { name: plan.name, arguments: JSON.stringify(plan.args) },
    };
    const finish = toolCall ? "tool_calls" : "stop";
    if (!view.stream) {
      const message = toolCall
        ? { role: "assistant", content: null, tool_calls: [toolCall] }
        : { role: "assistant", content: plan.text };
      return reply(res, 200, {
        id: chatId,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    }
    const chunk = (delta, finishReason, extra = {}) => [
      null,
      {
        id: chatId,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
        ...extra,
      },
    ];
    const delta = toolCall
      ? { role: "assistant", content: null, tool_calls: [{ index: 0, ...toolCall }] }
      : { role: "assistant", content: plan.text };
    sse(res, [chunk(delta, null), chunk({}, finish, { usage }), [null, "[DONE]"]]);
  },

  gemini(res, plan, view) {
    const part =
      plan.kind === "tool" ? { functionCall: { name: plan.name, args: plan.args } } : { text: plan.text };
    const body = {
      candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: view.model ?? "fake",
      responseId: id("gemini"),
    };
    if (!view.stream) return reply(res, 200, body);
    sse(res, [[null, body]]);
  },
};

// --- CLI ----------------------------------------------------------------------------------

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const model = await startFakeModel({
    command: process.env.FAKE_CMD ?? "true",
    final: process.env.FAKE_FINAL ?? "Done.",
    extraArgs: process.env.FAKE_EXTRA_ARGS ? JSON.parse(process.env.FAKE_EXTRA_ARGS) : {},
  });
  console.log(model.port);
  const stop = async () => {
    for (const r of model.toolResults) console.error(`tool result seen by the model: ${r.text}`);
    await model.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

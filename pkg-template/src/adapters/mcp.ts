// The Model Context Protocol adapter (`toolgate/mcp`, for hosts using
// @modelcontextprotocol/sdk's Client): `tools/call` gated by the broker with the server's
// identity and its tools' annotations (which loosen nothing unless the server is trusted),
// and a server's `elicitation/create` answered through the broker, so one approval UI serves
// both.

import { decide, runApproved, unlessAborted, type AbortSignalLike, type GateOptions } from "./gate.js";
import type { JsonObject, JsonValue, McpTool } from "../types.js";

/** The parts of an MCP `Client` the gate uses. */
export interface McpClientLike {
  listTools(params?: { cursor?: string }): Promise<{ tools: McpListedTool[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** A tool as `tools/list` returns it (the fields toolgate reads). */
export interface McpListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  annotations?: unknown;
}

/** A `tools/call` result for a call that did not run. */
export interface McpDeniedResult {
  content: { type: "text"; text: string }[];
  isError: true;
}

/** An `elicitation/create` request (the fields read). */
export interface McpElicitRequest {
  params: { message: string; requestedSchema?: unknown; mode?: string };
}

/** An `elicitation/create` result. */
export type McpElicitResult =
  | { action: "accept"; content?: Record<string, string | number | boolean | string[]> }
  | { action: "decline" | "cancel" };

/** Calls to one MCP server through the broker. */
export interface McpGate {
  /** Lists the server's tools (every page) and registers them; their toolgate names. */
  registerTools(): Promise<string[]>;
  /**
   * `tools/call` when the broker approves (with the approved arguments); otherwise the model's
   * feedback as an error result. When `signal` aborts (the user stopped the request), the
   * pending approval is cancelled and the call never reaches the server.
   */
  callTool(params: { name: string; arguments?: Record<string, unknown> }, callId?: string, options?: McpCallOptions): Promise<unknown>;
  /** The handler for `client.setRequestHandler(ElicitRequestSchema, ...)`: a person answers in the broker's UI. */
  elicitationHandler(request: McpElicitRequest): Promise<McpElicitResult>;
}

/** Options of one `callTool`. */
export interface McpCallOptions {
  /** The request's signal: once it aborts, the call does not run. */
  signal?: AbortSignalLike;
}

/** Options of `createMcpGate`. */
export interface McpGateOptions extends Omit<GateOptions, "toolName"> {
  /** The server's name (toolgate calls its tools `mcp__<server>__<tool>`). */
  server: string;
  /** Whether the server's annotations (`readOnlyHint`, ...) may loosen decisions (default false). */
  trusted?: boolean;
}

const ELICITATION_TOOL = "mcp_elicitation";

/**
 * The gate for one MCP server.
 *
 * ```ts
 * import { createMcpGate } from "toolgate/mcp";
 * const gate = createMcpGate(client, { broker, sessionId, server: "github" });
 * await gate.registerTools();
 * client.setRequestHandler(ElicitRequestSchema, (r) => gate.elicitationHandler(r));
 * const result = await gate.callTool({ name: "create_issue", arguments: { title: "x" } }, undefined, { signal });
 * ```
 */
export function createMcpGate(client: McpClientLike, options: McpGateOptions): McpGate {
  const gate: GateOptions = { ...options, toolName: (name) => `mcp__${options.server}__${name}` };
  if (!options.broker.tools.names().includes(ELICITATION_TOOL)) {
    options.broker.tools.register({
      name: ELICITATION_TOOL, title: "Information requested by an MCP server",
      description: "An MCP server asks the user for information (elicitation/create)",
      parameters: { type: "object" }, kind: "other", trustable: false,
    });
  }
  let calls = 0;
  return {
    async registerTools() {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 1000; page += 1) {
        const listed = await client.listTools(cursor !== undefined ? { cursor } : undefined);
        for (const t of listed.tools) {
          tools.push({
            name: t.name, inputSchema: (t.inputSchema ?? { type: "object" }) as JsonValue,
            ...(t.title !== undefined ? { title: t.title } : {}),
            ...(t.description !== undefined ? { description: t.description } : {}),
            ...(t.annotations !== undefined ? { annotations: t.annotations as McpTool["annotations"] } : {}),
          });
        }
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      return options.broker.tools.registerMcp(options.server, options.trusted ?? false, tools);
    },
    async callTool(params, callId, { signal } = {}) {
      // A call id names the pending approval an abort cancels; the caller's, or one of the gate's own.
      const id = callId ?? (signal !== undefined ? `${options.server}-call-${++calls}` : undefined);
      const args = (params.arguments ?? {}) as JsonObject;
      const v = await unlessAborted(gate, params.name, id, signal, () => decide(gate, params.name, args, id));
      if (!v.run) return { content: [{ type: "text", text: v.feedback.aiMessage }], isError: true } satisfies McpDeniedResult;
      const approved = v.input as Record<string, unknown>;
      return runApproved(options.broker, v.outcome, () => client.callTool({ name: params.name, arguments: approved }));
    },
    async elicitationHandler(request) {
      const input: JsonObject = {
        server: options.server, message: request.params.message,
        requestedSchema: (request.params.requestedSchema ?? null) as JsonValue,
      };
      const v = await decide({ ...gate, toolName: undefined }, ELICITATION_TOOL, input);
      if (!v.run) return { action: v.outcome?.status === "denied" ? "decline" : "cancel" };
      // Only a person's answer provides content; a rule or a grant cannot answer for them.
      if (v.outcome.by !== "person") {
        options.broker.cancel(v.outcome.id);
        return { action: "cancel" };
      }
      return runApproved(options.broker, v.outcome, (answered): McpElicitResult => {
        const content = (answered as JsonObject).content;
        if (typeof content === "object" && content !== null && !Array.isArray(content)) {
          return { action: "accept", content: content as Record<string, string | number | boolean | string[]> };
        }
        return { action: "accept" };
      });
    },
  };
}

// The wire documents: the JSON shapes the engine reads and writes, as TypeScript types.
// They mirror the Rust wire types (serde, camelCase); docs/rules.md and docs/broker.md
// describe each field. Inputs reject unknown keys at run time (UNKNOWN_FIELD).

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The stable codes of a `ToolgateError`. */
export type ErrorCode =
  | "ALREADY_SETTLED" | "ANSWER_NOT_OFFERED" | "ENTROPY_UNAVAILABLE" | "EXAMPLE_FAILED"
  | "GRANT_REFUSED" | "ILLEGAL_TRANSITION" | "INVALID_JSON" | "INVALID_PARAMS"
  | "INVALID_POLICY" | "INVALID_REQUEST" | "INVALID_RULE" | "INVALID_SCHEMA"
  | "INVALID_TRUST_DOCUMENT" | "RESUME_MISMATCH" | "SHUT_DOWN" | "STORAGE" | "TAMPERED"
  | "UNKNOWN_APPROVAL" | "UNKNOWN_FIELD" | "UNKNOWN_TOOL" | "UNSUPPORTED_VERSION"
  | "NOT_INITIALIZED" | "INVALID_MESSAGE";

/** What a decision does with a call. */
export type Effect = "allow" | "ask" | "deny";
/** How much harm a call can do if it goes wrong. */
export type Risk = "low" | "medium" | "high";
/** The permission mode. */
export type Mode = "default" | "acceptEdits" | "plan" | "dontAsk" | "bypassPermissions";
/** Which list of rules a rule is in. */
export type RuleList = "deny" | "ask" | "allow";
/** Where a rule comes from, highest precedence first. */
export type Layer = "managed" | "cli" | "local" | "project" | "user" | "session" | "trust";
/** What a built-in tool does. */
export type ToolKind =
  | "read" | "glob" | "grep" | "write" | "edit" | "delete" | "shell" | "fetch" | "mcp" | "other";
/** What happens to a call of a tool when no rule decides. */
export type Level = "allow" | "prompt" | "deny";

/** A tool's defaults (built-in, or set in the policy's `tools`). */
export interface ToolDefaults {
  kind: ToolKind;
  level: Level;
  risk: Risk;
  trustable: boolean;
}

/** MCP tool annotations (hints; only a trusted server's hints loosen anything). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool call to decide. */
export interface ToolRequest {
  tool: string;
  input?: JsonObject;
  cwd?: string;
  mode?: Mode;
  agent?: string;
  server?: string;
  annotations?: ToolAnnotations;
  /** Resolved real paths of symlinks, path → real path. */
  realpaths?: { [path: string]: string };
}

/** Rules of one list set. */
export interface Permissions {
  allow?: string[];
  ask?: string[];
  deny?: string[];
  additionalDirectories?: string[];
  defaultMode?: Mode;
  disableBypassPermissionsMode?: "disable";
}

/** A layer of settings (managed, project, user, ...). */
export interface LayerDocument {
  source: Layer;
  root?: string;
  permissions?: Permissions;
  allowManagedPermissionRulesOnly?: boolean;
}

/** Copilot CLI's flags. */
export interface CopilotFlags {
  allowTools?: string[];
  denyTools?: string[];
  allowAllTools?: boolean;
  allowAllPaths?: boolean;
  allowAllUrls?: boolean;
  allowAll?: boolean;
  allowUrls?: string[];
  denyUrls?: string[];
}

/** A policy example: a request and the effect it must get (checked at load time). */
export interface PolicyExample {
  name?: string;
  request: ToolRequest;
  expect: Effect;
}

/** A policy document (docs/rules.md). */
export interface PolicyDocument {
  defaultMode?: Mode;
  home?: string;
  permissions?: Permissions;
  layers?: LayerDocument[];
  copilot?: CopilotFlags;
  tools?: { [tool: string]: ToolDefaults };
  mcpServers?: { [server: string]: { trusted?: boolean } };
  agents?: { [agent: string]: { bypassPermissions?: boolean } };
  examples?: PolicyExample[];
}

/** Who or what decided. */
export type Decider =
  | { kind: "rule"; rule: string; list: RuleList; layer: Layer; index: number }
  | { kind: "flag"; flag: string }
  | { kind: "mode"; mode: Mode }
  | { kind: "agentBypass"; agent: string }
  | { kind: "toolDefault"; tool: string }
  | { kind: "protectedPath"; path: string }
  | { kind: "criticalPath"; path: string }
  | { kind: "unanalysable"; detail: string }
  | { kind: "parts" };

/** Why: the decider and a sentence for people. */
export interface Reason {
  decider: Decider;
  text: string;
}

/** The decision for one command of a compound shell line. */
export interface PartDecision {
  part: string;
  effect: Effect;
  reason: Reason;
}

/** The policy's decision for one call. */
export interface Decision {
  effect: Effect;
  risk: Risk;
  trustable: boolean;
  reason: Reason;
  parts?: PartDecision[];
}

/** A rule consulted by `explain`. */
export interface ConsultedRule {
  rule: string;
  list: RuleList;
  layer: Layer;
  index: number;
  flag?: string;
  matched: boolean;
  active: boolean;
}

/** A decision with every rule that was consulted. */
export interface Explanation {
  decision: Decision;
  mode: Mode;
  tool: string;
  kind: ToolKind;
  rules: ConsultedRule[];
}

/** Something in a policy that loads but probably does not do what was meant. */
export interface PolicyWarning {
  code: string;
  path: string;
  message: string;
}

/** How far a person's "allow" reaches. */
export type Scope = "once" | "session" | "always";
/** The states of an approval. */
export type State =
  | "pendingApproval" | "approved" | "executing" | "completed" | "failed"
  | "denied" | "expired" | "cancelled";
/** The answers a card offers. */
export type AnswerKind =
  | "allowOnce" | "allowSession" | "allowAlways" | "deny" | "allowAll" | "denyAll"
  | "allowToolForSession";
/** Who settled an approval. */
export type By = "policy" | "trust" | "person" | "timeout" | "cancel" | "shutdown" | "registry";

/** A tool call to approve (input). */
export interface ApprovalRequest {
  sessionId: string;
  callId?: string;
  timeoutMs?: number;
  request: ToolRequest;
}

/** A pending approval: everything a UI shows. */
export interface PendingApproval {
  id: string;
  sessionId: string;
  callId: string | null;
  agent: string | null;
  tool: string;
  title: string;
  description: string;
  input: JsonObject;
  preview: { text: string; truncated: boolean } | null;
  diff: { oldText: string; newText: string; truncated: boolean } | null;
  risk: Risk;
  trustable: boolean;
  reason: string;
  decision: Decision;
  answers: AnswerKind[];
  createdAt: number;
  deadline: number;
}

/** A person's answer (input). */
export type Answer =
  | { kind: "allow"; scope: Scope; rules?: string[]; editedInput?: JsonObject }
  | { kind: "deny"; message?: string }
  | { kind: "allowToolForSession" };

/** What the model is told when a call does not run. */
export interface ModelFeedback {
  code:
    | "PERMISSION_DENIED" | "USER_DENIED" | "APPROVAL_TIMEOUT" | "APPROVAL_CANCELLED"
    | "UNKNOWN_TOOL" | "INVALID_PARAMS" | "EXECUTION_ERROR";
  message: string;
  aiMessage: string;
  recoverable: boolean;
}

/** How an approval settled. */
export interface ApprovalOutcome {
  id: string;
  status: "approved" | "denied" | "expired" | "cancelled";
  by: By;
  scope?: Scope;
  input: JsonObject;
  message?: string;
  grants?: string[];
  feedback: ModelFeedback | null;
}

/** One step of an approval's state machine. */
export interface Transition {
  id: string;
  sessionId: string;
  callId: string | null;
  tool: string;
  from: State | null;
  to: State;
  at: number;
  outcome?: ApprovalOutcome;
  approval?: PendingApproval;
}

/** A pending approval saved to resume after a restart. */
export interface SavedApproval {
  version: 1;
  approval: PendingApproval;
  binding: string;
}

/** One entry of the audit trail (no content: arguments are redacted to their shape). */
export interface AuditEvent {
  seq: number;
  at: number;
  kind: "decision" | "transition" | "grant" | "fallback";
  approvalId: string;
  sessionId: string;
  callId?: string;
  tool: string;
  agent?: string;
  effect?: Effect;
  from?: State;
  to?: State;
  decidedBy: string;
  source?: By;
  scope?: Scope;
  durationMs: number;
  input?: JsonObject;
}

/** A filter of the audit trail; empty fields match everything. */
export interface AuditQuery {
  approvalId?: string;
  tool?: string;
  since?: number;
  until?: number;
}

/** A remembered allow rule. */
export interface Grant {
  id: string;
  rule: string;
  scope: "session" | "always";
  sessionId?: string;
  agent?: string;
  createdAt: number;
  expiresAt?: number;
}

/** A grant to add. */
export interface NewGrant {
  rule: string;
  scope: "session" | "always";
  sessionId?: string;
  agent?: string;
  expiresAt?: number;
}

/** A grant as the persisted document stores it. */
export interface StoredGrant {
  rule: string;
  agent?: string;
  createdAt: number;
  expiresAt?: number;
}

/** The trust store's persisted document (version 1; version 0 is migrated on import). */
export interface TrustDocument {
  version: number;
  grants?: StoredGrant[];
  agents?: { [agent: string]: { bypass: boolean } };
  checksum?: string;
  allow?: string[];
  bypassAgents?: string[];
}

/** A tool definition for the registry. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  parameters: JsonValue;
  kind?: ToolKind;
  trustable?: boolean;
  server?: string;
  annotations?: ToolAnnotations;
}

/** A tool as an MCP server lists it in `tools/list`. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonValue;
  annotations?: ToolAnnotations;
}

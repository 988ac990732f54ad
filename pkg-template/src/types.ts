// The wire documents: the JSON shapes the engine reads and writes. They are generated from
// the Rust wire types (src/typescript.rs, ts-rs) into wire.ts when the package is built
// (scripts/build.sh), so they say exactly what the Rust code accepts and emits; docs/rules.md
// and docs/broker.md describe each field. Inputs reject unknown keys at run time
// (UNKNOWN_FIELD). What is written here by hand has no Rust counterpart, and says why.

import type { CoreErrorCode, JsonValue } from "./wire.js";

export type {
  Admitted,
  AgentSettings,
  AgentTrust,
  Answer,
  AnswerKind,
  ApprovalOutcome,
  ApprovalRequest,
  AuditEvent,
  AuditKind,
  AuditQuery,
  Batch,
  By,
  ConsultedRule,
  CopilotFlags,
  Danger,
  DangerClass,
  Decider,
  Decision,
  Diff,
  DisableBypass,
  Effect,
  Explanation,
  FeedbackCode,
  Grant,
  JsonValue,
  Layer,
  LayerDocument,
  Level,
  McpServer,
  McpTool,
  Mode,
  ModelFeedback,
  NewGrant,
  PartDecision,
  PendingApproval,
  Permissions,
  PolicyDocument,
  PolicyExample,
  PolicyWarning,
  Preview,
  Reason,
  Risk,
  RuleList,
  SavedApproval,
  Scope,
  State,
  Status,
  StoredGrant,
  ToolAnnotations,
  ToolDefaults,
  ToolDefinition,
  ToolKind,
  ToolRequest,
  Transition,
  TrustDocument,
  TrustDocumentV0,
  TrustDocumentV1,
} from "./wire.js";

/**
 * A JSON object. By hand: the Rust side keeps objects as `serde_json::Value` (a
 * `JsonValue`), and the JS layer narrows to objects where it builds them (ACP, MCP).
 */
export type JsonObject = { [key: string]: JsonValue };

/**
 * The stable codes of a `ToolgateError`: those of the Rust `ErrorKind` (generated), plus
 * two that only the JS layer raises, so they have no Rust kind: `NOT_INITIALIZED` (the web
 * entry before `init`) and `INVALID_MESSAGE` (a bridge message that fails validation).
 */
export type ErrorCode = CoreErrorCode | "NOT_INITIALIZED" | "INVALID_MESSAGE";

// The public API, shared by every entry (web ESM, Node ESM, Node CommonJS).

import { bindings } from "./bindings.js";
import { guard } from "./errors.js";
import type { ToolDefaults } from "./types.js";

export { ToolgateError } from "./errors.js";
export { Policy } from "./policy.js";
export { TrustStore, type TrustStoreOptions } from "./trust.js";
export {
  ApprovalBroker, type ApprovalBrokerOptions, type BrokerAudit, type BrokerDeadlines, type BrokerRuns,
  type BrokerSessions, type BrokerTools, type RegistryOptions, type SavedApprovals,
} from "./broker.js";
export {
  indexedDbTrustStorage, localStorageTrustStorage, type IndexedDbTrustStorageOptions,
  type KeyValueStorage, type TrustStorage,
} from "./storage.js";
export {
  createApprovalClient, createBrokerHost, type ApprovalClient, type ApprovalRequestMessage,
  type ApprovalResponseMessage, type ApproveAllMessage, type BridgeMessage, type BridgeOptions,
  type DenyAllMessage, type MessageChannelLike,
} from "./bridge.js";
export {
  acpToolRequest, acpToolRequests, createAcpPermissionHandler, type AbortSignalLike, type AcpAdapterOptions, type AcpFallback,
  type AcpOptionKind, type AcpPermissionHandler, type AcpRequestPermissionParams,
  type AcpRequestPermissionResponse, type AcpToolKind,
} from "./acp.js";
export type { AgentFile, ExportFormat, ExportResult, ImportFormat, ImportResult } from "./import.js";
export type * from "./types.js";

/** The engine's version (the crate version). */
export function version(): string {
  return bindings().version();
}

/** The defaults of a built-in tool (`Bash`, `read`, `WebFetch`, ...); `UNKNOWN_TOOL` otherwise. */
export function toolDefaults(name: string): ToolDefaults {
  return guard(() => bindings().toolDefaults(name));
}

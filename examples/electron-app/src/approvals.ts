// The main process's approval service: policy, trust and broker, with no Electron in it, so
// it runs (and is tested) in plain Node. The renderer reaches it through `attach(channel)`.
import {
  ApprovalBroker,
  createBrokerHost,
  jsonFileTrustStorage,
  type MessageChannelLike,
  type PolicyDocument,
} from "toolgate";

/** The policy: ordinary read-only work runs without a prompt, the rest asks. */
export const DEFAULT_POLICY: PolicyDocument = {
  permissions: {
    allow: ["Read", "Grep", "Bash(git status)", "Bash(git diff *)"],
    deny: ["Read(./.env)"],
  },
};

/** Options of {@link createApprovalService}. */
export interface ApprovalServiceOptions {
  /** Where "always" grants are kept (a JSON file, written atomically). */
  trustFile: string;
  /** The policy ({@link DEFAULT_POLICY} by default). */
  policy?: PolicyDocument;
  /** How long a person has to answer (two minutes by default). */
  defaultTimeoutMs?: number;
}

/** The broker and the way to connect a renderer to it. */
export interface ApprovalService {
  readonly broker: ApprovalBroker;
  /** Resolves once the saved trust is loaded. */
  readonly ready: Promise<void>;
  /** Connects a renderer (an IPC channel, or any port); returns the function that detaches it. */
  attach(channel: MessageChannelLike): () => void;
  /** Waits for pending trust writes, then shuts the broker down (pending calls are cancelled). */
  close(): Promise<void>;
}

/**
 * Creates the service the main process owns.
 *
 * ```ts
 * const service = createApprovalService({ trustFile: join(app.getPath("userData"), "trust.json") });
 * await service.ready;
 * service.attach(ipcChannel(ipcMain, win.webContents));
 * ```
 */
export function createApprovalService(options: ApprovalServiceOptions): ApprovalService {
  const broker = new ApprovalBroker({
    policy: options.policy ?? DEFAULT_POLICY,
    defaultTimeoutMs: options.defaultTimeoutMs ?? 120_000,
    storage: jsonFileTrustStorage(options.trustFile),
  });
  return {
    broker,
    ready: broker.ready,
    attach: (channel) =>
      createBrokerHost(broker, channel, {
        onError: (error) => console.warn(`toolgate: the renderer sent a refused message: ${error.code}: ${error.message}`),
      }),
    close: async () => {
      await broker.trust.flushStorage();
      broker.shutdown();
    },
  };
}

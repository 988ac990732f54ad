// A minimal message bridge between the context that runs the broker ("main") and the one that
// shows the cards ("renderer"), over a MessagePort. Used only while the package has no bridge
// of its own (createBrokerHost / createApprovalClient); same roles, same checks: messages are
// validated, and an answer the broker refuses comes back as `refused` with the error.

const KINDS = new Set(["answer", "answerAll"]);

/**
 * Main side: forwards pending approvals and outcomes to the port, answers to the broker.
 *
 * @param {any} broker
 * @param {MessagePort} port
 * @param {{ session: string, log?: (line: string) => void }} options
 */
export function demoBrokerHost(broker, port, { session, log = () => {} }) {
  const offRequest = broker.onRequest((/** @type {any} */ approval) => port.postMessage({ type: "request", approval }));
  const offTransition = broker.onTransition((/** @type {any} */ t) => {
    if (t.outcome) port.postMessage({ type: "settled", id: t.id, outcome: t.outcome });
  });
  port.onmessage = (event) => {
    const message = event.data;
    if (message === null || typeof message !== "object" || !KINDS.has(message.type)) {
      log(`ignored a message that is not an answer: ${JSON.stringify(message)}`);
      return;
    }
    try {
      if (message.type === "answer") {
        if (typeof message.id !== "string" || message.answer === null || typeof message.answer !== "object") {
          throw Object.assign(new Error("an answer needs a string `id` and an `answer` object"), { code: "INVALID_MESSAGE" });
        }
        broker.respond(message.id, message.answer);
      } else if (message.kind === "allowAll") broker.approveAll(session);
      else if (message.kind === "denyAll") broker.denyAll(session);
      else throw Object.assign(new Error(`unknown answer-all kind \`${message.kind}\``), { code: "INVALID_MESSAGE" });
    } catch (error) {
      const e = /** @type {any} */ (error);
      log(`refused: ${e.code ?? "ERROR"}: ${e.message}`);
      port.postMessage({ type: "refused", id: message.id ?? null, error: { code: e.code ?? "ERROR", message: e.message, hint: e.hint } });
    }
  };
  return () => {
    offRequest();
    offTransition();
    port.close();
  };
}

/**
 * Renderer side: pending approvals and outcomes in, answers out.
 *
 * @param {MessagePort} port
 */
export function demoApprovalClient(port) {
  /** @type {Record<string, Set<(value: any) => void>>} */
  const listeners = { request: new Set(), settled: new Set(), refused: new Set() };
  port.onmessage = (event) => {
    const message = event.data;
    if (message === null || typeof message !== "object") return;
    const set = listeners[message.type];
    if (set === undefined) return;
    const value = message.type === "request" ? message.approval : message;
    for (const listener of set) listener(value);
  };
  const on = (/** @type {string} */ type) => (/** @type {(value: any) => void} */ listener) => {
    listeners[type].add(listener);
    return () => listeners[type].delete(listener);
  };
  return {
    onRequest: on("request"),
    onSettled: on("settled"),
    onRefused: on("refused"),
    respond: (/** @type {string} */ id, /** @type {unknown} */ answer) => port.postMessage({ type: "answer", id, answer }),
    approveAll: () => port.postMessage({ type: "answerAll", kind: "allowAll" }),
    denyAll: () => port.postMessage({ type: "answerAll", kind: "denyAll" }),
  };
}

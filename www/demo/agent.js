// Runs the scripted agent: each step's calls go through the broker exactly as a real agent's
// would, one step at a time; approved calls are reported as executed, denied ones hand the
// model-facing message back to the "model".
import { AGENT, CWD, SCRIPT } from "./script.js";
import { describeError } from "./engine.js";

/**
 * @param {{ broker: () => any, chat: import("./chat.js").Chat, session: string,
 *           timeoutMs: () => number, paceMs?: number, signal?: AbortSignal }} options
 */
export async function runAgent({ broker, chat, session, timeoutMs, paceMs = 250, signal }) {
  let n = 0;
  for (const step of SCRIPT) {
    if (signal?.aborted) return;
    chat.say("agent", step.say);
    const calls = step.calls.map((call) => ({
      sessionId: session,
      callId: `call-${++n}`,
      timeoutMs: timeoutMs(),
      request: { ...call, cwd: CWD, agent: AGENT },
    }));
    for (const call of calls) chat.asking(call.callId);
    let promises;
    try {
      promises =
        calls.length === 1 ? [broker().requestApproval(calls[0])] : broker().requestApprovals(calls);
    } catch (error) {
      chat.say("error", `The broker refused the request: ${describeError(error)}`);
      continue;
    }
    const settled = await Promise.all(
      promises.map((promise) =>
        promise.then(
          (outcome) => {
            chat.settle(outcome);
            return outcome;
          },
          (error) => {
            chat.say("error", `The broker refused the request: ${describeError(error)}`);
            return null;
          },
        ),
      ),
    );
    const outcomes = settled.filter((outcome) => outcome !== null);
    for (const outcome of outcomes) {
      chat.result(outcome, calls.length === 1 ? step.result : undefined);
      if (outcome.status === "approved") execute(broker(), outcome.id);
    }
    if (calls.length > 1 && outcomes.some((o) => o.status === "approved") && step.result) chat.say("tool", step.result);
    if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
  }
  chat.say("agent", "Done: totals count quantities now, and there is a test for it.");
}

/** Tells the broker the approved call ran (the audit trail records executing → completed). */
function execute(broker, id) {
  try {
    broker.runs.start(id);
    broker.runs.complete(id);
  } catch {
    // Calls settled by the policy at once may be forgotten already; nothing ran for them.
  }
}

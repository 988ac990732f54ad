// A scripted agent: each tool call goes through the broker as a real agent's would, and the
// agent is told what happened.
import type { ApprovalBroker, ApprovalOutcome } from "toolgate";

/** The calls the agent makes, in order. */
export const SCRIPT = [
  { tool: "Read", input: { file_path: "src/cart.ts" } },
  { tool: "Bash", input: { command: "npm run build" } },
  { tool: "Bash", input: { command: "git push origin main" } },
] as const;

/**
 * Runs the script through `broker`, one call at a time.
 *
 * ```ts
 * await runAgent(service.broker, "session-1", "/home/ada/shop", console.log);
 * ```
 */
export async function runAgent(
  broker: ApprovalBroker,
  sessionId: string,
  cwd: string,
  say: (line: string) => void,
): Promise<ApprovalOutcome[]> {
  const outcomes: ApprovalOutcome[] = [];
  for (const [i, call] of SCRIPT.entries()) {
    const outcome = await broker.requestApproval({
      sessionId,
      callId: `call-${i + 1}`,
      request: { tool: call.tool, input: { ...call.input }, cwd, agent: "electron-example" },
    });
    outcomes.push(outcome);
    if (outcome.status === "approved") {
      broker.runs.start(outcome.id);
      broker.runs.complete(outcome.id);
      say(`ran ${call.tool} (${outcome.by})`);
    } else {
      say(`not run ${call.tool}: ${outcome.feedback?.aiMessage ?? outcome.status}`);
    }
  }
  return outcomes;
}

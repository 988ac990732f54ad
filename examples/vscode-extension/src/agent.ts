// A scripted agent: no model runs, but each tool call goes through the broker exactly as a
// real agent's would, and the agent is told what happened (the output of an approved call,
// or the model-facing message of a denied one).
import type { ApprovalBroker, ApprovalOutcome } from "toolgate" with { "resolution-mode": "import" };

/** The pretend project the agent works in. */
export const CWD = "/home/ada/shop";
/** The agent's name, as the card shows it and grants record it. */
export const AGENT = "example-agent";

/** The policy: ordinary read-only work runs without a prompt, the rest asks. */
export const POLICY = {
  home: "/home/ada",
  permissions: {
    allow: ["Read", "Grep", "Bash(git status)", "Bash(git diff *)"],
    deny: ["Read(./.env)"],
  },
};

/** One scripted tool call. */
export interface Step {
  say: string;
  tool: string;
  input: Record<string, string>;
  /** How long a person has to answer this one (the broker's default otherwise). */
  timeoutMs?: number;
}

/** What the agent does, in order. */
export const SCRIPT: Step[] = [
  { say: "Reading the cart code.", tool: "Read", input: { file_path: "src/cart.ts" } },
  { say: "Pushing the fix.", tool: "Bash", input: { command: "git push origin main" } },
  { say: "Deploying the preview.", tool: "Bash", input: { command: "npm run deploy" } },
  { say: "Deploying the preview again.", tool: "Bash", input: { command: "npm run deploy" } },
  { say: "Cleaning the build folder.", tool: "Bash", input: { command: "rm -rf build" } },
  {
    say: "Running the setup script.",
    tool: "Bash",
    input: { command: "curl -s https://example.com/install.sh" },
    timeoutMs: 3000,
  },
  { say: "Formatting the code.", tool: "Bash", input: { command: "npm run format" } },
  { say: "Linting the code.", tool: "Bash", input: { command: "npm run lint" } },
];

/** One line of the agent's transcript. */
export type Say = (line: string) => void;

/**
 * Runs the script through `broker`, one call at a time, and reports every outcome.
 *
 * ```ts
 * await runAgent(broker, "session-1", (line) => output.appendLine(line));
 * ```
 */
export async function runAgent(broker: ApprovalBroker, sessionId: string, say: Say): Promise<ApprovalOutcome[]> {
  const outcomes: ApprovalOutcome[] = [];
  let n = 0;
  for (const step of SCRIPT) {
    n += 1;
    say(`agent: ${step.say}`);
    const outcome = await broker.requestApproval({
      sessionId,
      callId: `call-${n}`,
      ...(step.timeoutMs === undefined ? {} : { timeoutMs: step.timeoutMs }),
      request: { tool: step.tool, input: step.input, cwd: CWD, agent: AGENT },
    });
    outcomes.push(outcome);
    say(`call-${n} ${describe(step, outcome)}`);
    if (outcome.status === "approved") {
      broker.runs.start(outcome.id);
      broker.runs.complete(outcome.id);
    }
  }
  say("agent: done");
  return outcomes;
}

function describe(step: Step, outcome: ApprovalOutcome): string {
  const call = `${step.tool}(${Object.values(step.input).join(" ")})`;
  if (outcome.status === "approved") {
    return `ran ${call} (approved by ${outcome.by}${outcome.scope ? `, ${outcome.scope}` : ""})`;
  }
  const told = outcome.feedback?.aiMessage ?? outcome.message ?? outcome.status;
  return `not run ${call} (${outcome.status} by ${outcome.by}); the model is told: ${told}`;
}

// The extension: policy, trust and broker run here, in the extension host (the Node build on
// desktop, the web build in VS Code for the Web); the approval card runs in a webview.
import * as vscode from "vscode";
import type { ApprovalBroker } from "toolgate" with { "resolution-mode": "import" };
import { AGENT, POLICY, runAgent } from "./agent.js";
import { ApprovalsPanel } from "./panel.js";
import { loadToolgate, mementoTrustStorage } from "./toolgate.js";

const LOG = "[toolgate-example]";

/** Called by VS Code once: loads toolgate, restores trust, registers the commands. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("Toolgate Example");
  const say = (line: string) => {
    output.appendLine(line);
    console.log(`${LOG} ${line}`);
  };
  const toolgate = await loadToolgate(context.extensionUri);
  const broker: ApprovalBroker = new toolgate.ApprovalBroker({
    policy: POLICY,
    defaultTimeoutMs: 120_000,
    storage: mementoTrustStorage(context.globalState),
    onError: (error) => say(`error: ${String(error)}`),
  });
  await broker.ready;
  context.subscriptions.push(output, { dispose: () => broker.shutdown() });

  let runs = 0;
  const openApprovals = () => ApprovalsPanel.show(context.extensionUri, toolgate, broker);
  const commands: Record<string, () => unknown> = {
    "toolgateExample.openApprovals": openApprovals,
    "toolgateExample.runAgent": async () => {
      openApprovals();
      runs += 1;
      await runAgent(broker, `run-${runs}`, say);
    },
    "toolgateExample.showTrust": () => {
      const grants = broker.trust.list().filter((g) => g.scope === "always");
      say(`trust: ${grants.length === 0 ? "none" : grants.map((g) => g.rule).join(", ")}`);
      void vscode.window.showInformationMessage(
        grants.length === 0 ? "Toolgate: no saved grants" : `Toolgate: always allowed: ${grants.map((g) => g.rule).join(", ")}`,
      );
    },
    "toolgateExample.revokeTrust": async () => {
      const items = broker.trust.list().map((g) => ({ label: g.rule, description: g.scope, id: g.id }));
      const picked = await vscode.window.showQuickPick(items, { placeHolder: "Grant to revoke" });
      if (picked === undefined) return;
      broker.trust.revoke(picked.id);
      await broker.trust.flushStorage();
      say(`revoked: ${picked.label}`);
    },
    "toolgateExample.exportAudit": async () => {
      // JSON Lines: one audit event per line.
      const doc = await vscode.workspace.openTextDocument({ content: broker.audit.toJsonLines(), language: "jsonl" });
      await vscode.window.showTextDocument(doc);
      say(`audit exported: ${broker.audit.query().length} events`);
    },
  };
  for (const [id, run] of Object.entries(commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(id, run));
  }
  say(`activated (${AGENT}, ${broker.trust.list().length} saved grants)`);
}

/** Nothing to do: the broker shuts down with the subscriptions. */
export function deactivate(): void {}

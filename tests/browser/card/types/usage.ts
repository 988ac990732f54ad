// Compile-only checks of approval-card.d.ts: how a host uses the card.

import {
  ToolgateApprovalCard,
  TAG,
  diffLines,
  type AllowAnswer,
  type Answer,
  type AnswerDetail,
  type PendingApproval,
  type SettledRecord,
} from "../../../../pkg/ui/approval-card.js";

declare const approval: PendingApproval;
declare function respond(id: string, answer: Answer): Promise<void>;

const card = document.createElement(TAG);
const typed: ToolgateApprovalCard = card;
typed.approval = approval;
typed.batch = true;
typed.now = () => 0;
document.querySelector("toolgate-approval-card")?.settle({ status: "expired" });

card.addEventListener("toolgate-answer", (event) => {
  const detail: AnswerDetail = event.detail;
  if (detail.answer.kind === "allow") {
    const scope: "once" | "session" | "always" = detail.answer.scope;
    const edited: Record<string, unknown> | undefined = detail.answer.editedInput;
    void scope;
    void edited;
  } else if (detail.answer.kind === "deny") {
    const message: string | undefined = detail.answer.message;
    void message;
  } else {
    const kind: "allowToolForSession" = detail.answer.kind;
    void kind;
  }
  void respond(detail.id, detail.answer);
});
document.addEventListener("toolgate-answer-all", (event) => {
  const kind: "allowAll" | "denyAll" = event.detail.kind;
  void kind;
});
card.addEventListener("toolgate-expired", (event) => void event.detail.id);

const record: SettledRecord | null = card.record;
void record;
void diffLines("a", "b").map((line) => line.op);

// @ts-expect-error an unknown scope is a type error
const forever: AllowAnswer = { kind: "allow", scope: "forever" };
// @ts-expect-error settle needs a known status
card.settle({ status: "maybe" });
// @ts-expect-error risk is a closed set
const risky: PendingApproval["risk"] = "extreme";
void forever;
void risky;

// Type declarations for the toolgate approval card (approval-card.js). The wire types come
// from the package's generated declarations (../web/types.js); what is declared here is the
// card's own: its answers, events, records and element.

import type {
  AnswerKind,
  Danger,
  Decision,
  Effect,
  JsonValue,
  PartDecision,
  PendingApproval,
  Risk,
  Scope,
} from "../web/types.js";

// The wire types, as the package generates them from the Rust types: the card renders a
// `PendingApproval` as the broker emits it.
export type { Danger, Effect, JsonValue, PartDecision, PendingApproval, Risk };

/** The answers the broker may offer for a pending approval. */
export type AnswerOption = AnswerKind;

/** The policy's decision as the broker sends it with a pending approval. */
export type ApprovalDecision = Decision;

/** How long an allow holds. */
export type AllowScope = Scope;

/** An allow, possibly with arguments the person edited. */
export interface AllowAnswer {
  kind: "allow";
  scope: AllowScope;
  /** Present only when the person changed the arguments; always a JSON object. */
  editedInput?: { [key: string]: JsonValue };
}

/** A denial, possibly with a message for the model. */
export interface DenyAnswer {
  kind: "deny";
  message?: string;
}

/** Allow the tool, any arguments, for the rest of the session. */
export interface AllowToolForSessionAnswer {
  kind: "allowToolForSession";
}

/** The answer to one pending approval. */
export type Answer = AllowAnswer | DenyAnswer | AllowToolForSessionAnswer;

/** `toolgate-answer` detail: pass it on as `broker.respond(id, answer)`. */
export interface AnswerDetail {
  id: string;
  answer: Answer;
}

/** `toolgate-answer-all` detail: call `approveAll()` or `denyAll()`. */
export interface AnswerAllDetail {
  kind: "allowAll" | "denyAll";
}

/** `toolgate-expired` detail: the card's countdown reached the deadline. */
export interface ExpiredDetail {
  id: string;
}

/** How a request ended. */
export type SettledStatus = "approved" | "denied" | "expired" | "cancelled";

/** What `settle()` takes and `record` returns. */
export interface SettledRecord {
  status: SettledStatus;
  /** For `approved`: `once`, `session` or `always`. */
  scope?: AllowScope | string;
  /** For `denied`: the message sent to the model. */
  message?: string;
}

/** One line of a line diff. */
export interface DiffLine {
  op: "same" | "del" | "add";
  text: string;
}

/** A diff row: a line, or a run of unchanged lines folded away. */
export type DiffRow = DiffLine | { op: "skip"; count: number };

/** The tag the card is defined under. */
export declare const TAG: "toolgate-approval-card";

/**
 * `<toolgate-approval-card>`: shows a pending approval and emits the answer.
 *
 * Attributes: `batch` (offer Allow all / Deny all where listed), `modal`
 * (show as a modal `<dialog>`), `editable` (offer Edit arguments),
 * `heading-level` (1–6, default 2), `data-theme` (`light` or `dark`).
 *
 * Events (bubbling, composed, cancelable): `toolgate-answer`,
 * `toolgate-answer-all`; and `toolgate-expired` when the countdown ends.
 * Unless a listener calls `preventDefault()`, the card settles itself with
 * the matching record; otherwise it freezes until `settle()` is called.
 */
export declare class ToolgateApprovalCard extends HTMLElement {
  static readonly observedAttributes: string[];
  /** The clock in Unix milliseconds (default `Date.now`); replace it to test the countdown. */
  now: () => number;
  /** Enter is ignored this long (ms) after the card appears and after focus comes into it from outside (default 300). */
  keyGuardMs: number;
  /** Whether the card takes focus when it appears (default true; never from a text field outside the cards). */
  focusOnShow: boolean;
  /** The pending approval shown; setting it draws the card anew. */
  get approval(): PendingApproval | null;
  set approval(value: PendingApproval | null);
  /** The record once settled, or null while pending. */
  get record(): SettledRecord | null;
  batch: boolean;
  modal: boolean;
  editable: boolean;
  headingLevel: number;
  /** Focuses the card's group (or its record once settled). */
  focus(options?: FocusOptions): void;
  /** Recomputes the countdown now (the card's own timer calls it twice a second). */
  tick(): void;
  /** Replaces the card with its one-line record. Throws a TypeError on an unknown status. */
  settle(record: SettledRecord): void;
  connectedCallback(): void;
  disconnectedCallback(): void;
  attributeChangedCallback(name: string, before: string | null, after: string | null): void;
}

/** Says `text` through the page's shared polite live region. */
export declare function announce(text: string): void;

/** Formats remaining milliseconds as `m:ss` or `h:mm:ss`, rounding up. */
export declare function formatRemaining(ms: number): string;

/** Diffs two texts line by line (longest common subsequence). */
export declare function diffLines(oldText: string, newText: string, maxCells?: number): DiffLine[];

/** Folds runs of unchanged lines, keeping `context` lines around changes. */
export declare function foldUnchanged(lines: DiffLine[], context?: number): DiffRow[];

/** Renders a JSON value as a foldable, highlighted tree of DOM nodes. */
export declare function renderJson(value: unknown, options?: { openDepth?: number }): HTMLElement;

/** Lists what keeps a value from being shown as a pending approval (empty when fine). */
export declare function approvalProblems(value: unknown): string[];

/** The events a card dispatches; they bubble to the document and the window. */
export interface ToolgateCardEventMap {
  "toolgate-answer": CustomEvent<AnswerDetail>;
  "toolgate-answer-all": CustomEvent<AnswerAllDetail>;
  "toolgate-expired": CustomEvent<ExpiredDetail>;
}

declare global {
  interface HTMLElementTagNameMap {
    "toolgate-approval-card": ToolgateApprovalCard;
  }
  interface HTMLElementEventMap extends ToolgateCardEventMap {}
  interface DocumentEventMap extends ToolgateCardEventMap {}
  interface WindowEventMap extends ToolgateCardEventMap {}
}

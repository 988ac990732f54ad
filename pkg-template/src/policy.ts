// Policy: a policy document compiled once, then evaluate/explain per call.

import { bindings, type RawPolicy } from "./bindings.js";
import { guard, jsonText } from "./errors.js";
import type { Decision, Explanation, PolicyDocument, PolicyWarning, ToolRequest } from "./types.js";

const raws = new WeakMap<Policy, RawPolicy>();

/** A compiled policy: decides whether a tool call is allowed, asks, or is denied, and why. */
export class Policy {
  /** What in the document loads but probably does not do what was meant. */
  readonly warnings: PolicyWarning[];

  /**
   * Parses and compiles a policy document (an object or JSON text). Throws a
   * `ToolgateError` (e.g. `INVALID_RULE` at `permissions.deny[0]`) for a bad document.
   */
  constructor(policy: PolicyDocument | string) {
    const raw = guard(() => new (bindings().RawPolicy)(jsonText(policy, "policy")));
    raws.set(this, raw);
    this.warnings = guard(() => raw.warnings());
  }

  /** Decides one call. Throws a `ToolgateError` only for a malformed request. */
  evaluate(request: ToolRequest): Decision {
    const raw = rawPolicy(this);
    return guard(() => raw.evaluate(jsonText(request, "request")));
  }

  /** Decides one call and lists every rule that was consulted. */
  explain(request: ToolRequest): Explanation {
    const raw = rawPolicy(this);
    return guard(() => raw.explain(jsonText(request, "request")));
  }
}

/** @internal The raw handle of an engine (for the broker). */
export function rawPolicy(engine: Policy): RawPolicy {
  const raw = raws.get(engine);
  if (raw === undefined) throw new TypeError("not a Policy made by its constructor");
  return raw;
}

/** An engine for whatever a host passes as a policy. */
export function toPolicy(policy: Policy | PolicyDocument | string): Policy {
  return policy instanceof Policy ? policy : new Policy(policy);
}

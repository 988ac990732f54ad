// ToolgateError: the one error class every entry throws, with a stable `code`, the `path`
// to the bad input and a `hint`. Errors thrown by the wasm core (plain `Error`s named
// `ToolgateError`) are turned into instances of this class at the boundary.

import type { ErrorCode } from "./types.js";

/** The error toolgate throws: a stable `code`, the `path` to the bad input, a `hint`. */
export class ToolgateError extends Error {
  override readonly name: "ToolgateError" = "ToolgateError";
  /** A stable code, e.g. `INVALID_RULE`. */
  readonly code: ErrorCode;
  /** Where the bad value is (`permissions.deny[0]`); empty for the whole input. */
  readonly path: string;
  /** How to fix it, when there is a hint. */
  readonly hint?: string;

  constructor(code: ErrorCode, message: string, path = "", hint?: string) {
    super(message);
    this.code = code;
    this.path = path;
    if (hint !== undefined) this.hint = hint;
  }
}

function field(value: object, key: string): unknown {
  return (value as { [key: string]: unknown })[key];
}

/** The `ToolgateError` for anything thrown by the core; other errors are wrapped too. */
export function toToolgateError(err: unknown): ToolgateError {
  if (err instanceof ToolgateError) return err;
  if (err instanceof Error && err.name === "ToolgateError") {
    const code = field(err, "code");
    const path = field(err, "path");
    const hint = field(err, "hint");
    return new ToolgateError(
      (typeof code === "string" ? code : "INVALID_REQUEST") as ErrorCode,
      err.message,
      typeof path === "string" ? path : "",
      typeof hint === "string" ? hint : undefined,
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ToolgateError("INVALID_REQUEST", `the engine failed: ${message}`);
}

/** Runs `f`, turning whatever it throws into a `ToolgateError`. */
export function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw toToolgateError(err);
  }
}

/** The JSON text of a document, or a `ToolgateError` naming `what` when it has none. */
export function jsonText(value: unknown, what: string): string {
  if (typeof value === "string") return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ToolgateError("INVALID_JSON", `the ${what} cannot be written as JSON: ${message}`, "",
      "pass plain objects, arrays, strings, numbers and booleans");
  }
  if (text === undefined) {
    throw new ToolgateError("INVALID_JSON", `the ${what} is \`${String(value)}\`, not a JSON value`, "",
      `pass the ${what} as an object or as JSON text`);
  }
  return text;
}

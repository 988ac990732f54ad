// Host callbacks (listeners, error handlers) run through here: whatever they do (throw,
// return a promise that rejects, throw while reporting), the caller carries on, so no
// approval is left unsettled and no rejection goes unhandled.

/**
 * Reports `error` to `onError` without ever throwing or rejecting: a handler that throws
 * sends both errors to `console.error`. Host callbacks run through `callSafely`.
 */
export function reporter(onError: ((error: unknown) => unknown) | undefined): (error: unknown) => void {
  return (error) => {
    if (onError === undefined) {
      lastResort("toolgate:", error);
      return;
    }
    const handlerFailed = (again: unknown) =>
      lastResort("toolgate: the error handler failed:", again, "while reporting:", error);
    try {
      const result: unknown = onError(error);
      if (isThenable(result)) result.then(undefined, handlerFailed);
    } catch (again) {
      handlerFailed(again);
    }
  };
}

/** `console.error`, unless that throws too: then nothing more can be done. */
function lastResort(...parts: unknown[]): void {
  try {
    console.error(...parts);
  } catch {
    // console.error itself threw: there is nowhere left to report to.
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null &&
    typeof (value as { then?: unknown }).then === "function";
}

/** Calls a host callback; a throw, or a rejection of the promise it returns, is reported. */
export function callSafely<T>(callback: (value: T) => unknown, value: T, report: (error: unknown) => void): void {
  try {
    const result = callback(value);
    if (isThenable(result)) result.then(undefined, report);
  } catch (err) {
    report(err);
  }
}

// The approval benchmarks, self-contained so that Playwright can run the same source in a
// page: `approvalBench(api, { roundTrips, pending })` measures requestApproval → onRequest
// listener → respond → promise settled, then `pending` concurrent approvals (create, memory,
// settle with approveAll).
export async function approvalBench(api, { roundTrips = 2000, pending = 10000 } = {}) {
  const policy = { permissions: { ask: ["Bash(git push *)"] } };
  const call = (i) => ({
    sessionId: "bench",
    callId: `c${i}`,
    request: { tool: "Bash", input: { command: `git push origin b${i}` }, cwd: "/home/ada/proj" },
  });
  const quantile = (xs, q) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))];
  };
  // Node: JS heap plus external memory (which holds the wasm memory's buffer), after a
  // collection (`--expose-gc`). Chromium: the JS heap only (the wasm memory is not in it).
  const memory = () => {
    globalThis.gc?.();
    if (typeof process !== "undefined" && process.memoryUsage) {
      const m = process.memoryUsage();
      return m.heapUsed + m.external;
    }
    return performance.memory?.usedJSHeapSize ?? NaN;
  };

  const broker = new api.ApprovalBroker({ policy, defaultTimeoutMs: 3_600_000 });
  broker.onRequest((p) => queueMicrotask(() => broker.respond(p.id, { kind: "allow", scope: "once" })));
  const times = [];
  for (let i = 0; i < roundTrips; i++) {
    const t0 = performance.now();
    const outcome = await broker.requestApproval(call(i));
    times.push(performance.now() - t0);
    if (outcome.status !== "approved") throw new Error(`round trip ${i}: ${outcome.status}`);
  }
  broker.shutdown();

  const many = new api.ApprovalBroker({ policy, defaultTimeoutMs: 3_600_000 });
  const before = memory();
  const t0 = performance.now();
  const promises = [];
  for (let i = 0; i < pending; i++) promises.push(many.requestApproval(call(i)));
  const created = performance.now() - t0;
  const listed = many.pending().length;
  const after = memory();
  const t1 = performance.now();
  many.approveAll("bench");
  const outcomes = await Promise.all(promises);
  const settled = performance.now() - t1;
  many.shutdown();
  if (listed !== pending || outcomes.some((o) => o.status !== "approved")) {
    throw new Error(`pending approvals: ${listed} listed, not all approved`);
  }
  return {
    roundTrip: { count: roundTrips, medianMs: quantile(times, 0.5), p99Ms: quantile(times, 0.99) },
    pending: { count: pending, createMs: created, settleMs: settled, memoryBytes: after - before },
  };
}

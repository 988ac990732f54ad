// Per-decision timing: every call timed on its own (median and p99 over all calls), rounds
// over the request list until a time budget is spent.
export function measure(decide, requests, { budgetMs = 700, maxRounds = 30, keep } = {}) {
  for (const r of requests) decide(r); // warm-up
  const times = [];
  const start = performance.now();
  for (let round = 0; round < maxRounds; round++) {
    for (const r of requests) {
      const t0 = process.hrtime.bigint();
      decide(r);
      times.push(Number(process.hrtime.bigint() - t0));
    }
    if (performance.now() - start > budgetMs) break;
  }
  if (keep) keep.push(...times);
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] / 1000;
  return { samples: times.length, median: at(0.5), p99: at(0.99) };
}

/**
 * Mean CPU time (µs) of this process per call, over whole passes of the request list until
 * the budget is spent: less disturbed than the wall clock when other processes share the
 * cores (time a process waits for a core is not counted).
 */
export function cpuPerCall(decide, requests, { budgetMs = 200 } = {}) {
  const start = performance.now();
  const before = process.cpuUsage();
  let calls = 0;
  do {
    for (const r of requests) decide(r);
    calls += requests.length;
  } while (performance.now() - start < budgetMs);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

/** The cost of the timer itself (µs), to read the smallest figures against. */
export function timerOverhead() {
  const times = [];
  for (let i = 0; i < 100_000; i++) {
    const t0 = process.hrtime.bigint();
    times.push(Number(process.hrtime.bigint() - t0));
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1] / 1000;
}

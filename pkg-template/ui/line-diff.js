// A small line diff: longest common subsequence over lines, after trimming
// the common head and tail. Pure functions, no DOM.

/**
 * @typedef {{ op: "same" | "del" | "add", text: string }} DiffLine
 * @typedef {DiffLine | { op: "skip", count: number }} DiffRow
 */

/** Above this many table cells the middle is shown as removed-then-added. */
export const MAX_LCS_CELLS = 4_000_000;

/**
 * Splits text into lines; a final newline does not start another line.
 *
 * @param {string} text
 * @returns {string[]}
 */
export function splitLines(text) {
  if (text === "") return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Diffs two texts line by line. Unchanged lines are `same`, lines only in
 * the old text `del`, lines only in the new text `add`; within a change the
 * removed lines come first.
 *
 * @param {string} oldText
 * @param {string} newText
 * @param {number} [maxCells] the largest LCS table to build
 * @returns {DiffLine[]}
 */
export function diffLines(oldText, newText, maxCells = MAX_LCS_CELLS) {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let endA = a.length;
  let endB = b.length;
  while (endA > head && endB > head && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  /** @type {DiffLine[]} */
  const out = [];
  for (let i = 0; i < head; i++) out.push({ op: "same", text: a[i] });
  const n = endA - head;
  const m = endB - head;
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= maxCells) {
    // lcs[i * w + j]: the LCS length of a[head + i ..] and b[head + j ..].
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] =
          a[head + i] === b[head + j]
            ? lcs[(i + 1) * w + j + 1] + 1
            : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[head + i] === b[head + j]) {
        out.push({ op: "same", text: a[head + i] });
        i++;
        j++;
      } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
        out.push({ op: "del", text: a[head + i++] });
      } else {
        out.push({ op: "add", text: b[head + j++] });
      }
    }
    while (i < n) out.push({ op: "del", text: a[head + i++] });
    while (j < m) out.push({ op: "add", text: b[head + j++] });
  } else {
    for (let i = head; i < endA; i++) out.push({ op: "del", text: a[i] });
    for (let j = head; j < endB; j++) out.push({ op: "add", text: b[j] });
  }
  for (let i = endA; i < a.length; i++) out.push({ op: "same", text: a[i] });
  return out;
}

/**
 * Keeps `context` unchanged lines around each change and folds longer runs
 * of unchanged lines into `skip` rows.
 *
 * @param {DiffLine[]} lines
 * @param {number} [context]
 * @returns {DiffRow[]}
 */
export function foldUnchanged(lines, context = 3) {
  /** @type {DiffRow[]} */
  const rows = [];
  let run = 0;
  const flush = (/** @type {number} */ end, /** @type {boolean} */ atStart, /** @type {boolean} */ atEnd) => {
    const start = end - run;
    const keepBefore = atStart ? 0 : context;
    const keepAfter = atEnd ? 0 : context;
    if (run <= keepBefore + keepAfter + 1) {
      for (let k = start; k < end; k++) rows.push(lines[k]);
    } else {
      for (let k = start; k < start + keepBefore; k++) rows.push(lines[k]);
      rows.push({ op: "skip", count: run - keepBefore - keepAfter });
      for (let k = end - keepAfter; k < end; k++) rows.push(lines[k]);
    }
    run = 0;
  };
  let seenChange = false;
  lines.forEach((line, index) => {
    if (line.op === "same") {
      run++;
      return;
    }
    if (run > 0) flush(index, !seenChange, false);
    seenChange = true;
    rows.push(line);
  });
  if (run > 0) flush(lines.length, !seenChange, true);
  return rows;
}

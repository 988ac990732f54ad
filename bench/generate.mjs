// Generated policies and requests for the benchmarks, in the three encodings compared:
// a toolgate policy document, a rule list for a hand-rolled picomatch loop, and Cedar policy
// sets (allow and deny in one set, ask as a second). Deterministic (fixed seed).

/** Mulberry32: a small seeded PRNG, so every run measures the same inputs. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CWD = "/home/ada/proj";
export const FORMS = ["shell", "read", "edit", "url", "mcp"];

/** Rule `i` of a policy: its form, list (20% deny, 20% ask, 60% allow) and each encoding. */
function rule(i) {
  const form = FORMS[i % FORMS.length];
  const bucket = (i * 7) % 10;
  const list = bucket < 2 ? "deny" : bucket < 4 ? "ask" : "allow";
  switch (form) {
    case "shell":
      return {
        form, list,
        toolgate: `Bash(cmd${i} sub${i} *)`,
        tool: "Bash", glob: `cmd${i} sub${i} *`, exact: `cmd${i} sub${i}`,
        cedar: `action == Action::"Bash", resource) when { context.command == "cmd${i} sub${i}" || context.command like "cmd${i} sub${i} *" }`,
      };
    case "read":
      return {
        form, list,
        toolgate: `Read(//srv/d${i}/**)`,
        tool: "Read", glob: `/srv/d${i}/**`,
        cedar: `action == Action::"Read", resource) when { context.path like "/srv/d${i}/*" }`,
      };
    case "edit":
      return {
        form, list,
        toolgate: `Edit(./src${i}/**/*.ts)`,
        tool: "Edit", glob: `${CWD}/src${i}/**/*.ts`,
        cedar: `action == Action::"Edit", resource) when { context.path like "${CWD}/src${i}/*.ts" }`,
      };
    case "url":
      return {
        form, list,
        toolgate: `WebFetch(domain:h${i}.example.com)`,
        tool: "WebFetch", host: `h${i}.example.com`,
        cedar: `action == Action::"WebFetch", resource) when { context.host == "h${i}.example.com" }`,
      };
    default:
      return {
        form, list,
        toolgate: `mcp__s${i}__get_*`,
        tool: "mcp", glob: `mcp__s${i}__get_*`,
        cedar: `action == Action::"mcp", resource) when { context.tool like "mcp__s${i}__get_*" }`,
      };
  }
}

/** A policy of `n` rules in every encoding. */
export function policy(n) {
  const rules = Array.from({ length: n }, (_, i) => rule(i));
  const doc = { permissions: { allow: [], ask: [], deny: [] } };
  for (const r of rules) doc.permissions[r.list].push(r.toolgate);
  const main = {};
  const ask = {};
  rules.forEach((r, i) => {
    if (r.list === "ask") ask[`a${i}`] = `permit(principal, ${r.cedar};`;
    else main[`${r.list[0]}${i}`] = `${r.list === "deny" ? "forbid" : "permit"}(principal, ${r.cedar};`;
  });
  return { n, rules, doc, cedar: { main, ask } };
}

/**
 * `count` requests of one form (or `mix`), half naming a rule of the policy (any list), half
 * naming nothing it has. Each request carries the toolgate request and the plain facts the
 * other engines match on (tool, command, absolute path, host, MCP tool name).
 */
export function requests(n, form, count, seed = 7) {
  const next = rng(seed + n);
  const out = [];
  for (let k = 0; k < count; k++) {
    const f = form === "mix" ? FORMS[Math.floor(next() * FORMS.length)] : form;
    // Index of a rule of this form (hit) or a number beyond the policy (miss).
    const hit = next() < 0.5;
    const slot = Math.floor(next() * Math.max(1, Math.floor(n / FORMS.length)));
    const i = hit ? slot * FORMS.length + FORMS.indexOf(f) : n + k * FORMS.length + 1;
    out.push(request(f, i));
  }
  return out;
}

function request(form, i) {
  const facts = { command: "", path: "", host: "", tool: "" };
  let req;
  switch (form) {
    case "shell":
      facts.command = `cmd${i} sub${i} --flag value`;
      req = { tool: "Bash", input: { command: facts.command }, cwd: CWD };
      return { req, facts: { ...facts, action: "Bash" } };
    case "read":
      facts.path = `/srv/d${i}/deep/file.txt`;
      req = { tool: "Read", input: { file_path: facts.path }, cwd: CWD };
      return { req, facts: { ...facts, action: "Read" } };
    case "edit":
      facts.path = `${CWD}/src${i}/deep/x.ts`;
      req = { tool: "Edit", input: { file_path: `src${i}/deep/x.ts` }, cwd: CWD };
      return { req, facts: { ...facts, action: "Edit" } };
    case "url":
      facts.host = `h${i}.example.com`;
      req = { tool: "WebFetch", input: { url: `https://${facts.host}/path` }, cwd: CWD };
      return { req, facts: { ...facts, action: "WebFetch" } };
    default:
      facts.tool = `mcp__s${i}__get_issue`;
      req = { tool: facts.tool, input: {}, cwd: CWD };
      return { req, facts: { ...facts, action: "mcp" } };
  }
}

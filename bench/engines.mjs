// The three engines behind one interface: `load(policy)` returns `decide(request) → effect`.
import { createRequire } from "node:module";

import picomatch from "picomatch";

const require = createRequire(import.meta.url);

/** toolgate's `Policy` (wasm), including the JS↔wasm crossing of every call. */
export function toolgate(api) {
  return {
    name: "toolgate",
    load(p) {
      const engine = new api.Policy(p.doc);
      return (r) => engine.evaluate(r.req).effect;
    },
  };
}

/**
 * The loop a JS developer would write: each rule compiled once with picomatch; deny rules,
 * then ask, then allow, the first match deciding; no match asks. Commands are matched with
 * `/` swapped for a character picomatch treats as ordinary, so `*` spans the whole rest of
 * the line as toolgate's does; `prefix *` also accepts the bare prefix.
 */
export function picomatchLoop() {
  const SLASH = "\u0001";
  const compile = (r) => {
    if (r.form === "shell") {
      const m = picomatch(r.glob.replaceAll("/", SLASH), { dot: true });
      return (f) => f.command === r.exact || m(f.command.replaceAll("/", SLASH));
    }
    if (r.form === "url") return (f) => f.host === r.host;
    if (r.form === "mcp") {
      const m = picomatch(r.glob);
      return (f) => m(f.tool);
    }
    const m = picomatch(r.glob, { dot: true });
    return (f) => m(f.path);
  };
  return {
    name: "picomatch loop",
    load(p) {
      const lists = { deny: [], ask: [], allow: [] };
      for (const r of p.rules) lists[r.list].push({ action: r.tool, match: compile(r) });
      const order = [
        ["deny", lists.deny],
        ["ask", lists.ask],
        ["allow", lists.allow],
      ];
      return (req) => {
        const f = req.facts;
        for (const [effect, rules] of order) {
          for (const r of rules) if (r.action === f.action && r.match(f)) return effect;
        }
        return "ask";
      };
    },
  };
}

/**
 * Cedar (`@cedar-policy/cedar-wasm`) with preparsed policy sets: allow rules as `permit` and
 * deny rules as `forbid` in one set, ask rules as `permit` in a second. A forbid decides deny;
 * else a permit in the ask set asks; else a permit allows; nothing asks.
 */
export function cedar() {
  const c = require("@cedar-policy/cedar-wasm/nodejs");
  let serial = 0;
  const check = (answer, what) => {
    if (answer.type !== "success") {
      throw new Error(`cedar ${what}: ${JSON.stringify(answer.errors).slice(0, 300)}`);
    }
  };
  return {
    name: "cedar",
    module: c,
    load(p) {
      const id = `s${serial++}`;
      check(c.preparsePolicySet(`${id}main`, { staticPolicies: p.cedar.main }), "main set");
      check(c.preparsePolicySet(`${id}ask`, { staticPolicies: p.cedar.ask }), "ask set");
      const call = (set, f) => {
        const a = c.statefulIsAuthorized({
          principal: { type: "Agent", id: "agent" },
          action: { type: "Action", id: f.action },
          resource: { type: "Resource", id: "r" },
          context: { command: f.command, path: f.path, host: f.host, tool: f.tool },
          preparsedPolicySetId: set,
          entities: [],
        });
        if (a.type !== "success") throw new Error(`cedar: ${JSON.stringify(a.errors)}`);
        return a.response;
      };
      return (req) => {
        const main = call(`${id}main`, req.facts);
        if (main.decision === "deny" && main.diagnostics.reason.length > 0) return "deny";
        if (call(`${id}ask`, req.facts).decision === "allow") return "ask";
        return main.decision === "allow" ? "allow" : "ask";
      };
    },
  };
}

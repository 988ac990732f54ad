#!/usr/bin/env bash
# Runs the real coding-agent CLIs (Claude Code, Codex, Gemini CLI, Copilot CLI,
# claude-code-acp) offline against a scripted fake model, with toolgate installed as their
# tool hook (tests/agents/). Installs the agents into tests/agents/node_modules when missing
# (their own package.json, several hundred MB), builds the native `toolgate` (and the npm
# package when pkg/ is missing: its bin is tested as a hook too), and ends with
# node's test summary; exits non-zero when a test fails.
#
# TOOLGATE_BIN=/path/to/toolgate uses that binary instead of building one.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TOOLGATE_ROOT"

AGENTS=tests/agents
stamp="$AGENTS/node_modules/.toolgate-installed"
if [[ ! -f "$stamp" || "$AGENTS/package-lock.json" -nt "$stamp" ]]; then
    step "installing the agent CLIs into $AGENTS/node_modules (npm ci; several hundred MB)"
    long "the first install downloads about 1 GB"
    # Install scripts stay off (some try to download prebuilt binaries, which fails offline);
    # Claude Code's only places its native binary, so it runs by itself.
    npm ci --prefix "$AGENTS" --ignore-scripts --no-audit --no-fund ||
        die "installing the agent CLIs failed" "run: npm ci --prefix $AGENTS --ignore-scripts"
    node "$AGENTS/node_modules/@anthropic-ai/claude-code/install.cjs" ||
        die "placing Claude Code's native binary failed" \
            "run: node $AGENTS/node_modules/@anthropic-ai/claude-code/install.cjs"
    touch "$stamp"
fi

if [[ -z "${TOOLGATE_BIN:-}" ]]; then
    step "cargo build --bin toolgate"
    cargo build --bin toolgate
    TOOLGATE_BIN="$TOOLGATE_ROOT/target/debug/toolgate"
fi
[[ -x "$TOOLGATE_BIN" ]] || die "no toolgate binary at $TOOLGATE_BIN" "unset TOOLGATE_BIN to build one"
export TOOLGATE_BIN

# The npm package's bin is tested as a hook too.
if [[ ! -f pkg/bin/toolgate.mjs ]]; then
    step "npm run build (the package's toolgate bin is one of the hooks under test)"
    bash scripts/build.sh
fi

step "node --test $AGENTS/*.test.mjs (one agent at a time)"
node --test --test-concurrency=1 --test-reporter=spec "$AGENTS"/*.test.mjs

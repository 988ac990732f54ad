#!/usr/bin/env bash
# Sets up, builds, and runs every suite; each one fails when it fails or runs no test.
# Prints a per-suite summary and, last, `N passed, M failed` (suites); exits 1 on any failure.
# Logs go to target/test-logs/SUITE.log.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TOOLGATE_ROOT" || exit 1

started=$SECONDS
# A failed setup or build ends the run with the same closing line as a failed suite.
stop_before_suites() {
    printf '\nerror: %s failed, so no suite ran\n\n0 passed, 1 failed\n' "$1" >&2
    exit 1
}
bash scripts/setup.sh || stop_before_suites setup
bash scripts/build.sh || stop_before_suites "the build"
load_wasm_env

LOGS=target/test-logs
rm -rf "$LOGS"
mkdir -p "$LOGS" tests/output

NAMES=()
RESULTS=()

# The number of tests a log says passed: cargo's and wasm-bindgen-test-runner's
# `test result: ok. N passed` lines, and node's `pass N` lines, added up.
passed_in() {
    local log="$1"
    { grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | grep -Eo '[0-9]+ passed' |
        grep -Eo '[0-9]+'; grep -Eo '^(ℹ|#) pass [0-9]+' "$log" | grep -Eo '[0-9]+$'; } |
        awk '{ s += $1 } END { print s + 0 }'
}

# suite NAME COUNTS COMMAND...: COUNTS is `tests` when the suite must run at least one test,
# `-` for checks without tests (fmt, clippy).
suite() {
    local name="$1" counts="$2"
    shift 2
    local log="$LOGS/$name.log" t0=$SECONDS result
    step "suite $name"
    if "$@" 2>&1 | tee "$log"; then
        result=passed
        if [[ "$counts" == tests ]]; then
            local n
            n="$(passed_in "$log")"
            if ((n == 0)); then
                result="FAILED (ran no test)"
            else
                result="passed ($n tests)"
            fi
        fi
    else
        result=FAILED
    fi
    NAMES+=("$name")
    RESULTS+=("$result in $((SECONDS - t0)) s")
}

clippy_all() {
    local rc=0
    note "cargo clippy --all-targets -- -D warnings"
    cargo clippy --all-targets -- -D warnings || rc=1
    note "cargo clippy --all-targets --features typescript -- -D warnings"
    cargo clippy --all-targets --features typescript -- -D warnings || rc=1
    note "cargo clippy --all-targets --features wasm,tools -- -D warnings"
    cargo clippy --all-targets --features wasm,tools -- -D warnings || rc=1
    note "cargo clippy --target $WASM_TARGET --all-targets --features wasm -- -D warnings"
    cargo_wasm clippy --all-targets --features wasm -- -D warnings || rc=1
    note "cargo clippy --target $WASM_TARGET --lib --features tools -- -D warnings"
    cargo_wasm clippy --lib --features tools -- -D warnings || rc=1
    return $rc
}

# Only the tests/wasm_*.rs targets build for wasm; the other integration tests are native-only.
WASM_TESTS=()
for file in tests/wasm_*.rs; do
    [[ -f "$file" ]] && WASM_TESTS+=(--test "$(basename "$file" .rs)")
done

wasm_tests() {
    ((${#WASM_TESTS[@]})) || { echo "no tests/wasm_*.rs"; return 1; }
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        cargo_wasm test --features wasm "${WASM_TESTS[@]}"
}

wasm_tests_chromium() {
    WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" wasm_tests
}

node_tests() {
    node --test --test-reporter=spec "$@"
}

# The TypeScript declarations: the generator's own tests (Rust, --features typescript), then
# the published package's declarations from a scratch project.
types_tests() {
    cargo test --features typescript --lib typescript &&
        node_tests tests/js/package/types.test.mjs
}

# The differential check: the native engine writes its decisions on the corpus
# (tests/corpus.rs, over tests/corpus/) and on a generated corpus (tests/differential.rs),
# then the wasm engine replays both in Node and in Chromium.
differential() {
    cargo test --test corpus --test differential &&
        node --test --test-reporter=spec tests/differential/*.test.mjs
}

suite fmt - cargo fmt --check
suite clippy - clippy_all
suite cargo-test tests cargo test
suite benches - cargo test --benches --no-run
suite differential tests differential
suite wasm-node tests wasm_tests
suite wasm-chromium tests wasm_tests_chromium
suite js tests node_tests tests/js/*.test.mjs
suite adapters tests node_tests tests/js/adapters/*.test.mjs
suite package tests node_tests tests/js/package/tarball.test.mjs
suite types tests types_tests
suite browser tests node_tests tests/browser/*.test.mjs
suite card tests node_tests tests/browser/card/*.test.mjs
suite demo tests node_tests tests/browser/demo/*.test.mjs
suite inbox tests node_tests tests/inbox/*.test.mjs

step "summary (wasm route: $TOOLGATE_WASM_ROUTE, $((SECONDS - started)) s in all; logs in $LOGS/)"
pass=0
fail=0
for i in "${!NAMES[@]}"; do
    printf '    %-14s %s\n' "${NAMES[$i]}" "${RESULTS[$i]}"
    if [[ "${RESULTS[$i]}" == passed* ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo
echo "$pass passed, $fail failed"
((fail == 0))

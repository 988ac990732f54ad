#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for a set time (60 s each; FUZZ_SECONDS overrides),
# installing cargo-fuzz if it is missing. Targets can be named: `bash scripts/fuzz.sh rule path`.
# Crashes are left in fuzz/artifacts/TARGET/; the corpus grows in fuzz/corpus/TARGET/.
# Prints one line per target with its executions and whether it found anything; exits 1 if
# any target found a crash.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TOOLGATE_ROOT/fuzz" || exit 1

SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
[[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] ||
    die "FUZZ_SECONDS must be a whole number of seconds, not \`$SECONDS_PER_TARGET\`" \
        "e.g. FUZZ_SECONDS=30 npm run fuzz"

cargo +nightly --version >/dev/null 2>&1 ||
    die "cargo-fuzz needs the nightly toolchain" "run: rustup toolchain install nightly"
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    step "installing cargo-fuzz"
    cargo install cargo-fuzz || die "cargo install cargo-fuzz failed"
fi

if (($#)); then
    TARGETS=("$@")
else
    mapfile -t TARGETS < <(cargo +nightly fuzz list)
fi

mkdir -p ../target/fuzz-logs
SUMMARY=()
failed=0
for target in "${TARGETS[@]}"; do
    step "fuzz $target for $SECONDS_PER_TARGET s"
    log="../target/fuzz-logs/$target.log"
    mkdir -p "corpus/$target"
    if cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -print_final_stats=1 >"$log" 2>&1; then
        result="no crash"
    else
        result="CRASH (see fuzz/artifacts/$target/ and target/fuzz-logs/$target.log)"
        failed=1
    fi
    runs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -n1)"
    cov="$(grep -Eo 'cov: [0-9]+' "$log" | tail -n1)"
    SUMMARY+=("$(printf '%-10s %12s runs  %-10s %s' "$target" "${runs:-?}" "${cov:-}" "$result")")
    tail -n 3 "$log"
done

step "summary ($SECONDS_PER_TARGET s per target)"
printf '    %s\n' "${SUMMARY[@]}"
exit $failed

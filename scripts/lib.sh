# shellcheck shell=bash
# Shared helpers for the bash scripts in scripts/. Source it; it sets nothing else.

TOOLGATE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLGATE_ENV_FILE="$TOOLGATE_ROOT/target/toolgate-wasm.env"
WASM_TARGET=wasm32-unknown-unknown

step() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
long() { printf '    (this is a long step: %s)\n' "$*"; }
die() {
    printf '\nerror: %s\n' "$1" >&2
    shift
    for line in "$@"; do printf '  %s\n' "$line" >&2; done
    exit 1
}

# Loads the wasm route that setup chose (target/toolgate-wasm.env); `cargo_wasm` uses it.
load_wasm_env() {
    [[ -f "$TOOLGATE_ENV_FILE" ]] ||
        die "the wasm toolchain is not set up (no ${TOOLGATE_ENV_FILE#"$TOOLGATE_ROOT"/})" \
            "run: bash scripts/setup.sh"
    # shellcheck source=/dev/null
    source "$TOOLGATE_ENV_FILE"
}

# `cargo_wasm SUBCOMMAND ARGS...` runs cargo for wasm32-unknown-unknown on the chosen route.
# The route's variables reach only this cargo, so native builds keep their own fingerprints.
cargo_wasm() {
    local sub="$1"
    shift
    local vars=()
    [[ -z "${TOOLGATE_RUSTC_BOOTSTRAP:-}" ]] || vars+=("RUSTC_BOOTSTRAP=$TOOLGATE_RUSTC_BOOTSTRAP")
    [[ -z "${TOOLGATE_WASM_LINKER:-}" ]] ||
        vars+=("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$TOOLGATE_WASM_LINKER")
    # shellcheck disable=SC2086 # the toolchain and flags are words on purpose
    env "${vars[@]}" cargo $TOOLGATE_WASM_TOOLCHAIN "$sub" --target "$WASM_TARGET" \
        $TOOLGATE_WASM_CARGO_FLAGS "$@"
}

# The version of a dependency pinned with `=` in Cargo.toml, e.g. `crate_pin wasm-bindgen`.
crate_pin() {
    sed -n -E "s/^$1 = \\{ *version = \"=([^\"]+)\".*/\\1/p" "$TOOLGATE_ROOT/Cargo.toml" | head -n1
}

# The package version from Cargo.toml.
crate_version() {
    sed -n -E 's/^version = "([^"]+)"/\1/p' "$TOOLGATE_ROOT/Cargo.toml" | head -n1
}

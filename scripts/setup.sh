#!/usr/bin/env bash
# Installs what the build and the tests need, and skips what is already there:
#   1. the Rust target wasm32-unknown-unknown (rustup, or Debian's rustc-web + build-std),
#   2. wasm-bindgen-cli at exactly the version Cargo.toml pins,
#   3. Chromium and chromedriver (Debian packages) for the browser tests, and shfmt and
#      strace for the shell oracles (tests/shell_differential.rs, tests/shell_dynamic.rs),
#   4. the npm dev dependencies (npm ci).
# The chosen wasm route is written to target/toolgate-wasm.env for build.sh and test.sh.
#
# TOOLGATE_WASM_ROUTE=rustup|debian forces a route (default: auto, rustup first).
# TOOLGATE_SKIP_BROWSER=1 skips step 3 (for `npm run build` on a machine without apt).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TOOLGATE_ROOT"

ROUTE="${TOOLGATE_WASM_ROUTE:-auto}"
DEBIAN_TOOLCHAIN=debweb
export DEBIAN_FRONTEND=noninteractive

as_root() {
    if [[ "$(id -u)" == 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo "$@"
    else
        return 1
    fi
}

APT_UPDATED=
apt_install() {
    command -v apt-get >/dev/null ||
        die "cannot install $* : this is not a Debian/Ubuntu machine (no apt-get)" \
            "install the equivalent of the Debian packages: $*"
    if [[ -z "$APT_UPDATED" ]]; then
        note "apt-get update"
        as_root apt-get update -qq ||
            die "apt-get update failed (needs root or passwordless sudo)" \
                "run as root, or install by hand: apt-get install -y $*"
        APT_UPDATED=1
    fi
    note "apt-get install -y $*"
    as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null ||
        die "apt-get install $* failed" "install them by hand: apt-get install -y $*"
}

# --- 0. The basics that setup cannot install itself -------------------------------------
step "checking Rust and Node"
{ command -v rustup && command -v cargo; } >/dev/null ||
    die "Rust is missing (no rustup or cargo on PATH)" \
        "install Rust with rustup (the stable toolchain), then run this again"
{ command -v node && command -v npm; } >/dev/null ||
    die "Node.js is missing" "install Node.js 20 or newer with npm (Debian: apt-get install nodejs npm)"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
((node_major >= 20)) || die "Node.js $(node --version) is too old" "install Node.js 20 or newer"
note "$(cargo --version), node $(node --version), npm $(npm --version)"
for component in rustfmt clippy; do
    cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1 && continue
    note "trying: rustup component add $component (at most 60 s)"
    timeout 60 rustup component add "$component" ||
        die "the Rust component $component is missing and rustup could not add it" \
            "run: rustup component add $component"
done

# --- 1. The wasm target ------------------------------------------------------------------
HOST="$(rustc -vV | sed -n 's/^host: //p')"
STABLE_SYSROOT="$(rustc --print sysroot)"

rustup_has_target() { rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET"; }

route_rustup() {
    if rustup_has_target; then
        note "rustup target $WASM_TARGET is installed"
        return 0
    fi
    note "trying: rustup target add $WASM_TARGET (at most 60 s; it can hang without network)"
    if timeout 60 rustup target add "$WASM_TARGET" && rustup_has_target; then
        return 0
    fi
    note "rustup could not add $WASM_TARGET"
    return 1
}

route_debian() {
    local lld="$STABLE_SYSROOT/lib/rustlib/$HOST/bin/rust-lld"
    [[ -x "$lld" ]] ||
        die "the Debian route needs rust-lld from the rustup toolchain, and $lld is missing" \
            "reinstall the toolchain: rustup toolchain install stable"
    local want=()
    [[ -x /usr/bin/rustc ]] || want+=(rustc-web)
    [[ -x /usr/bin/cargo ]] || want+=(cargo-web)
    [[ -d /usr/lib/rustlib/src/rust/library ]] || want+=(rust-web-src)
    [[ -x /usr/bin/cargo-clippy ]] || want+=(rust-web-clippy)
    if ((${#want[@]})); then
        long "installing Debian's Rust for wasm, about a minute"
        apt_install "${want[@]}"
    fi
    /usr/bin/rustc --print target-list | grep -qx "$WASM_TARGET" ||
        die "Debian's rustc does not know $WASM_TARGET" "apt-get install -y rustc-web (1.85 or newer)"
    if ! rustup toolchain list | grep -q "^$DEBIAN_TOOLCHAIN"; then
        note "rustup toolchain link $DEBIAN_TOOLCHAIN /usr"
        rustup toolchain link "$DEBIAN_TOOLCHAIN" /usr
    fi
    note "$(rustc "+$DEBIAN_TOOLCHAIN" --version) builds std for $WASM_TARGET from source"
    note "(the first wasm build on this route compiles std: about 1.5 minutes)"
    LINKER="$lld"
}

step "Rust target $WASM_TARGET (route: $ROUTE)"
LINKER=
case "$ROUTE" in
auto) if route_rustup; then CHOSEN=rustup; else route_debian && CHOSEN=debian; fi ;;
rustup) route_rustup || die "rustup cannot install $WASM_TARGET" \
    "unset TOOLGATE_WASM_ROUTE to fall back to the Debian route, or run: rustup target add $WASM_TARGET"
    CHOSEN=rustup ;;
debian) route_debian && CHOSEN=debian ;;
*) die "TOOLGATE_WASM_ROUTE=$ROUTE is not a route" "use auto, rustup or debian" ;;
esac

mkdir -p target
if [[ "$CHOSEN" == debian ]]; then
    cat >"$TOOLGATE_ENV_FILE" <<ENV
# Written by scripts/setup.sh: Debian's rustc-web with std built from source.
TOOLGATE_WASM_ROUTE=debian
TOOLGATE_WASM_TOOLCHAIN=+$DEBIAN_TOOLCHAIN
TOOLGATE_WASM_CARGO_FLAGS="-Z build-std=std,panic_abort"
TOOLGATE_RUSTC_BOOTSTRAP=1
TOOLGATE_WASM_LINKER=$LINKER
ENV
else
    cat >"$TOOLGATE_ENV_FILE" <<ENV
# Written by scripts/setup.sh: the rustup target.
TOOLGATE_WASM_ROUTE=rustup
TOOLGATE_WASM_TOOLCHAIN=
TOOLGATE_WASM_CARGO_FLAGS=
TOOLGATE_RUSTC_BOOTSTRAP=
TOOLGATE_WASM_LINKER=
ENV
fi
note "route: $CHOSEN (recorded in target/toolgate-wasm.env)"

# --- 2. wasm-bindgen-cli -----------------------------------------------------------------
BINDGEN_VERSION="$(crate_pin wasm-bindgen)"
[[ -n "$BINDGEN_VERSION" ]] ||
    die "Cargo.toml does not pin wasm-bindgen with \`=\`" 'write: wasm-bindgen = { version = "=X.Y.Z", ... }'
step "wasm-bindgen-cli $BINDGEN_VERSION"
have_bindgen() {
    [[ "$(wasm-bindgen --version 2>/dev/null)" == "wasm-bindgen $BINDGEN_VERSION" ]] &&
        [[ "$(wasm-bindgen-test-runner --version 2>/dev/null)" == *" $BINDGEN_VERSION" ]]
}
if have_bindgen; then
    note "installed"
else
    long "cargo install wasm-bindgen-cli $BINDGEN_VERSION compiles it, about 5 minutes on 2 cores"
    if ! cargo install wasm-bindgen-cli --version "$BINDGEN_VERSION" --locked; then
        note "the --locked install failed (its lockfile can pin crates the registry no longer serves);"
        note "retrying without --locked"
        cargo install wasm-bindgen-cli --version "$BINDGEN_VERSION" ||
            die "cannot install wasm-bindgen-cli $BINDGEN_VERSION" \
                "run: cargo install wasm-bindgen-cli --version $BINDGEN_VERSION"
    fi
    hash -r
    have_bindgen || die "wasm-bindgen $BINDGEN_VERSION is installed but not the one on PATH" \
        "put ~/.cargo/bin first on PATH (now: $(command -v wasm-bindgen || echo none))"
fi

# --- 3. Chromium and chromedriver --------------------------------------------------------
if [[ -n "${TOOLGATE_SKIP_BROWSER:-}" ]]; then
    step "Chromium: skipped (TOOLGATE_SKIP_BROWSER is set)"
else
    step "Chromium and chromedriver"
    if [[ -x "${CHROMIUM:-/usr/bin/chromium}" && -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]]; then
        note "installed: $("${CHROMIUM:-/usr/bin/chromium}" --version 2>/dev/null | head -n1)"
    else
        long "installing Debian's chromium and chromium-driver, a few minutes"
        apt_install chromium chromium-driver
    fi
fi

# --- 3b. The shell oracles: shfmt (a second bash parser) and strace --------------------
step "shfmt and strace (shell oracles)"
oracle_missing=()
command -v shfmt >/dev/null || oracle_missing+=(shfmt)
command -v strace >/dev/null || oracle_missing+=(strace)
if ((${#oracle_missing[@]} == 0)); then
    note "installed: shfmt $(shfmt --version 2>/dev/null), $(strace -V 2>/dev/null | head -n1)"
else
    apt_install "${oracle_missing[@]}"
fi

# --- 4. npm dev dependencies -------------------------------------------------------------
step "npm dev dependencies"
lock_hash="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
stamp=node_modules/.toolgate-lock-hash
if [[ -f "$stamp" && "$(cat "$stamp")" == "$lock_hash" ]]; then
    note "node_modules is up to date"
else
    note "npm ci"
    npm ci --no-audit --no-fund ||
        die "npm ci failed" "check that the npm registry is reachable, then run: npm ci"
    echo "$lock_hash" >"$stamp"
fi

step "setup done (wasm route: $CHOSEN)"

#!/usr/bin/env bash
# Builds the npm package in pkg/: the crate compiled to wasm (release profile), wasm-bindgen
# output for browsers (--target web) and for Node (--target nodejs, plus an ESM wrapper),
# wasm-opt -Oz from the npm `binaryen` package, the TypeScript layer (with the wire types'
# declarations generated from the Rust types) compiled by tsc, and pkg-template/ around them.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TOOLGATE_ROOT"

if [[ ! -f "$TOOLGATE_ENV_FILE" || ! -x node_modules/.bin/wasm-opt ]]; then
    note "the toolchain is not set up yet: running scripts/setup.sh first"
    TOOLGATE_SKIP_BROWSER=1 bash scripts/setup.sh
fi
load_wasm_env

BINDGEN_VERSION="$(crate_pin wasm-bindgen)"
[[ "$(wasm-bindgen --version 2>/dev/null)" == "wasm-bindgen $BINDGEN_VERSION" ]] ||
    die "wasm-bindgen $BINDGEN_VERSION is needed (found: $(wasm-bindgen --version 2>/dev/null || echo none))" \
        "run: bash scripts/setup.sh"

# Two modules: the core (--features wasm) that hosts load, and the tools (--features tools)
# that only the npm bin and `toolgate/import` load. Cargo writes both to one path, so each is
# copied out before the other is built.
CARGO_WASM="target/$WASM_TARGET/release/toolgate.wasm"
mkdir -p target/wasm
WASM=target/wasm/toolgate.wasm
TOOLS_WASM=target/wasm/toolgate_tools.wasm
step "cargo build --release --lib --target $WASM_TARGET --features wasm (route: $TOOLGATE_WASM_ROUTE)"
cargo_wasm build --release --lib --features wasm
[[ -f "$CARGO_WASM" ]] || die "cargo did not produce $CARGO_WASM"
cp "$CARGO_WASM" "$WASM"
step "cargo build --release --lib --target $WASM_TARGET --features tools (the second wasm)"
cargo_wasm build --release --lib --features tools
cp "$CARGO_WASM" "$TOOLS_WASM"

OUT=target/bindgen
rm -rf "$OUT"
step "wasm-bindgen --target web and --target nodejs (core and tools)"
wasm-bindgen --target web --out-dir "$OUT/web" --out-name toolgate "$WASM"
wasm-bindgen --target nodejs --out-dir "$OUT/node" --out-name toolgate "$WASM"
wasm-bindgen --target web --out-dir "$OUT/web" --out-name toolgate_tools "$TOOLS_WASM"
wasm-bindgen --target nodejs --out-dir "$OUT/node" --out-name toolgate_tools "$TOOLS_WASM"

step "ts-rs: the wire types' TypeScript declarations from the Rust types (native, --features typescript)"
WIRE_TS=target/typescript/wire.ts
rm -f "$WIRE_TS"
cargo run --quiet --features typescript --bin toolgate-typescript -- "$WIRE_TS" ||
    die "generating $WIRE_TS from the Rust wire types failed" \
        "run: cargo run --features typescript --bin toolgate-typescript"
[[ -s "$WIRE_TS" ]] || die "the generator wrote no $WIRE_TS"

step "tsc: the JS layer (pkg-template/src/ with the generated wire.ts) as ES modules and as CommonJS"
# The sources are staged beside the generated module, so the template never holds
# generated files and tsc sees one flat directory.
TS_SRC=target/ts-src
TS_OUT=target/ts
[[ ! -e pkg-template/src/wire.ts ]] ||
    die "pkg-template/src/wire.ts must not exist: wire.ts is generated into $WIRE_TS" \
        "remove it and change the Rust types instead"
[[ ! -e pkg-template/src/toolgate_bindgen.d.ts ]] ||
    die "pkg-template/src/toolgate_bindgen.d.ts must not exist: wasm-bindgen generates it" \
        "remove it and change the Rust bindings in src/wasm/ instead"
[[ ! -e pkg-template/src/toolgate_tools_bindgen.d.ts ]] ||
    die "pkg-template/src/toolgate_tools_bindgen.d.ts must not exist: wasm-bindgen generates it" \
        "remove it and change the Rust bindings in src/wasm/ instead"
rm -rf "$TS_SRC" "$TS_OUT"
mkdir -p "$TS_SRC"
cp pkg-template/src/*.ts pkg-template/src/tsconfig.json "$WIRE_TS" "$TS_SRC/"
# The raw handles' types: wasm-bindgen's declarations of the exports (the web build's, a
# superset of the Node build's), which bindings.ts imports; the contract between the Rust
# bindings and the JS layer is whatever they say, checked by tsc below.
cp "$OUT/web/toolgate.d.ts" "$TS_SRC/toolgate_bindgen.d.ts"
cp "$OUT/web/toolgate_tools.d.ts" "$TS_SRC/toolgate_tools_bindgen.d.ts"
cp -R pkg-template/src/adapters "$TS_SRC/"
node node_modules/typescript/bin/tsc -p "$TS_SRC/tsconfig.json" --outDir "$TS_OUT/esm"
node node_modules/typescript/bin/tsc -p "$TS_SRC/tsconfig.json" --outDir "$TS_OUT/cjs" \
    --module commonjs --moduleResolution node10

# The raw handles are internal (`@internal`, stripped): no published declaration names them.
if grep -l "toolgate_bindgen" "$TS_OUT"/esm/*.d.ts "$TS_OUT"/cjs/*.d.ts; then
    die "the published declarations above refer to the raw wasm-bindgen module" \
        "mark what exposes a raw handle \`/** @internal */\` in pkg-template/src/"
fi

step "assembling pkg/ from pkg-template/"
rm -rf pkg
cp -R pkg-template pkg
rm -rf pkg/src
mkdir -p pkg/web pkg/node
# The raw wasm-bindgen modules sit beside the JS layer that wraps them; the package is
# "type": "module", so the CommonJS build takes the .cjs name.
cp "$OUT/web/toolgate.js" pkg/web/toolgate_bindgen.js
cp "$OUT/node/toolgate.js" pkg/node/toolgate_bindgen.cjs
cp "$OUT/web/toolgate_tools.js" pkg/web/toolgate_tools_bindgen.js
cp "$OUT/node/toolgate_tools.js" pkg/node/toolgate_tools_bindgen.cjs

step "wasm-opt -Oz (binaryen $(node -p 'require("./node_modules/binaryen/package.json").version'))"
# The features rustc enables by default for wasm32-unknown-unknown.
WASM_FEATURES=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
    --enable-mutable-globals --enable-reference-types --enable-multivalue)
# Both targets emit the same wasm (only the JS glue differs): each module ships once, in
# web/, and Node's glue reads it from there.
# `-ocimfs 50`: a function with one caller is inlined only when it is small. By default
# binaryen inlines every such function whatever its size, which made the JSON decoders and the
# policy compile single functions of 15-34 KB that V8 compiles on first call: the first
# `Policy` took about 7 ms, now about 3, and the core is 45 KB smaller gzipped (its bodies
# compress better apart) for about 4% on an evaluate (docs/proof.md, "Package size").
WASM_OPT=(-Oz -ocimfs 50 --strip-debug --strip-producers)
for module in toolgate toolgate_tools; do
    node_modules/.bin/wasm-opt "${WASM_OPT[@]}" "${WASM_FEATURES[@]}" \
        "$OUT/web/${module}_bg.wasm" -o "pkg/web/${module}_bg.wasm"
    cmp -s "$OUT/web/${module}_bg.wasm" "$OUT/node/${module}_bg.wasm" ||
        die "wasm-bindgen emitted different ${module}_bg.wasm modules for web and Node" \
            "ship both: optimise $OUT/node/${module}_bg.wasm into pkg/node/ and drop the path rewrite"
    node scripts/glue-path.mjs "pkg/node/${module}_bindgen.cjs" "${module}_bg.wasm" "../web/${module}_bg.wasm"
done

step "writing the package manifest and Node's ES module entry"
node scripts/assemble.mjs pkg "$(crate_version)" "$TS_OUT"

step "sizes"
for file in "$WASM" pkg/web/toolgate_bg.wasm pkg/web/toolgate_bindgen.js \
    "$TOOLS_WASM" pkg/web/toolgate_tools_bg.wasm pkg/web/toolgate_tools_bindgen.js; do
    printf '    %-40s %8d bytes raw %8d bytes gzipped\n' "$file" \
        "$(wc -c <"$file")" "$(gzip -9 -c "$file" | wc -c)"
done
step "built pkg/ (toolgate $(crate_version)); npm pack ./pkg makes the tarball"

#!/usr/bin/env bash
# Runs the real-host tests: the VS Code example extension in a real VS Code web workbench
# (tests/hosts/vscode.test.mjs) and in Node as a desktop host loads it
# (tests/hosts/vscode-node.test.mjs), and the Electron example type-checked against Electron's
# declarations, its main process in Node and its renderer in Chromium
# (tests/hosts/electron.test.mjs). Installs what they need from npm, without install scripts
# (the workbench's and Electron's postinstall steps download browsers and binaries).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TOOLGATE_ROOT"

[[ -d node_modules/playwright-core ]] || { step "npm ci"; npm ci --no-audit --no-fund; }
if [[ ! -f pkg/package.json ]]; then
    step "the package is not built: npm run build"
    bash scripts/build.sh
fi
[[ -x "${TOOLGATE_CHROMIUM:-/usr/lib/chromium/chromium}" ]] ||
    die "Chromium is missing at ${TOOLGATE_CHROMIUM:-/usr/lib/chromium/chromium}" "run: bash scripts/setup.sh (or set TOOLGATE_CHROMIUM)"

step "npm install --prefix tests/hosts (VS Code web workbench 1.89.1, @vscode/test-web)"
npm install --ignore-scripts --no-audit --no-fund --prefix tests/hosts
for example in vscode-extension electron-app; do
    step "npm install --prefix examples/$example (the built pkg/ as a copy, as users install it)"
    rm -rf "examples/$example/node_modules/toolgate"
    npm install --ignore-scripts --install-links --no-audit --no-fund --prefix "examples/$example"
done

step "tsc and scripts/bundle.mjs: the VS Code example extension"
node node_modules/typescript/bin/tsc -p examples/vscode-extension
node examples/vscode-extension/scripts/bundle.mjs

step "node --test tests/hosts"
node --test --test-concurrency=1 tests/hosts/vscode.test.mjs tests/hosts/vscode-node.test.mjs tests/hosts/electron.test.mjs

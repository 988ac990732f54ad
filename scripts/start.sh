#!/usr/bin/env bash
# `npm start`: set up, build, then serve www/ and pkg/ on http://127.0.0.1:8080 (PORT overrides).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TOOLGATE_ROOT"
bash scripts/setup.sh
bash scripts/build.sh
step "serving www/ and pkg/"
exec node scripts/serve.mjs

# shellcheck shell=bash
# Helpers for host tests (bash). A test exits 0 to pass; fail/skip say why.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# BUILD_DIR: build/, or build-VARIANT/ for KERNEL_VARIANT, as for make.
source "$ROOT/vm/common.sh"

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

#!/usr/bin/env bash
# Checks that every C++ file follows .clang-format: runs `clang-format --dry-run -Werror` over
# each tracked .h/.cpp file (every such file when ROOT is not a git checkout) and exits 1 naming
# the files that differ. Fix them with `clang-format -i FILE...`.
#
#   scripts/check-format.sh [ROOT]    ROOT: the source tree to check (default: this repository)
set -uo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$ROOT" || { echo "check-format: no such folder: $ROOT" >&2; exit 2; }
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
    echo "check-format: $CLANG_FORMAT not found (Debian package clang-format)" >&2
    exit 2
fi

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files -- '*.h' '*.cpp')
else
    mapfile -t files < <(find . -path ./build -prune -o -type f \( -name '*.h' -o -name '*.cpp' \) -print | sed 's#^\./##' | LC_ALL=C sort)
fi
bad=()
for f in "${files[@]}"; do
    [[ -f "$f" ]] || continue
    if ! "$CLANG_FORMAT" --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
        bad+=("$f")
        echo "$f: not formatted as .clang-format says (clang-format -i $f)"
    fi
done
if ((${#bad[@]} > 0)); then
    echo "check-format: ${#bad[@]} of ${#files[@]} files need formatting" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted"

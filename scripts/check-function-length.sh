#!/usr/bin/env bash
# Checks that no function of core/, views/ or app/ is longer than 150 lines (docs/architecture.md
# section 1.3): prints "FILE:LINE: NAME is N lines long (at most 150)" per longer function and
# exits 1 if there was any (0 otherwise). A function's extent, from its first line to its
# closing brace, is Universal Ctags' (Debian package universal-ctags).
#
#   scripts/check-function-length.sh [ROOT] [LIMIT]    ROOT: the source tree (default: this
#                                                      repository); LIMIT: default 150
set -uo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
LIMIT="${2:-150}"
cd "$ROOT" || { echo "check-function-length: no such folder: $ROOT" >&2; exit 2; }
if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "check-function-length: Universal Ctags not found (Debian package universal-ctags)" >&2
    exit 2
fi

folders=()
for folder in core views app; do [[ -d "$folder" ]] && folders+=("$folder"); done
if ((${#folders[@]} == 0)); then
    echo "check-function-length: no core/, views/ or app/ under $ROOT" >&2
    exit 2
fi

# One line per function definition: "END START FILE NAME".
long="$(ctags -x --_xformat='%{end} %{line} %{input} %{scope}::%{name}' --kinds-c++=f --fields=+e \
    --languages=C++ --langmap=C++:+.h -R "${folders[@]}" 2>/dev/null |
    awk -v limit="$LIMIT" '$1 ~ /^[0-9]+$/ {
        n = $1 - $2 + 1
        name = $4; gsub(/__anon[^:]*::/, "", name); sub(/^-?::/, "", name)
        if (n > limit) printf "%s:%d: %s is %d lines long (at most %d)\n", $3, $2, name, n, limit
    }' | LC_ALL=C sort)"
if [[ -n "$long" ]]; then
    echo "$long"
    echo "check-function-length: $(wc -l <<<"$long") function(s) over $LIMIT lines; split them (docs/architecture.md section 1.3)" >&2
    exit 1
fi
echo "check-function-length: no function over $LIMIT lines"

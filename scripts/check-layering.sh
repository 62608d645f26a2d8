#!/usr/bin/env bash
# Checks the include rules of docs/architecture.md section 1 and prints one line per violation,
# "FILE:LINE: what is wrong", then exits 1 if there was any (0 otherwise).
#
#   scripts/check-layering.sh [ROOT]    ROOT: the source tree to check (default: this repository)
#
# The rules:
#   - core/ is plain C++: no Qt header.
#   - core/ folders form layers (CORE_LAYERS below, lowest first): a folder includes only
#     folders of lower layers, so the folder-level include graph has no cycle. A new core folder
#     must be added to the list. core/ includes neither views/ nor app/.
#   - views/ is made of feature folders: a feature folder includes only views/common/ and core;
#     views/common/ includes only core; views/shell/ (the main window) may include any feature
#     folder. views/ includes nothing of app/.
#   - app/ wires the programs: it includes views/shell/ and views/common/ only (never a feature
#     folder's internals); the command-line program (app/cli, app/cli_main.cpp) includes no views.
set -uo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$ROOT" || { echo "check-layering: no such folder: $ROOT" >&2; exit 2; }

# Lowest first; folders on one line form one layer and may not include each other.
CORE_LAYERS=(
    "util"
    "interference matching topology interleave"
    "model"
    "io"
    "metrics"
    "workload"
    "sim"
    "policies"
    "topology_placement"
    "store"
    "planning"
)

declare -A LAYER_OF
for i in "${!CORE_LAYERS[@]}"; do
    for folder in ${CORE_LAYERS[$i]}; do LAYER_OF[$folder]=$i; done
done

violations=0
report() {
    echo "$1: $2"
    violations=$((violations + 1))
}

# Every C++ file of the tree (tracked or not, so a check of a fresh change sees new files).
sources() {
    find "$@" -type f \( -name '*.h' -o -name '*.cpp' \) 2>/dev/null | LC_ALL=C sort
}

# Prints "LINE KIND TARGET" per #include of FILE: KIND is "quote" or "angle".
includes_of() {
    awk '
        /^[ \t]*#[ \t]*include[ \t]*"/ { match($0, /"[^"]+"/); print FNR, "quote", substr($0, RSTART + 1, RLENGTH - 2) }
        /^[ \t]*#[ \t]*include[ \t]*</ { match($0, /<[^>]+>/); print FNR, "angle", substr($0, RSTART + 1, RLENGTH - 2) }
    ' "$1"
}

# core/
while IFS= read -r file; do
    rel="${file#./}"
    folder="$(cut -d/ -f2 <<<"$rel")"
    [[ "$rel" == core/*/* ]] || folder=""
    if [[ -n "$folder" && -z "${LAYER_OF[$folder]+set}" ]]; then
        report "$rel:1" "core/$folder is not in the layer order of scripts/check-layering.sh (CORE_LAYERS)"
        continue
    fi
    while read -r line kind target; do
        if [[ "$kind" == angle ]]; then
            if [[ "$target" =~ ^Q[A-Za-z]*(/|$) || "$target" =~ ^Qt ]]; then
                report "$rel:$line" "core includes the Qt header <$target>; core is plain C++"
            fi
            continue
        fi
        case "$target" in
            views/* | app/* | cli/*)
                report "$rel:$line" "core includes \"$target\"; core depends on nothing above it"
                continue
                ;;
            core/*/*) ;;
            *) continue ;;
        esac
        to="$(cut -d/ -f2 <<<"$target")"
        [[ -z "$folder" || "$to" == "$folder" ]] && continue
        if [[ -z "${LAYER_OF[$to]+set}" ]]; then
            report "$rel:$line" "includes \"$target\" of core/$to, which is not in the layer order"
        elif ((LAYER_OF[$to] >= LAYER_OF[$folder])); then
            report "$rel:$line" "core/$folder includes \"$target\", but core/$to is not below core/$folder in the layer order (${CORE_LAYERS[*]})"
        fi
    done < <(includes_of "$file")
done < <(sources ./core)

# views/
while IFS= read -r file; do
    rel="${file#./}"
    if [[ "$rel" != views/*/* ]]; then
        report "$rel:1" "views/ holds feature folders only; move this file into one"
        continue
    fi
    feature="$(cut -d/ -f2 <<<"$rel")"
    while read -r line kind target; do
        [[ "$kind" == quote ]] || continue
        case "$target" in
            app/* | cli/*) report "$rel:$line" "views include \"$target\"; views never depend on app" ;;
            views/*)
                to="$(cut -d/ -f2 <<<"$target")"
                if [[ "$target" != views/*/* ]]; then
                    report "$rel:$line" "includes \"$target\", which is in no feature folder"
                elif [[ "$to" == "$feature" || "$feature" == shell ]]; then
                    :
                elif [[ "$feature" == common ]]; then
                    report "$rel:$line" "views/common includes \"$target\"; common includes only core"
                elif [[ "$to" != common ]]; then
                    report "$rel:$line" "feature folder views/$feature includes \"$target\" of views/$to; a feature folder includes only views/common and core (views/shell puts features together)"
                fi
                ;;
        esac
    done < <(includes_of "$file")
done < <(sources ./views)

# app/
while IFS= read -r file; do
    rel="${file#./}"
    cli=0
    [[ "$rel" == app/cli/* || "$rel" == app/cli_main.cpp ]] && cli=1
    while read -r line kind target; do
        [[ "$kind" == quote && "$target" == views/* ]] || continue
        if ((cli)); then
            report "$rel:$line" "the command-line program includes \"$target\"; it uses core only"
        elif [[ "$target" != views/shell/* && "$target" != views/common/* ]]; then
            report "$rel:$line" "app includes \"$target\", an internal of a views feature folder; use views/shell or views/common"
        fi
    done < <(includes_of "$file")
done < <(sources ./app)

if ((violations > 0)); then
    echo "check-layering: $violations violation(s); the rules are in docs/architecture.md section 1" >&2
    exit 1
fi
echo "check-layering: no violation"

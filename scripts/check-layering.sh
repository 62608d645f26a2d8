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
#   - The docs cannot drift from the tree (docs/architecture.md section 1.3): every core/ folder
#     has a row in the table of architecture.md section 1.2, every views/ folder one in section
#     1.4, every CLI command (app/cli/cmd_<command>.cpp) is named in section 1.5, and every folder
#     of the tree has a line in the README's "Repository layout".
#   - Members in views/ are m_camelCase, never m_snake_case.
#   - No comment cites an issue number: issues are not part of the repository, so a comment says
#     why in its own words or cites our docs or a paper.
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
    "planning"
    "store"
    "runs"
    "scaleout"
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

# The docs name every folder.
ARCH=docs/architecture.md
# The text of one section of architecture.md: from its heading ("### 1.2 ...") to the next.
section_of() {
    awk -v number="$1" '
        $1 == "###" && $2 == number { inside = 1; next }
        inside && /^##/ { exit }
        inside { print }
    ' "$ARCH" 2>/dev/null
}
# The line of a section's heading in architecture.md (1 when it has none).
section_line() {
    awk -v number="$1" '$1 == "###" && $2 == number { print NR; found = 1; exit } END { if (!found) print 1 }' "$ARCH"
}
# Every folder of the tree, "a/b/" per line: tracked and new files in a git checkout (so build
# output and ignored files do not count), else every folder but build/ and hidden ones.
tree_folders() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [[ "$(git rev-parse --show-toplevel)" == "$(pwd -P)" ]]; then
        { git ls-files; git ls-files --others --exclude-standard; } | grep / | sed 's#/[^/]*$##'
    else
        find . -mindepth 1 -type d \( -name build -o -name '.*' ! -name .ci \) -prune -o -type f -print |
            sed 's#^\./##' | grep / | sed 's#/[^/]*$##'
    fi | awk -F/ '{ path = ""; for (i = 1; i <= NF; ++i) { path = path $i "/"; print path } }' | LC_ALL=C sort -u
}
# The folders of the README's "Repository layout" block, from its indentation (two spaces a level).
readme_folders() {
    awk '
        /^## Repository layout/ { inside = 1; next }
        inside && /^```/ { if (++fences == 2) exit; next }
        inside && fences == 1 && $1 ~ /\/$/ {
            match($0, /^ */); level = int(RLENGTH / 2); stack[level] = $1
            path = ""; for (i = 0; i <= level; ++i) path = path stack[i]; print path
        }
    ' README.md 2>/dev/null | LC_ALL=C sort -u
}
if [[ ! -f "$ARCH" ]]; then
    report "$ARCH:1" "missing: the design document names every folder (section 1)"
else
    core_table="$(section_of 1.2)"
    views_table="$(section_of 1.4)"
    app_text="$(section_of 1.5)"
    for dir in core/*/; do
        [[ -d "$dir" ]] || continue
        name="$(basename "$dir")"
        grep -qF -- "| \`$name/\` |" <<<"$core_table" ||
            report "$ARCH:$(section_line 1.2)" "core/$name/ has no row in the core folder table of section 1.2"
    done
    for dir in views/*/; do
        [[ -d "$dir" ]] || continue
        name="$(basename "$dir")"
        grep -qF -- "| \`$name/\` |" <<<"$views_table" ||
            report "$ARCH:$(section_line 1.4)" "views/$name/ has no row in the views folder table of section 1.4"
    done
    for file in app/cli/cmd_*.cpp; do
        [[ -f "$file" ]] || continue
        command="$(basename "$file" .cpp)"
        command="${command#cmd_}"
        command="${command//_/-}"
        grep -qF -- "\`$command\`" <<<"$app_text" ||
            report "$ARCH:$(section_line 1.5)" "the CLI command '$command' ($file) is not named in section 1.5"
    done
fi
while IFS= read -r folder; do
    report "README.md:$(grep -n '^## Repository layout' README.md 2>/dev/null | cut -d: -f1 | grep . || echo 1)" "the folder $folder has no line in the \"Repository layout\" block"
done < <(LC_ALL=C comm -23 <(tree_folders) <(readme_folders))

# One member style in views: m_camelCase.
while IFS=: read -r file line _; do
    report "$file:$line" "a views member named m_snake_case; views name members m_camelCase (docs/architecture.md 1.4)"
done < <(sources ./views | xargs -r grep -nE '\bm_[a-z0-9]+_[a-z0-9_]*\b' 2>/dev/null | sed 's#^\./##')

# No comment cites an issue number.
while IFS=: read -r file line _; do
    report "$file:$line" "a comment cites an issue number; issues are not part of the repository (say why in the comment's own words)"
done < <(sources ./core ./views ./app ./tests ./bench ./scripts ./installer |
    xargs -r grep -nIE '(//|/\*|^[[:space:]]*\*|#).*\b[Ii]ssues? #?[0-9]+' 2>/dev/null | sed 's#^\./##')
while IFS=: read -r file line _; do
    report "$file:$line" "a comment cites an issue number; issues are not part of the repository (say why in the comment's own words)"
done < <(find ./core ./views ./app ./tests ./bench ./scripts ./installer ./CMakeLists.txt -type f \
    \( -name '*.sh' -o -name '*.cmake' -o -name 'CMakeLists.txt' \) 2>/dev/null | LC_ALL=C sort |
    xargs -r grep -nIE '#.*\b[Ii]ssues? #?[0-9]+' 2>/dev/null | sed 's#^\./##')
while IFS=: read -r file line _; do
    report "$file:$line" "the docs cite an issue number; issues are not part of the repository (say it in the docs' own words)"
done < <(find . \( -name build -o -name '.*' ! -name . \) -prune -o -type f -name '*.md' -print 2>/dev/null |
    LC_ALL=C sort | xargs -r grep -nIE '\b[Ii]ssues? #?[0-9]+' 2>/dev/null | sed 's#^\./##')

if ((violations > 0)); then
    echo "check-layering: $violations violation(s); the rules are in docs/architecture.md section 1" >&2
    exit 1
fi
echo "check-layering: no violation"

#!/usr/bin/env bash
# Tests of the two tree checks: each planted violation makes scripts/check-layering.sh or
# scripts/check-format.sh exit 1 naming its file and line, and a clean tree passes.
#
#   tests/checks/test_checks.sh SOURCE_DIR
set -uo pipefail

SOURCE_DIR="$(cd "${1:?usage: test_checks.sh SOURCE_DIR}" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

put() {  # put FILE LINE... : writes the lines into $TREE/FILE
    local file="$TREE/$1"
    shift
    mkdir -p "$(dirname "$file")"
    printf '%s\n' "$@" >"$file"
}

# expect_layering NAME EXIT_CODE [EXPECTED_OUTPUT_LINE_PREFIX...]
expect_layering() {
    local name="$1" code="$2" out rc
    shift 2
    out="$("$SOURCE_DIR/scripts/check-layering.sh" "$TREE" 2>&1)"
    rc=$?
    [[ $rc -eq $code ]] || fail "$name: exit $rc, expected $code; output:"$'\n'"$out"
    local want
    for want in "$@"; do
        grep -qF -- "$want" <<<"$out" || fail "$name: no line naming '$want' in:"$'\n'"$out"
    done
}

# A clean tree: each rule's allowed case, with docs that name every folder.
TREE="$WORK/clean"
put docs/architecture.md '# Architecture' '### 1.2 Core' '| `util/` | helpers |' '| `model/` | values |' \
    '| `sim/` | engine |' '| `store/` | persistence |' '### 1.3 Checks' '### 1.4 Views' '| `common/` | shared |' \
    '| `results/` | results |' '| `shell/` | window |' '### 1.5 App' 'Commands: `run`.'
put README.md '# Tree' '## Repository layout' '' '```' 'app/   programs' '  cli/ commands' 'core/  engine' \
    '  util/' '  model/' '  sim/' '  store/' 'docs/' 'views/' '  common/' '  results/' '  shell/' '```'
put core/util/portable_random.h '#pragma once' '#include <vector>'
put core/model/cluster.h '#pragma once' '#include "core/util/portable_random.h"' '#include "core/model/job.h"'
put core/sim/simulator.h '#pragma once' '#include "core/model/cluster.h"'
put core/store/store.cpp '#include "core/sim/simulator.h"' '#include "core/store/store.h"'
put views/common/format.h '#pragma once' '#include <QString>' '#include "core/model/cluster.h"'
put views/results/results_view.cpp '#include "views/results/results_view.h"' '#include "views/common/format.h"'
put views/shell/main_window.cpp '#include "views/results/results_view.h"' '#include "views/trace/trace_browser.h"'
put app/gui_main.cpp '#include "views/shell/main_window.h"' '#include "views/common/app_theme.h"'
put app/cli/cmd_run.cpp '#include "cli/args.h"' '#include "core/store/store.h"'
expect_layering "clean tree" 0 "no violation"

# Each kind of violation, planted alone in a copy of the clean tree.
plant() {  # plant NAME FILE LINE... : a fresh copy of the clean tree with FILE written
    TREE="$WORK/$1"
    rm -rf "$TREE"
    cp -r "$WORK/clean" "$TREE"
    shift
    put "$@"
}
plant qt core/io/reader.cpp '#include <string>' '#include <QString>'
expect_layering "Qt in core" 1 "core/io/reader.cpp:2: core includes the Qt header <QString>"
plant upward core/model/trace.h '#pragma once' '#include "core/sim/simulator.h"'
expect_layering "core folder includes a folder above it" 1 "core/model/trace.h:2: core/model includes \"core/sim/simulator.h\""
plant sideways core/topology/network.h '#pragma once' '#include "core/matching/matching.h"'
expect_layering "core folders of one layer include each other" 1 "core/topology/network.h:2: core/topology includes"
plant unknown core/extra/thing.cpp '#include "core/model/cluster.h"'
expect_layering "core folder outside the layer order" 1 "core/extra/thing.cpp:1: core/extra is not in the layer order"
plant core_views core/store/store.h '#pragma once' '#include "views/common/format.h"'
expect_layering "core includes views" 1 "core/store/store.h:2: core includes \"views/common/format.h\""
plant feature views/results/comparison.cpp '#include "views/common/format.h"' '#include "views/trace/trace_browser.h"'
expect_layering "feature folder includes another" 1 "views/results/comparison.cpp:2: feature folder views/results includes \"views/trace/trace_browser.h\""
plant common views/common/chart_style.cpp '#include "views/timeline/timeline_view.h"'
expect_layering "common includes a feature folder" 1 "views/common/chart_style.cpp:1: views/common includes"
plant loose views/loose.cpp '#include "views/common/format.h"'
expect_layering "views file outside a feature folder" 1 "views/loose.cpp:1: views/ holds feature folders only"
plant app_internal app/gui_main.cpp '#include "views/shell/main_window.h"' '#include "views/workspace/scenario_browser.h"'
expect_layering "app includes a feature folder's internals" 1 "app/gui_main.cpp:2: app includes \"views/workspace/scenario_browser.h\""
plant cli_views app/cli/cmd_demo.cpp '#include "cli/args.h"' '#include "views/common/format.h"'
expect_layering "the CLI includes views" 1 "app/cli/cmd_demo.cpp:2: the command-line program includes"

plant folder_not_in_docs core/extra2/thing.cpp '#include "core/model/cluster.h"'
sed -i 's#^| `util/` | helpers |$#| `util/` | helpers |\n| `extra2/` | planted |#' "$TREE/docs/architecture.md"
expect_layering "a folder missing from the README layout" 1 "README.md:2: the folder core/extra2/ has no line"
plant views_folder_not_in_docs views/planted/planted_view.cpp '#include "views/common/format.h"'
expect_layering "a views folder missing from architecture.md" 1 "docs/architecture.md:8: views/planted/ has no row"
plant command_not_in_docs app/cli/cmd_planted_thing.cpp '#include "cli/args.h"'
expect_layering "a CLI command missing from architecture.md" 1 "the CLI command 'planted-thing' (app/cli/cmd_planted_thing.cpp) is not named in section 1.5"
# The word is split here so that this file itself cites no issue.
issue_word="iss""ue"
plant issue_comment core/sim/engine.cpp '#include "core/model/cluster.h"' "// Fixed as $issue_word 12 asked."
expect_layering "a comment citing an issue number" 1 "core/sim/engine.cpp:2: a comment cites an issue number"
plant issue_comment_script app/cli/cmd_run.cpp '#include "cli/args.h"' "int x = 0;  // see $issue_word #7"
expect_layering "a trailing comment citing an issue number" 1 "app/cli/cmd_run.cpp:2: a comment cites an issue number"
plant issue_in_docs core/sim/notes.md '# Notes' "Settled in $issue_word 31."
expect_layering "docs citing an issue number" 1 "core/sim/notes.md:2: the docs cite an issue number"
plant snake_member views/results/results_view.h '#pragma once' 'class ResultsView { int m_row_count = 0; };'
expect_layering "a views member in m_snake_case" 1 "views/results/results_view.h:2: a views member named m_snake_case"

# check-function-length: a function of 150 lines passes, one of 151 fails naming its file and line.
TREE="$WORK/length"
mkdir -p "$TREE/core/util"
{
    echo 'namespace cl {'
    echo 'int fine(int x) {'
    for ((i = 0; i < 148; ++i)); do echo '    x += 1;'; done
    echo '    return x; }'
    echo ''
    echo 'int tooLong(int x) {'
    for ((i = 0; i < 149; ++i)); do echo '    x += 1;'; done
    echo '    return x; }'
    echo '}  // namespace cl'
} >"$TREE/core/util/lengths.cpp"
out="$("$SOURCE_DIR/scripts/check-function-length.sh" "$TREE" 2>&1)"
rc=$?
[[ $rc -eq 1 ]] || fail "check-function-length exit $rc on a 151-line function, expected 1:"$'\n'"$out"
grep -qF "core/util/lengths.cpp:153: cl::tooLong is 151 lines long (at most 150)" <<<"$out" ||
    fail "check-function-length does not name cl::tooLong:"$'\n'"$out"
grep -qF "cl::fine" <<<"$out" && fail "check-function-length names the 150-line cl::fine:"$'\n'"$out"

# The repository itself passes.
out="$("$SOURCE_DIR/scripts/check-layering.sh" "$SOURCE_DIR" 2>&1)" || fail "the repository breaks its layering:"$'\n'"$out"

# check-format: a file formatted by .clang-format passes, a planted misformat fails naming the file.
TREE="$WORK/format"
mkdir -p "$TREE/core/util"
cp "$SOURCE_DIR/.clang-format" "$TREE/"
printf '#pragma once\n\nnamespace cl {\n\nint twice(int x);\n\n}  // namespace cl\n' >"$TREE/core/util/good.h"
out="$("$SOURCE_DIR/scripts/check-format.sh" "$TREE" 2>&1)" || fail "a formatted file fails check-format:"$'\n'"$out"
printf 'namespace cl {\nint twice(int x){return 2*x;}\n}\n' >"$TREE/core/util/bad.cpp"
out="$("$SOURCE_DIR/scripts/check-format.sh" "$TREE" 2>&1)"
rc=$?
[[ $rc -eq 1 ]] || fail "check-format exit $rc on a misformatted file, expected 1:"$'\n'"$out"
grep -qF "core/util/bad.cpp: not formatted" <<<"$out" || fail "check-format does not name core/util/bad.cpp:"$'\n'"$out"
grep -qF "core/util/good.h" <<<"$out" && fail "check-format names the formatted core/util/good.h:"$'\n'"$out"

if ((failures > 0)); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks of the checks passed"

#!/usr/bin/env bash
# check_package.sh BUILD_DIR [CPACK]
#
# The install test (CTest install_deb_package): builds the .deb and .tar.gz of a release build
# tree, then checks them the way a user would meet them:
#   - the .deb's Depends names real Debian packages, each satisfied on this machine;
#   - it holds both programs, the desktop entry, AppStream metadata, icons and the built-in data;
#   - unpacked into an empty directory, the programs resolve every shared library, find their
#     data there (not in the source tree), run the headless demo, and the GUI saves a screenshot
#     under xvfb-run;
#   - the .tar.gz unpacked elsewhere runs too (it is relocatable).
set -euo pipefail

build_dir="$(cd "$1" && pwd)"
cpack="${2:-cpack}"
# Resolved: the programs report their data folder as resolved from /proc/self/exe.
work="$(cd "$(mktemp -d "${TMPDIR:-/tmp}/clusterloom-package-check.XXXXXX")" && pwd -P)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { printf '\n--- %s\n' "$*"; }

step "Building the packages (cpack in $build_dir)"
rm -rf "$build_dir/packages"
(cd "$build_dir" && "$cpack" -G "DEB;TGZ" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack failed"; }
shopt -s nullglob
debs=("$build_dir"/packages/clusterloom_*.deb)
tgzs=("$build_dir"/packages/clusterloom-*.tar.gz)
[[ ${#debs[@]} -eq 1 ]] || fail "expected one .deb in $build_dir/packages, found ${#debs[@]}"
[[ ${#tgzs[@]} -eq 1 ]] || fail "expected one .tar.gz in $build_dir/packages, found ${#tgzs[@]}"
deb="${debs[0]}"
tgz="${tgzs[0]}"
ls -l "$deb" "$tgz"

step "Package metadata"
dpkg-deb --info "$deb"
depends="$(dpkg-deb --field "$deb" Depends)"
# Package names in Depends, without versions or alternatives, one per line.
depends_names="$(sed -E 's/\([^)]*\)//g; s/[|,]/\n/g' <<<"$depends" | sed -E 's/^ +| +$//g')"
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 'libqcustomplot.*-qt6' libsqlite3-0 libglpk40 'libstdc\+\+6' libc6; do
    grep -Eqx "$lib" <<<"$depends_names" || fail "Depends lacks $lib: $depends"
done
# Every dependency (one alternative of each group) must be an installed package of a
# satisfying version: the names are real Debian packages, not guesses.
IFS=',' read -ra groups <<<"$depends"
for group in "${groups[@]}"; do
    satisfied=0
    IFS='|' read -ra alternatives <<<"$group"
    for alt in "${alternatives[@]}"; do
        alt="$(sed -E 's/^ +| +$//g' <<<"$alt")"
        name="${alt%% *}"
        installed="$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)"
        [[ "$installed" == "install ok installed "* ]] || continue
        version="${installed##* }"
        if [[ "$alt" =~ \((.*)\ (.*)\) ]]; then
            dpkg --compare-versions "$version" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" || continue
        fi
        satisfied=1
        break
    done
    [[ $satisfied -eq 1 ]] || fail "dependency '$group' is not satisfied by an installed package"
done
echo "Depends: $depends"
echo "all ${#groups[@]} dependencies are installed packages of satisfying versions"

step "Package contents"
dpkg-deb --contents "$deb" >"$work/contents.txt"
for path in ./usr/bin/clusterloom ./usr/bin/clusterloom-cli \
    ./usr/share/applications/org.clusterloom.ClusterLoom.desktop \
    ./usr/share/metainfo/org.clusterloom.ClusterLoom.metainfo.xml \
    ./usr/share/icons/hicolor/scalable/apps/clusterloom.svg \
    ./usr/share/icons/hicolor/48x48/apps/clusterloom.png \
    ./usr/share/man/man1/clusterloom.1.gz ./usr/share/man/man1/clusterloom-cli.1.gz \
    ./usr/share/clusterloom/profiles/muri.json ./usr/share/clusterloom/clusters/muri-testbed-64.json \
    ./usr/share/clusterloom/traces/demo.json; do
    grep -q " $path\$" "$work/contents.txt" || fail "the .deb does not contain $path"
done
echo "$(wc -l <"$work/contents.txt") entries, all expected files present"

step "Unpacking the .deb into an empty directory"
root="$work/root"
mkdir -p "$root"
dpkg-deb --extract "$deb" "$root"
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$root/usr/share/applications/org.clusterloom.ClusterLoom.desktop" || fail "desktop entry invalid"
    echo "desktop entry: valid"
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$root/usr/share/metainfo/org.clusterloom.ClusterLoom.metainfo.xml" ||
        fail "AppStream metadata invalid"
fi
for exe in clusterloom clusterloom-cli; do
    libs="$(ldd "$root/usr/bin/$exe")" || fail "ldd cannot read $exe"
    if grep -q "not found" <<<"$libs"; then
        echo "$libs"
        fail "$exe has unresolved shared libraries"
    fi
done
echo "both programs resolve every shared library"

# A clean environment, started outside the source and build trees: nothing but the unpacked
# files can supply the data.
run_clean() {
    (cd "$work" && env -i PATH="$root/usr/bin:/usr/bin:/bin" HOME="$work/home" LANG=C.UTF-8 \
        XDG_RUNTIME_DIR="$work/runtime" "$@")
}
mkdir -p "$work/home" "$work/runtime"
chmod 700 "$work/runtime"

step "clusterloom-cli from the unpacked .deb"
version="$(run_clean clusterloom-cli --version)"
echo "$version"
grep -qx "built-in data: $root/usr/share/clusterloom" <<<"$version" ||
    fail "clusterloom-cli does not use the installed data ($root/usr/share/clusterloom)"
run_clean clusterloom-cli demo --out "$work/demo" | tee "$work/demo.txt"
grep -Eq "^muri-s +400/400" "$work/demo.txt" || fail "the demo summary lacks the finished muri-s row"
[[ -s "$work/demo/demo/utilization.svg" && -s "$work/demo/demo-backlog/utilization.svg" ]] || fail "the demo wrote no utilization charts"

step "clusterloom --screenshot under xvfb-run from the unpacked .deb"
run_clean xvfb-run -a -s "-screen 0 1600x1200x24" "$root/usr/bin/clusterloom" --screenshot "$work/shot.png" \
    --timeout 300 || fail "clusterloom --screenshot failed"
size="$(stat -c %s "$work/shot.png" 2>/dev/null || echo 0)"
[[ "$size" -gt 10000 ]] || fail "the screenshot is missing or only $size bytes"
echo "screenshot: $size bytes"

step "The .tar.gz, unpacked elsewhere"
mkdir -p "$work/tgz"
tar -xzf "$tgz" -C "$work/tgz"
tgz_root="$(find "$work/tgz" -mindepth 1 -maxdepth 1 -type d)"
tgz_version="$(cd "$work" && env -i PATH=/usr/bin:/bin HOME="$work/home" "$tgz_root/bin/clusterloom-cli" --version)"
echo "$tgz_version"
grep -qx "built-in data: $tgz_root/share/clusterloom" <<<"$tgz_version" ||
    fail "the archive's clusterloom-cli does not use its own data"
(cd "$work" && env -i PATH=/usr/bin:/bin HOME="$work/home" "$tgz_root/bin/clusterloom-cli" policies >/dev/null) ||
    fail "the archive's clusterloom-cli policies failed"

echo
echo "PASS: the .deb and .tar.gz install and run from their own files"

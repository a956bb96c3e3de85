#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR VERSION CPACK  (CTest: install_package, label install)
#
# Builds the .deb and the .tar.gz of BUILD_DIR with CPack into a temporary folder, unpacks
# both (dpkg-deb -x, tar), and checks what a user gets: the layout, no RPATH, the packaged
# programs run from another current directory (catalog, offscreen screenshot, versions;
# gpuprobe links no CUDA library and, without a GPU, exits 3 with a one-line reason),
# they read their data from the unpacked share/scalescope and nowhere else (edited and
# damaged files there show up, named by their path), the desktop entry and the AppStream
# metadata validate, the manual pages format. Needs the set-up script's packages (dpkg-dev,
# file, desktop-file-utils, appstream).
set -eu

build=$1
source=$2
version=$3
cpack=$4
app_id=io.github.scalescope.ScaleScope

fail() {
    echo "install_test: FAIL: $*" >&2
    exit 1
}
note() { echo "install_test: $*"; }
for tool in dpkg-deb file desktop-file-validate appstreamcli readelf tar; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (run installer/install-deps.sh)"
done
[ -f "$build/CPackConfig.cmake" ] || fail "$build/CPackConfig.cmake is missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/scalescope-install.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/home" "$work/runtime"
chmod 700 "$work/runtime"

# --- Build the packages ---------------------------------------------------------------------
note "cpack -G DEB;TGZ"
if ! (cd "$work" && "$cpack" --config "$build/CPackConfig.cmake" -G "DEB;TGZ" \
        -B "$work/packages") >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log" >&2
    fail "cpack failed"
fi
set -- "$work"/packages/*.deb
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one .deb in $work/packages"
deb=$1
set -- "$work"/packages/*.tar.gz
[ $# -eq 1 ] && [ -f "$1" ] || fail "expected one .tar.gz in $work/packages"
tgz=$1
note "built $(basename "$deb") and $(basename "$tgz")"

# --- The .deb's control data ------------------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = scalescope ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), expected $version"
[ "$(field Section)" = science ] || fail "Section: $(field Section)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Homepage)" ] || fail "no Homepage"
field Description | grep -q "GPU" || fail "Description: $(field Description)"
depends=$(field Depends)
for lib in libc6 libqt6core6 libqt6widgets6 libqt6charts6; do
    echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib (dpkg-shlibdeps): $depends"
done
note "Depends: $depends"

# --- Unpack both ----------------------------------------------------------------------------
mkdir -p "$work/deb" "$work/tgz"
dpkg-deb -x "$deb" "$work/deb"
tar -xzf "$tgz" -C "$work/tgz"
deb_root=$work/deb/usr
set -- "$work"/tgz/*
[ $# -eq 1 ] && [ -d "$1" ] || fail "the tarball should hold one top folder"
tgz_root=$1
(cd "$deb_root" && find . \( -type f -o -type l \) | sort) >"$work/deb.files"
(cd "$tgz_root" && find . \( -type f -o -type l \) | sort) >"$work/tgz.files"
diff "$work/deb.files" "$work/tgz.files" >&2 || fail "the .deb and the .tar.gz differ"

check_layout() {
    root=$1
    for f in bin/scalescope bin/scalescope-cli bin/gpuprobe; do
        [ -x "$root/$f" ] || fail "$root/$f missing or not executable"
        if readelf -d "$root/$f" | grep -Eq 'RPATH|RUNPATH'; then
            fail "$f has an RPATH: $(readelf -d "$root/$f" | grep -E 'RPATH|RUNPATH')"
        fi
    done
    for f in share/scalescope/catalogs/gpus.json share/scalescope/catalogs/links.json \
        share/scalescope/catalogs/models.json share/scalescope/catalogs/cnn_models.json \
        share/scalescope/catalogs/frameworks.json \
        share/applications/$app_id.desktop share/metainfo/$app_id.metainfo.xml \
        share/icons/hicolor/scalable/apps/$app_id.svg; do
        [ -f "$root/$f" ] || fail "$root/$f missing"
    done
    while read -r name; do
        [ -f "$root/share/scalescope/scenarios/$name" ] || fail "gallery file $name missing"
    done <<GALLERY
$(sed -n 's/^ *\(claim[^ )]*\.json\).*/\1/p' "$source/resources/scenarios/gallery.cmake")
GALLERY
    [ -f "$root/share/scalescope/scenarios/claim01-sublinear-speedup.json" ] ||
        fail "gallery missing"
    for size in 16 32 48 64 128 256; do
        png=$root/share/icons/hicolor/${size}x${size}/apps/$app_id.png
        [ -f "$png" ] || fail "$png missing"
        file "$png" | grep -q "PNG image data, $size x $size" || fail "$png: $(file -b "$png")"
    done
    for page in scalescope scalescope-cli gpuprobe; do
        [ -f "$root/share/man/man1/$page.1.gz" ] || [ -f "$root/share/man/man1/$page.1" ] ||
            fail "manual page $page.1 missing"
    done
    # The build tree's marker must never be shipped (model/io/data_dir.h).
    [ -z "$(find "$root" -name scalescope-build-tree.txt)" ] || fail "build-tree marker shipped"
}
check_layout "$deb_root"
check_layout "$tgz_root"

# --- Run the packaged programs --------------------------------------------------------------
# From / with a clean environment: nothing may come from the current directory, the build
# tree or the user's settings.
run() {
    (cd / && env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" \
        XDG_CONFIG_HOME="$work/home/config" XDG_DATA_HOME="$work/home/data" \
        QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 "$@")
}
run_checks() {
    root=$1
    tag=$2
    out=$work/$tag
    run "$root/bin/scalescope-cli" --version | grep -q "scalescope-cli $version" ||
        fail "$tag: scalescope-cli --version"
    run "$root/bin/scalescope-cli" catalog gpus >"$out.gpus" 2>"$out.err" ||
        fail "$tag: scalescope-cli catalog gpus: $(cat "$out.err")"
    grep -q "h100-sxm5-80gb" "$out.gpus" || fail "$tag: catalog gpus lacks h100-sxm5-80gb"
    run "$root/bin/scalescope" --version | grep -q "$version" || fail "$tag: scalescope --version"
    run "$root/bin/scalescope" --screenshot "$out.png" --size 800x600 \
        --settings "$work/home/$tag.ini" >"$out.log" 2>&1 ||
        fail "$tag: scalescope --screenshot: $(cat "$out.log")"
    file "$out.png" | grep -q "PNG image data, 800 x 600" ||
        fail "$tag: screenshot: $(file -b "$out.png")"
    if grep -q "could not be loaded" "$out.log"; then fail "$tag: $(cat "$out.log")"; fi
    # gpuprobe links no CUDA library but the static runtime: cuBLAS, NCCL and NVML are
    # loaded at run time, so it starts on any machine.
    needed=$(readelf -d "$root/bin/gpuprobe" | grep NEEDED)
    if echo "$needed" | grep -Eq 'libcuda|libcudart|libcublas|libnccl|libnvidia'; then
        fail "$tag: gpuprobe links a CUDA library: $needed"
    fi
    if ldd "$root/bin/gpuprobe" | grep -q "not found"; then
        fail "$tag: gpuprobe: $(ldd "$root/bin/gpuprobe" | grep "not found")"
    fi
    run "$root/bin/gpuprobe" --version >"$out.probe-version" 2>&1 ||
        fail "$tag: gpuprobe --version: $(cat "$out.probe-version")"
    grep -q "^gpuprobe $version" "$out.probe-version" ||
        fail "$tag: gpuprobe --version: $(cat "$out.probe-version")"
    # No GPU to be seen (none here, no driver, hidden by CUDA_VISIBLE_DEVICES, or built
    # without CUDA): exit 3, one line on stderr saying why, and a profile that says so.
    status=0
    run CUDA_VISIBLE_DEVICES= "$root/bin/gpuprobe" --quick --tests launch \
        --output "$out.probe.json" >"$out.probe-out" 2>"$out.probe-err" || status=$?
    [ "$status" -eq 3 ] ||
        fail "$tag: gpuprobe without a GPU: exit $status, expected 3: $(cat "$out.probe-err")"
    [ "$(wc -l <"$out.probe-err")" -eq 1 ] &&
        grep -q "^gpuprobe: no usable GPU: ." "$out.probe-err" ||
        fail "$tag: gpuprobe without a GPU: expected one line of reason: $(cat "$out.probe-err")"
    grep -q '"gpu"' "$out.probe.json" ||
        fail "$tag: gpuprobe without a GPU: the profile does not say so"
    note "$tag: gpuprobe without a GPU: $(cat "$out.probe-err")"
    note "$tag: catalog, screenshot and versions from the package: ok"
}
run_checks "$deb_root" deb
run_checks "$tgz_root" tgz

# --- The data come from the unpacked share/scalescope, and nowhere else ----------------------
catalogs=$deb_root/share/scalescope/catalogs
cp "$catalogs/gpus.json" "$work/gpus.json.orig"
sed 's/"id": "h100-sxm5-80gb"/"id": "h100-from-the-package"/' "$work/gpus.json.orig" \
    >"$catalogs/gpus.json"
run "$deb_root/bin/scalescope-cli" catalog gpus >"$work/edited.gpus" 2>&1 ||
    fail "edited catalog: $(cat "$work/edited.gpus")"
grep -q "h100-from-the-package" "$work/edited.gpus" ||
    fail "the packaged scalescope-cli did not read $catalogs/gpus.json"

printf '{ "scalescope_catalog": 1, "gpus": [ damaged' >"$catalogs/gpus.json"
status=0
run "$deb_root/bin/scalescope-cli" catalog gpus >"$work/damaged.out" 2>"$work/damaged.err" ||
    status=$?
[ "$status" -eq 1 ] || fail "damaged catalog: exit status $status, expected 1"
[ ! -s "$work/damaged.out" ] || fail "damaged catalog: output on stdout"
grep -qF "$catalogs/gpus.json" "$work/damaged.err" ||
    fail "damaged catalog: the message does not name the file: $(cat "$work/damaged.err")"
status=0
run "$deb_root/bin/scalescope" --screenshot "$work/damaged.png" \
    --settings "$work/home/damaged.ini" >"$work/damaged-gui.log" 2>&1 || status=$?
[ "$status" -eq 1 ] || fail "damaged catalog, GUI: exit status $status, expected 1"
grep -qF "$catalogs/gpus.json" "$work/damaged-gui.log" ||
    fail "damaged catalog, GUI: $(cat "$work/damaged-gui.log")"

mv "$catalogs/gpus.json" "$work/gpus.json.damaged"
status=0
run "$deb_root/bin/scalescope-cli" catalog gpus >/dev/null 2>"$work/missing.err" || status=$?
[ "$status" -eq 1 ] && grep -qF "$catalogs/gpus.json" "$work/missing.err" ||
    fail "missing catalog file: status $status: $(cat "$work/missing.err")"
cp "$work/gpus.json.orig" "$catalogs/gpus.json"

gallery=$deb_root/share/scalescope/scenarios/claim01-sublinear-speedup.json
cp "$gallery" "$work/claim01.orig"
printf '{ "damaged": ' >"$gallery"
run "$deb_root/bin/scalescope" --screenshot "$work/gallery.png" --size 800x600 \
    --settings "$work/home/gallery.ini" >"$work/gallery.log" 2>&1 ||
    fail "damaged gallery: the app should still start: $(cat "$work/gallery.log")"
grep -qF "$gallery" "$work/gallery.log" ||
    fail "damaged gallery: the message does not name the file: $(cat "$work/gallery.log")"
cp "$work/claim01.orig" "$gallery"
note "data read from the unpacked share/scalescope; damaged files named: ok"

# --- Desktop entry, AppStream metadata, manual pages ---------------------------------------
desktop=$deb_root/share/applications/$app_id.desktop
desktop-file-validate "$desktop" >"$work/desktop.log" 2>&1 || {
    cat "$work/desktop.log" >&2
    fail "desktop-file-validate"
}
# Hints are advice (two main categories: Science and Education); errors and warnings fail.
if grep -Eiq "error|warning" "$work/desktop.log"; then
    cat "$work/desktop.log" >&2
    fail "desktop-file-validate reported problems"
fi
# AppStream: errors, warnings and infos fail; only pedantic remarks are allowed (the id's
# capital letters, the usual reverse-DNS spelling of an application name).
appstream_check() {
    log=$1
    shift
    appstreamcli "$@" >"$log" 2>&1 || {
        cat "$log" >&2
        fail "appstreamcli $*"
    }
    if grep -Eq '^[EWI]: ' "$log"; then
        cat "$log" >&2
        fail "appstreamcli $*: reported problems"
    fi
}
appstream_check "$work/appstream.log" validate --no-net \
    "$deb_root/share/metainfo/$app_id.metainfo.xml"
# The installed tree: metainfo, its desktop entry and icons together.
appstream_check "$work/appstream-tree.log" validate-tree --no-net "$work/deb"
if command -v groff >/dev/null 2>&1; then
    for page in "$deb_root"/share/man/man1/*.1.gz; do
        problems=$(gzip -dc "$page" | groff -man -ww -z -Tutf8 2>&1) ||
            fail "$page: groff failed: $problems"
        [ -z "$problems" ] || fail "$page: $problems"
    done
fi
note "desktop entry, AppStream metadata and manual pages: ok"
note "PASS"

#!/bin/sh
# Installs the Debian 12 packages ScaleScope needs to build, test and run.
# Idempotent: only missing packages are installed. Run as root (or through sudo).
set -eu

PACKAGES="
build-essential cmake ninja-build pkg-config git python3
qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6 qt6-translations-l10n
libgl-dev libxkbcommon-dev
libeigen3-dev
rapidjson-dev zlib1g-dev
fonts-noto-cjk xvfb xauth imagemagick locales
clang libclang-rt-14-dev
dpkg-dev file desktop-file-utils appstream
"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing:$missing"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing

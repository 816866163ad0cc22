#!/usr/bin/env bash
# Usage: scripts/install-deps.sh
# Installs the Debian packages the project needs, skipping those already
# present. Safe to run again. Needs root (or sudo) only when something is missing.
. "$(dirname "$0")/lib/help.sh" "$@"
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  libopenblas-dev libdnnl-dev libgtest-dev libgmock-dev libbenchmark-dev
  libfmt-dev libcli11-dev
  libre2-dev libjpeg62-turbo-dev libpng-dev libtiff-dev libwebp-dev libopenjp2-7-dev
  python3-onnx python3-numpy
  # Test-only: validates the exporter's SARIF logs against the 2.1.0 schema.
  python3-jsonschema
  gdb
  # LibTorch 1.13 (C++) for the torchlib comparison suite
  # (ONNXSCRIPT_WITH_TORCH, tests/torch_lib_libtorch): about 640 MB and 3 min.
  libtorch-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
apt_updated=0
apt_install() {
  if [ "$apt_updated" -eq 0 ]; then
    "${sudo_cmd[@]}" apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  apt_install "${missing[@]}"
fi

# ONNX Runtime 1.30 for the interop tests: npm onnxruntime-node, pinned by
# tests/interop/package-lock.json. --ignore-scripts: its install script
# downloads from a host that may be unreachable; the CPU library ships inside
# the package. Node.js comes from Debian only when no `node` is on PATH.
root="$(cd "$(dirname "$0")/.." && pwd)"
interop="$root/tests/interop"
if [ ! -f "$interop/node_modules/onnxruntime-node/package.json" ]; then
  if ! command -v node >/dev/null 2>&1; then
    echo "install-deps: installing nodejs npm"
    apt_install nodejs npm
  elif ! command -v npm >/dev/null 2>&1; then
    echo "install-deps: installing npm"
    apt_install npm
  fi
  echo "install-deps: installing onnxruntime-node in tests/interop (npm ci --ignore-scripts)"
  (cd "$interop" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi

#!/usr/bin/env bash
# Installs the Debian packages tiletrans builds and tests with. Idempotent: quiet and
# fast when everything is already there. Set TT_WITH_HIP=1 to also install hipcc (large),
# TT_WITH_TORCH=1 for python3-torch (the PyTorch references of check specs).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libfyaml-dev libjansson-dev libpcre2-dev libcriterion-dev libclang-16-dev)
# git and patch check `--diff` output; python3-jsonschema (with rfc3987 for format: uri)
# validates SARIF against the official schema.
pkgs+=(git patch python3-jsonschema python3-rfc3987)
# Man pages are generated from --help (help2man); the install tests package with CPack
# (dpkg-dev: dpkg-shlibdeps), read the pages (man-db) and run the hook (pre-commit, git).
pkgs+=(help2man dpkg-dev man-db pre-commit git)
# The libFuzzer target (fuzz/) builds with clang and its compiler-rt runtime.
pkgs+=(clang libclang-rt-dev)
# bench/sim's optional HIP-CPU baseline (a HIP-CPU checkout given to it) builds on TBB.
pkgs+=(libtbb-dev)
# `check --format junit` writes XML with libxml2; its tests render the markdown report
# with GitHub's renderer (cmark-gfm).
pkgs+=(libxml2-dev cmark-gfm)
[ "${TT_WITH_HIP:-0}" = 1 ] && pkgs+=(hipcc libamdhip64-dev libhiprand-dev librocrand-dev libhipsparse-dev)
# PyTorch references of `tiletrans check` (reference: {torch: ...}) run in Debian's python3.
[ "${TT_WITH_TORCH:-0}" = 1 ] && pkgs+=(python3-torch)
missing=()
# npm ships with the machine image; take Debian's only where it is absent.
command -v npm >/dev/null 2>&1 || missing+=(npm)
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# Installs the Debian packages tiletrans builds and tests with. Idempotent: quiet and
# fast when everything is already there. Set TT_WITH_HIP=1 to also install hipcc (large).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libfyaml-dev libjansson-dev libpcre2-dev libcriterion-dev libclang-16-dev)
[ "${TT_WITH_HIP:-0}" = 1 ] && pkgs+=(hipcc libamdhip64-dev libhiprand-dev libhipsparse-dev)
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

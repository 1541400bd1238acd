#!/usr/bin/env bash
# Installs what a fresh machine is missing, then builds. Quick when everything is present.
#   - Debian packages: zookeeper (server jars), libcurator-recipes-java and
#     libcurator-discovery-java (interop tests),
#     default-jre-headless when java is absent. Needs root, as sessions and CI run.
#   - npm packages (npm ci) when node_modules does not match package-lock.json.
#   - tsc -b (incremental).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { echo "[setup] $*" >&2; }

missing=()
[[ -f /usr/share/java/zookeeper.jar ]] || missing+=(zookeeper)
[[ -f /usr/share/java/curator-recipes.jar ]] || missing+=(libcurator-recipes-java)
[[ -f /usr/share/java/curator-x-discovery.jar ]] || missing+=(libcurator-discovery-java)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    say "missing Debian packages: ${missing[*]}; run as root: apt-get update && apt-get install -y ${missing[*]}"
    exit 1
  fi
  say "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

stamp=node_modules/.zkrecipes-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -f $stamp || "$(cat "$stamp")" != "$want" ]]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund >&2
  echo "$want" > "$stamp"
fi

say "building (tsc -b)"
npx tsc -b

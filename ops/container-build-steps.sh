#!/usr/bin/env bash
# The Dockerfile's build steps without Docker (no base image is reachable in CI): checks that every path
# the Dockerfile copies exists, runs the build stage's commands (npm ci, npm run build, npm prune
# --omit=dev) in a clean copy of the sources, lays out the runtime stage's files as the Dockerfile does,
# and starts that layout as the image would (NODE_ENV=production, SQLite in a data folder) until /readyz
# answers 200. --reuse-node-modules (CI, to stay fast) copies the checkout's node_modules instead of
# running npm ci (better-sqlite3 would compile again for a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
reuse=""; [ "${1:-}" = "--reuse-node-modules" ] && reuse=1

# 1. Every COPY source of the build stage exists in the repository.
for path in $(awk '/^FROM .* AS build/{b=1;next} /^FROM /{b=0} b && /^COPY / && !/--from/ {for(i=2;i<NF;i++) print $i}' Dockerfile); do
  [ -e "$path" ] || { echo "container-build-steps: the Dockerfile copies $path, which does not exist" >&2; exit 1; }
done
grep -q '^USER node' Dockerfile || { echo "container-build-steps: the runtime stage must run as the user node" >&2; exit 1; }
grep -q '^HEALTHCHECK .*' Dockerfile && grep -q '/readyz' Dockerfile || { echo "container-build-steps: no HEALTHCHECK on /readyz" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# 2. The build stage, in a clean copy of what it copies.
mkdir -p "$work/build" && cd "$work/build"
cp "$root/package.json" "$root/package-lock.json" .
if [ -n "$reuse" ]; then cp -a "$root/node_modules" .; else npm ci --no-audit --no-fund; fi
cp "$root/tsconfig.json" "$root/tsconfig.build.json" "$root/biome.jsonc" .
cp -a "$root/bin" "$root/src" "$root/web" .
rm -rf web/dist dist
npm run build >/dev/null
npm prune --omit=dev --no-audit --no-fund >/dev/null

# 3. The runtime stage's files, and nothing else.
mkdir -p "$work/app" && cd "$work/app"
cp -a "$work/build/package.json" "$work/build/node_modules" "$work/build/bin" "$work/build/dist" "$work/build/src" .
mkdir -p web && cp -a "$work/build/web/dist" web/dist
[ ! -e node_modules/vitest ] || { echo "container-build-steps: development dependencies left in the image" >&2; exit 1; }

# 4. Start it as the image's CMD does and wait for the health check's answer.
port=$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")
mkdir -p "$work/data"
NODE_ENV=production HOST=127.0.0.1 PORT=$port DATA_DIR="$work/data" DATABASE_URL="sqlite:$work/data/slotbook.db" \
  SECRET_KEY=container-build-steps-secret-key-0123456789 LOG_LEVEL=warn \
  node --max-semi-space-size=4 --max-old-space-size=512 bin/slotbook.js serve &
server_pid=$!
for _ in $(seq 1 120); do
  if node -e "fetch('http://127.0.0.1:$port/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
    echo "container-build-steps: the runtime layout starts and /readyz answers 200"
    exit 0
  fi
  kill -0 "$server_pid" 2>/dev/null || { echo "container-build-steps: the service exited" >&2; exit 1; }
  sleep 0.5
done
echo "container-build-steps: /readyz did not answer 200 within 60 s" >&2
exit 1

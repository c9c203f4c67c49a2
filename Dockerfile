# slotbook's container image (docs/deployment.md). Two stages: the first installs every dependency
# (better-sqlite3 compiles from source) and builds the server (dist/) and the dashboard (web/dist); the
# second holds only what runs: production dependencies, the build, the SQL migrations and the files the
# server reads at run time (src/embed, src/db/migrations), as the unprivileged user `node`.
# ops/container-build-steps.sh runs this file's build steps on a machine without Docker (CI).

FROM node:20-slim AS build
WORKDIR /app
# better-sqlite3 builds from source.
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ make python3 \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json biome.jsonc ./
COPY bin ./bin
COPY src ./src
COPY web ./web
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-slim
# pg_dump and pg_restore for `slotbook backup` on PostgreSQL (docs/backups.md); tini reaps and forwards SIGTERM.
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/slotbook \
 && chown node:node /var/lib/slotbook
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/bin ./bin
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/web/dist ./web/dist
COPY --from=build --chown=root:root /app/src ./src
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/slotbook \
    DATABASE_URL=sqlite:/var/lib/slotbook/slotbook.db \
    LOG_FORMAT=json
# The application's files belong to root and cannot be changed by the process; only DATA_DIR is writable.
USER node
VOLUME ["/var/lib/slotbook"]
EXPOSE 3000
# /readyz: 200 once the database answers writes, 503 while it does not or while shutting down.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The V8 limits of bin/slotbook.js (its shebang line), spelled out: the resident memory stays under 200 MB.
CMD ["node", "--max-semi-space-size=4", "--max-old-space-size=512", "bin/slotbook.js", "serve"]

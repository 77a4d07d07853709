# logtype-sidecar: one process that follows the pod's log files and writes JSON entries to stdout.
# Node 20 reached its end of life on 2026-04-30: the image runs on Node 24 (LTS), which CI also
# tests on. Works with a read-only root filesystem: it writes only to stdout, stderr and its
# state file on the log volume.

# 1. Compile the TypeScript (dev dependencies live only here).
FROM node:24-bookworm-slim AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY src ./src
COPY bin ./bin
RUN npx tsc -p tsconfig.build.json

# 2. Production dependencies only (none today: the directory is made so the copy below holds
# whatever package.json lists, even nothing).
FROM node:24-bookworm-slim AS production-deps
WORKDIR /deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && mkdir -p node_modules

# 3. The runtime: compiled code and production dependencies, as a non-root user.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json ./
COPY --from=production-deps /deps/node_modules ./node_modules
COPY --from=build /build/dist/src ./dist/src
COPY --from=build /build/dist/bin ./dist/bin
# The filter is in the image too: kubectl exec POD -c logtype -- logtype --help
RUN printf '#!/bin/sh\nexec node /app/dist/bin/logtype.js "$@"\n' > /usr/local/bin/logtype && chmod 755 /usr/local/bin/logtype
# uid 1000 ("node" in the base image), numeric so runAsNonRoot can verify it.
USER 1000:1000
# node is PID 1 and handles SIGTERM itself: what is left is read and delivered, then exit 0.
ENTRYPOINT ["node", "/app/dist/bin/logtype-sidecar.js"]

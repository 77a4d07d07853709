# syntax=docker/dockerfile:1
# logtype's image: logtype-sidecar (the entrypoint), the logtype filter, and logtype-pod (the
# shell wiring of sidecar/logtype-pod.sh) on PATH. Node 24 LTS on Debian 13 "trixie" slim.
# It runs with a read-only root filesystem: it writes only to stdout, stderr, its state file on
# the log volume and the pod's /run/logtype.
#
#   docker build -t registry.example.com/logtype:0.1.0 .
ARG NODE_IMAGE=node:24-trixie-slim

# 1. Compile, then pack what the commands need at run time: the package as npm packs it from
# the code, README and LICENSE copied in (the published package's docs/ and sidecar/ are left
# out: nothing reads them at run time).
FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY src ./src
COPY bin ./bin
COPY README.md LICENSE ./
RUN npx tsc -p tsconfig.build.json \
 && mkdir /pack \
 && npm pack --ignore-scripts --pack-destination /pack

# 2. Install the packed package and its production dependencies (none today) under one prefix:
# /opt/logtype/bin holds the two commands, /opt/logtype/lib/node_modules/logtype the package.
FROM ${NODE_IMAGE} AS install
COPY --from=build /pack /pack
RUN npm install --global --omit=dev --no-audit --no-fund --prefix /opt/logtype /pack/logtype-*.tgz

# 3. The runtime: Node and the install, without npm, npx, corepack or yarn (nothing here installs
# packages, and a package manager is attack surface the sidecar never uses).
FROM ${NODE_IMAGE}
# Re-declared to be used in this stage's labels.
ARG NODE_IMAGE
ARG VERSION=0.1.0
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /opt/yarn-* \
 && rm -f /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg
COPY --from=install /opt/logtype /opt/logtype
COPY --chmod=0755 sidecar/logtype-pod.sh /usr/local/bin/logtype-pod
COPY LICENSE /usr/share/doc/logtype/LICENSE
# MALLOC_ARENA_MAX=1: one malloc arena, not one per thread. V8 compiles on background threads,
# and the memory of those compiles stayed in their threads' arenas: a 100 MB line's peak RSS is
# about 3 MB lower with it, catch-up and summary take the same CPU (docs/performance.md).
ENV PATH=/opt/logtype/bin:$PATH \
    NODE_ENV=production \
    MALLOC_ARENA_MAX=1
LABEL org.opencontainers.image.title="logtype" \
      org.opencontainers.image.description="Follows a MongoDB database pod's log files into one stream of JSON entries (logtype-sidecar), and reads that stream (logtype)." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.documentation="sidecar/README.md in the source repository" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
# uid and gid 2000: the database pod's user, which the operator sets (and its own database images
# declare) and whose 0600 log files the sidecar must read. The pod's securityContext (runAsUser,
# or the uid OpenShift assigns) overrides it; numeric, so runAsNonRoot can check it.
USER 2000:2000
# node is PID 1 and handles SIGTERM itself: what is left is read and delivered, then exit 0.
ENTRYPOINT ["logtype-sidecar"]

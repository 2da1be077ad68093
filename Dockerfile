# Sparrow IM: the compiled server and the built web client on Node.js 20 (docs/operations.md "Docker and compose").
#
#   docker build -t sparrow .
#   docker run -d -p 8000:8000 -v sparrow-data:/data sparrow
#
# The image runs what `npm start` runs once it has built: `node --enable-source-maps
# packages/server/dist/main.js` (scripts/build-server.mjs), as the unprivileged user `node`, with its
# data in the volume /data. NODE_IMAGE names the Node.js 20 image the build stages start from (a
# mirror, a pinned digest); the runtime stage takes NODE_SLIM_IMAGE, its slim variant.
ARG NODE_IMAGE=node:20-bookworm
ARG NODE_SLIM_IMAGE=node:20-bookworm-slim

# The manifests every install starts from: a change of code alone reuses the installs below.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY e2e/package.json e2e/
COPY examples/echo-bot/package.json examples/echo-bot/

# Build: every package the builds need, then the web client (Vite) and the server bundle (esbuild).
FROM manifests AS build
# Native addons without a prebuilt binary compile against the image's own Node.js headers, so a
# build without access to nodejs.org works too.
ENV npm_config_nodedir=/usr/local
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run build -w @sparrow/server

# What the server loads at run time: the root's and the server's production dependencies (the
# native ones, better-sqlite3 and sharp, built here for this image's system; those the bundle leaves
# outside, scripts/build-server.mjs `externalPackages`; tsx and TypeScript for `npm run admin` and
# the API document), without the web client's packages or any development tool.
FROM manifests AS deps
ENV npm_config_nodedir=/usr/local
RUN npm ci --omit=dev --workspace @sparrow/server --include-workspace-root --no-audit --no-fund

FROM ${NODE_SLIM_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8000
WORKDIR /app
COPY --from=deps /app ./
# The protocol's TypeScript sources: the API document (/openapi.json) reads their comments, and
# `npm run admin` runs the server's sources through tsx.
COPY packages/protocol/src packages/protocol/src
COPY packages/server/src packages/server/src
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/web/dist packages/web/dist
# The code stays root's and read-only to the server; only the data folder is its own.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
# Ready: the database (and Redis when REDIS_URL is set) answer (docs/operations.md "Operating
# Sparrow"). The slim image has no curl; Node.js 20 has fetch.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "packages/server/dist/main.js"]

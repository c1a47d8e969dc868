# syntax=docker/dockerfile:1
# memstream: the API (default command) and the worker (`node dist/worker.js`) in one image.
# Build stage: a clean install from the lock, the bundle, then dev dependencies pruned.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces (client/, integrations/*) are part of the lock, and npm ci runs their `prepare`
# (a tsc build into their dist/), so they come whole; none of them is in the runtime image.
COPY client ./client
COPY integrations ./integrations
# postinstall patches postgres-js (scripts/patches/, ADR 0009), so the scripts come first.
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY migrations ./migrations
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: no compiler, no dev dependencies, not root.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 MEMSTREAM_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/migrations ./migrations
# Prompt templates are read at run time from their place under src/ (src/lib/paths.ts).
COPY --from=build /app/src ./src
RUN mkdir -p /data && chown node:node /data
USER node
# 8787: the API; 9464: a worker's /metrics (node dist/worker.js)
EXPOSE 8787 9464
# Ready = the database answers and every migration is applied (GET /readyz); node has fetch, the slim image no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server.js"]

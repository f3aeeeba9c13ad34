# bvs-mock: docker build -t bvs-mock . && docker run -p 4010:4010 bvs-mock
# Every flag of `bvs-mock serve` has an environment variable (BVS_MOCK_*), so no file is needed.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# The dashboard at /_mock/, built into dashboard-dist/ by `npm run build`.
COPY dashboard ./dashboard
COPY scripts ./scripts
COPY scenarios ./scenarios
# `npm run build` writes dist/, the one-file bundle of the command line (bundle/, scripts/bundle-server.js) and dashboard-dist/.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm run build

FROM node:20-bookworm-slim
WORKDIR /app
# Scenario files mounted at /app/scenarios.d are loaded beside the built-in ones (empty by default).
ENV NODE_ENV=production \
    BVS_MOCK_HOST=0.0.0.0 \
    BVS_MOCK_PORT=4010 \
    BVS_MOCK_SCENARIOS=scenarios.d
# One bundled file (and faker's, loaded on first use) instead of dist/ and node_modules: a small layer, a fast start.
COPY --from=build /app/bundle ./bundle
COPY --from=build /app/dashboard-dist ./dashboard-dist
COPY package.json ./
COPY bin ./bin
COPY scenarios ./scenarios
COPY openapi ./openapi
# scenarios.d for mounted scenario files; one run of the bundle leaves V8's code cache beside it (a faster start).
RUN mkdir -p scenarios.d && node bin/bvs-mock.js scenarios > /dev/null
EXPOSE 4010
USER node
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s \
  CMD ["node", "bin/healthcheck.js"]
ENTRYPOINT ["node", "bin/bvs-mock.js"]
CMD ["serve"]

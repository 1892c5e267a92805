# The lab's command line in a container, for sweeps on a cluster (docs/cluster.md).
# Built from the same `npm ci` as a checkout: the same lockfile, the same engine, the same numbers.
FROM node:20-bookworm-slim
WORKDIR /lab
COPY package.json package-lock.json ./
# Development dependencies included: the CLI runs TypeScript through tsx, as `npm run sim` does.
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY tsconfig*.json ./
COPY src ./src
COPY public/agents ./public/agents
ENV NODE_ENV=production
# `docker run IMAGE sweep odin-fig5-vgg16 --shards 8 --out /results/shard.json`
ENTRYPOINT ["node", "--import", "tsx", "src/cli/main.ts"]
CMD ["presets"]

FROM node:22-bookworm-slim
WORKDIR /app
# Every workspace's manifest first, so `npm ci` is cached until one of them changes (a test checks this list).
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY domain/package.json domain/
COPY services/platform/package.json services/platform/
COPY services/eventstore/package.json services/eventstore/
COPY services/commands/package.json services/commands/
COPY services/transfers/package.json services/transfers/
COPY services/integrity/package.json services/integrity/
COPY services/books/package.json services/books/
COPY services/ach/package.json services/ach/
COPY services/mail/package.json services/mail/
COPY projector/package.json projector/
COPY services/audit/package.json services/audit/
COPY services/worker/package.json services/worker/
COPY services/api/package.json services/api/
COPY services/testkit/package.json services/testkit/
COPY services/runtime/package.json services/runtime/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production
EXPOSE 3000
# One process with every role (docs/operations.md); the young generation as every start script sets it.
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "services/runtime/src/main.ts"]

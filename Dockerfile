FROM node:22-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY domain/package.json domain/
COPY services/platform/package.json services/platform/
COPY services/eventstore/package.json services/eventstore/
COPY services/core/package.json services/core/
COPY projector/package.json projector/
COPY services/worker/package.json services/worker/
COPY services/api/package.json services/api/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production
EXPOSE 3000
CMD ["npx", "tsx", "services/api/src/main.ts"]

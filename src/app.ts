import { mountAgents } from "./agents/mount";
import { configureOpenAPI } from "./lib/configure-openapi";
import { createApp } from "./lib/create-app";
import { aiRouter } from "./routes/ai/ai.index";
import { healthRouter } from "./routes/health/health.index";

const app = createApp();

configureOpenAPI(app);
mountAgents(app);

const routes = app.route("/", healthRouter).route("/", aiRouter);

export type AppType = typeof routes;
export default app;

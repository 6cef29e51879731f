import { mountAgents } from "./agents/mount";
import { configureOpenAPI } from "./lib/configure-openapi";
import { createApp } from "./lib/create-app";
import { healthRouter } from "./routes/health/health.index";

const app = createApp();

configureOpenAPI(app);
mountAgents(app);

const routes = app.route("/", healthRouter);

export type AppType = typeof routes;
export default app;

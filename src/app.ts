import { mountAgents } from "./agents/mount";
import { configureOpenAPI } from "./lib/configure-openapi";
import { createApp } from "./lib/create-app";
import { healthRouter } from "./routes/health/health.index";
import { objectsRouter } from "./routes/objects/objects.index";

const app = createApp();

configureOpenAPI(app);
mountAgents(app);

const routes = app.route("/", healthRouter).route("/", objectsRouter);

export type AppType = typeof routes;
export default app;

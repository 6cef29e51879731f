import { mountAgents } from "./agents/mount";
import { apiCors } from "./lib/api-cors";
import { configureOpenAPI } from "./lib/configure-openapi";
import { createApp } from "./lib/create-app";
import { apiSecurityHeaders } from "./lib/security-headers";
import { aiRouter } from "./routes/ai/ai.index";
import { healthRouter } from "./routes/health/health.index";

const app = createApp();

app.use("/api/*", apiSecurityHeaders);
app.use("/api/*", apiCors);
configureOpenAPI(app);
mountAgents(app);

const routes = app.route("/", healthRouter).route("/", aiRouter);

export type AppType = typeof routes;
export default app;

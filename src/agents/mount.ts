import { routeAgentRequest } from "agents";
import type { AppRouter } from "../lib/create-app";

/** /agents/<agent>/<name>: the SDK's routing, with CORS for GET, POST and OPTIONS. */
export function mountAgents(app: AppRouter) {
  app.all("/agents/*", async (c) => {
    const response = await routeAgentRequest(c.req.raw, c.env, { cors: true });
    return response ?? c.json({ success: false, error: { message: "Agent not found" } }, 404);
  });
}

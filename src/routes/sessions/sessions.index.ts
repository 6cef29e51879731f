import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./sessions.handlers";
import * as routes from "./sessions.routes";

export const sessionsRouter = createRouter<AuthedEnv>()
  .openapi(routes.list, handlers.list)
  .openapi(routes.revoke, handlers.revoke);

import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./keys.handlers";
import * as routes from "./keys.routes";

export const keysRouter = createRouter<AuthedEnv>()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.revoke, handlers.revoke);

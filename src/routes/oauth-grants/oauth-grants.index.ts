import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./oauth-grants.handlers";
import * as routes from "./oauth-grants.routes";

export const oauthGrantsRouter = createRouter<AuthedEnv>()
  .openapi(routes.list, handlers.list)
  .openapi(routes.revoke, handlers.revoke);

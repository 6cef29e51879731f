import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./admin-workspaces.handlers";
import * as routes from "./admin-workspaces.routes";

export const adminWorkspacesRouter = createRouter<AuthedEnv>()
  .openapi(routes.list, handlers.list)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.move, handlers.move)
  .openapi(routes.shards, handlers.shards);

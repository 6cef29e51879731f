import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./org-members.handlers";
import * as routes from "./org-members.routes";

export const orgMembersRouter = createRouter<AuthedEnv>()
  .openapi(routes.list, handlers.list)
  .openapi(routes.setRole, handlers.setRole)
  .openapi(routes.remove, handlers.remove);

import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./users.handlers";
import * as routes from "./users.routes";

export const usersRouter = createRouter<AuthedEnv>()
  .openapi(routes.me, handlers.me)
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove);

import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./todos.handlers";
import * as routes from "./todos.routes";

export const todosRouter = createRouter<AuthedEnv>()
  .openapi(routes.list, handlers.list)
  .openapi(routes.create, handlers.create)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.update, handlers.update)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.restore, handlers.restore)
  .openapi(routes.listForUser, handlers.listForUser);

import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./chats.handlers";
import * as routes from "./chats.routes";

export const chatsRouter = createRouter<AuthedEnv>()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.rename, handlers.rename)
  .openapi(routes.remove, handlers.remove);

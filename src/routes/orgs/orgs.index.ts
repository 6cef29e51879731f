import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./orgs.handlers";
import * as routes from "./orgs.routes";

export const orgsRouter = createRouter<AuthedEnv>()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.rename, handlers.rename)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.offerTransfer, handlers.offerTransfer)
  .openapi(routes.acceptTransfer, handlers.acceptTransfer)
  .openapi(routes.cancelTransfer, handlers.cancelTransfer);

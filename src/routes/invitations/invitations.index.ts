import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./invitations.handlers";
import * as routes from "./invitations.routes";

export const invitationsRouter = createRouter<AuthedEnv>()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.revoke, handlers.revoke)
  .openapi(routes.listMine, handlers.listMine)
  .openapi(routes.accept, handlers.accept)
  .openapi(routes.decline, handlers.decline);

import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./auth.handlers";
import * as routes from "./auth.routes";

export const authRouter = createRouter()
  .openapi(routes.register, handlers.register)
  .openapi(routes.login, handlers.login)
  .openapi(routes.refresh, handlers.refresh);

export const signOutRouter = createRouter<AuthedEnv>().openapi(routes.logout, handlers.logout);

import { createRouter } from "../../http/create-app";
import * as handlers from "./auth.handlers";
import * as routes from "./auth.routes";

export const authRouter = createRouter()
  .openapi(routes.register, handlers.register)
  .openapi(routes.login, handlers.login);

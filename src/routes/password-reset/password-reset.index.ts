import { createRouter } from "../../http/create-app";
import * as handlers from "./password-reset.handlers";
import * as routes from "./password-reset.routes";

export const passwordResetRouter = createRouter()
  .openapi(routes.request, handlers.request)
  .openapi(routes.confirm, handlers.confirm);

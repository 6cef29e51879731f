import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./uploads.handlers";
import * as routes from "./uploads.routes";

export const uploadsRouter = createRouter<AuthedEnv>()
  .openapi(routes.create, handlers.create)
  .openapi(routes.uploadPart, handlers.uploadPart)
  .openapi(routes.complete, handlers.complete)
  .openapi(routes.abort, handlers.abort);

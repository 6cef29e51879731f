import { createRouter } from "../../lib/create-app";
import * as handlers from "./uploads.handlers";
import * as routes from "./uploads.routes";

export const uploadsRouter = createRouter()
  .openapi(routes.create, handlers.create)
  .openapi(routes.uploadPart, handlers.uploadPart)
  .openapi(routes.complete, handlers.complete)
  .openapi(routes.abort, handlers.abort);

import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./files.handlers";
import * as routes from "./files.routes";

export const filesRouter = createRouter<AuthedEnv>()
  .openapi(routes.upload, handlers.upload)
  .openapi(routes.list, handlers.list)
  .openapi(routes.getOne, handlers.getOne)
  .openapi(routes.remove, handlers.remove)
  .openapi(routes.restore, handlers.restore);

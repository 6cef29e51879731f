import { createRouter } from "../../http/create-app";
import * as handlers from "./files.handlers";
import * as routes from "./files.routes";

export const filesRouter = createRouter()
  .openapi(routes.upload, handlers.upload)
  .openapi(routes.download, handlers.download);

filesRouter.openAPIRegistry.registerPath(routes.downloadHead);

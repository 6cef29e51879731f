import { createRouter } from "../../lib/create-app";
import * as handlers from "./objects.handlers";
import * as routes from "./objects.routes";

export const objectsRouter = createRouter()
  .openapi(routes.upload, handlers.upload)
  .openapi(routes.download, handlers.download);

objectsRouter.openAPIRegistry.registerPath(routes.downloadHead);

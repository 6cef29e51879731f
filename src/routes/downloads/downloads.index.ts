import { createRouter } from "../../http/create-app";
import * as handlers from "./downloads.handlers";
import * as routes from "./downloads.routes";

// Public: the gate lets these paths through (src/http/require-auth.ts); each handler decides who reads.
export const downloadsRouter = createRouter()
  .openapi(routes.download, handlers.download)
  .openapi(routes.downloadByLink, handlers.downloadByLink);

downloadsRouter.openAPIRegistry.registerPath(routes.downloadHead);

import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./notes.handlers";
import * as routes from "./notes.routes";

export const notesRouter = createRouter<AuthedEnv>()
  .openapi(routes.create, handlers.create)
  .openapi(routes.list, handlers.list)
  .openapi(routes.remove, handlers.remove);

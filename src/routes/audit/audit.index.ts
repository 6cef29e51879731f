import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./audit.handlers";
import * as routes from "./audit.routes";

export const auditRouter = createRouter<AuthedEnv>()
  .openapi(routes.orgAudit, handlers.orgAudit)
  .openapi(routes.myAudit, handlers.myAudit);

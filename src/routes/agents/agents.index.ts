import { createRouter } from "../../lib/create-app";
import type { AuthedEnv } from "../../lib/types";
import * as handlers from "./agents.handlers";
import * as routes from "./agents.routes";

export const agentsRouter = createRouter<AuthedEnv>().openapi(routes.createTicket, handlers.createTicket);

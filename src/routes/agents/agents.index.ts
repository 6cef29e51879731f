import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./agents.handlers";
import * as routes from "./agents.routes";

export const agentsRouter = createRouter<AuthedEnv>().openapi(routes.createTicket, handlers.createTicket);

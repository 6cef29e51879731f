import { createRouter } from "../../lib/create-app";
import * as handlers from "./agents.handlers";
import * as routes from "./agents.routes";

export const agentsRouter = createRouter().openapi(routes.createTicket, handlers.createTicket);

import { createRouter } from "../../http/create-app";
import * as handlers from "./ai.handlers";
import * as routes from "./ai.routes";

export const aiRouter = createRouter().openapi(routes.health, handlers.health);

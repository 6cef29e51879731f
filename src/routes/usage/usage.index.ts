import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./usage.handlers";
import * as routes from "./usage.routes";

export const usageRouter = createRouter<AuthedEnv>().openapi(routes.get, handlers.get);

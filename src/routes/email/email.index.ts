import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./email.handlers";
import * as routes from "./email.routes";

export const emailConfirmRouter = createRouter().openapi(routes.confirm, handlers.confirm);

export const emailVerifyRouter = createRouter<AuthedEnv>().openapi(routes.resend, handlers.resend);

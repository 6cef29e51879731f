import { createRouter } from "../../http/create-app";
import type { AuthedEnv } from "../../http/types";
import * as handlers from "./passkeys.handlers";
import * as routes from "./passkeys.routes";

export const passkeysRouter = createRouter<AuthedEnv>()
  .openapi(routes.registrationOptions, handlers.registrationOptions)
  .openapi(routes.register, handlers.register)
  .openapi(routes.list, handlers.list)
  .openapi(routes.rename, handlers.rename)
  .openapi(routes.remove, handlers.remove);

export const passkeySignInRouter = createRouter()
  .openapi(routes.signInOptions, handlers.signInOptions)
  .openapi(routes.signIn, handlers.signIn);

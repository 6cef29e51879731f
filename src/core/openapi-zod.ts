// zod with `.openapi()`, for modules that call it at their top level outside the app's own chunk.
import { extendZodWithOpenApi, z } from "@hono/zod-openapi";

// @hono/zod-openapi adds `.openapi()` when its module runs. The split build (scripts/build-worker.mjs)
// may run a chunk that uses only its re-exported `z` first: calling the extension here (it does nothing
// the second time) makes this module depend on that one, so the order holds.
extendZodWithOpenApi(z);

export { z };

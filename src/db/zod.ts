import { z } from "@hono/zod-openapi";
import { createSchemaFactory } from "drizzle-zod";

// Bound to @hono/zod-openapi's z, so derived schemas accept `.openapi()`.
export const { createInsertSchema, createSelectSchema, createUpdateSchema } = createSchemaFactory({
  zodInstance: z,
});

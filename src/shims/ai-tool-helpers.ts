// What the Agents SDK's chat module takes from `ai` at every agent's start-up: `ai` re-exports both
// from @ai-sdk/provider-utils, so these are the same functions. Through `ai` itself, start-up would
// evaluate the chunk of everything this Worker uses of `ai`, and build its zod schemas; the build
// (scripts/build-worker.mjs) gives the SDK's module this one, and `ai` loads with the first chat turn.
export { jsonSchema, tool } from "@ai-sdk/provider-utils";

import { inject } from "vitest";

/**
 * The e2e project's shared `wrangler dev --local` (test/e2e/global-setup.ts). Its storage outlives each
 * file: make fresh users and rows, and count only what the file made.
 */
export const sharedWorker = () => inject("sharedWorker");

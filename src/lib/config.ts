/** Typed reads of `vars`; defaults match wrangler.jsonc so a missing var never breaks a route. */
export function maxUploadBytes(env: Env): number {
  const parsed = Number(env.MAX_UPLOAD_BYTES);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : 100 * 1024 * 1024;
}

export function flag(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}

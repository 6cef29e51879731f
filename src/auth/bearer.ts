/** `Bearer <token>`: scheme case-insensitive, exactly two whitespace-separated parts. */
export function bearerToken(header: string | null | undefined): string | null {
  const parts = header?.trim().split(/\s+/) ?? [];
  if (parts.length !== 2 || parts[0]?.toLowerCase() !== "bearer") return null;
  return parts[1] || null;
}

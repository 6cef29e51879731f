/** Which top-level declarations of a package file to wrap (see pure-declarations.mjs). */
export interface PureDeclarationsEntry {
  /** Wraps every top-level `const` whose initializer starts with a match. */
  schemas?: RegExp;
  /** Wraps these top-level `const` declarations by name. */
  names?: string[];
  /** Exact text replacements made first, each of which must match. */
  rewrites?: [from: string, to: string][];
}
export const PURE_DECLARATIONS: Record<string, PureDeclarationsEntry>;
export function packageFile(path: string): string;
export function withPureDeclarations(file: string, source: string, entry?: PureDeclarationsEntry): string;

/** `name` and `filename` of a multipart/form-data part, read from its Content-Disposition. */
export interface FormDisposition {
  name: string;
  filename?: string;
}

// `; key=value` with a token or a quoted string. Unlike RFC 7230's qdtext, any character above
// U+007F is taken: browsers, curl and FormData send filenames as raw UTF-8.
const PARAM = /^\s*;\s*([!#$%&'*+.^\w`|~-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/su;
// RFC 8187 ext-value: charset'language'pct-encoded.
const EXT_VALUE = /^(utf-8|iso-8859-1)'[^']*'(.*)$/i;

/**
 * Parses a part's Content-Disposition; undefined when it is malformed. `filename*` (RFC 8187)
 * wins over `filename`. A quoted `filename` takes backslash escapes, and `%22` becomes `"`: the
 * HTML form encoding (browsers, curl, undici's FormData) writes a quote in a filename as `%22`.
 * Its `%0A`/`%0D` are left as they are: a line break is no use in a stored name.
 */
export function parseFormDisposition(header: string | undefined): FormDisposition | undefined {
  if (!header) return undefined;
  const semicolon = header.indexOf(";");
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  if (type !== "form-data") return undefined;
  const params = new Map<string, string>();
  let rest = semicolon === -1 ? "" : header.slice(semicolon);
  while (rest.trim() !== "") {
    const match = PARAM.exec(rest);
    if (!match) return undefined;
    const key = match[1]!.toLowerCase();
    const raw = match[2]!;
    if (!params.has(key)) params.set(key, raw.startsWith('"') ? unquote(raw) : raw);
    rest = rest.slice(match[0].length);
  }
  const name = params.get("name");
  if (name === undefined) return undefined;
  const extended = params.get("filename*");
  const filename =
    extended !== undefined ? decodeExtValue(extended) : params.get("filename")?.replaceAll("%22", '"');
  return filename === undefined ? { name } : { name, filename };
}

function unquote(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(.)/gsu, "$1");
}

/** Throws URIError on a malformed ext-value. */
function decodeExtValue(value: string): string {
  const match = EXT_VALUE.exec(value);
  if (!match) throw new URIError("malformed filename*");
  const [, charset, encoded] = match;
  if (charset!.toLowerCase() === "utf-8") return decodeURIComponent(encoded!);
  return encoded!.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

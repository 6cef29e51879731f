import type { Owner } from "../core/owner";
import { isValidDirectory } from "./file-keys";
import { invalidUpload as bad } from "./upload-errors";
import type { Visibility } from "./visibility";

/** The upload form's fields beside `file`, as read so far. */
export interface FormFields {
  directory?: string;
  visibility?: Visibility;
  orgId?: number;
}

const VISIBILITY_VALUES = new Set(["public", "private"]);
const ORG_ID = /^[1-9][0-9]{0,15}$/;

/**
 * The fields with one more (`decode` reads its value): at most one valid `directory`, `visibility`
 * and `orgId`, this one before the file (it decides whose quota bounds the stream); other names are
 * ignored.
 */
export function withField(
  fields: FormFields,
  name: string,
  decode: () => string,
  fileStarted: boolean,
): FormFields {
  switch (name) {
    case "visibility": {
      const visibility = decode() || "public";
      if (fields.visibility !== undefined || !VISIBILITY_VALUES.has(visibility)) {
        throw bad("Invalid visibility: public or private");
      }
      return { ...fields, visibility: visibility as Visibility };
    }
    case "orgId": {
      const orgId = decode();
      if (fileStarted) throw bad("orgId must come before file (or be sent as ?orgId=)");
      if (fields.orgId !== undefined || !ORG_ID.test(orgId)) throw bad("Invalid orgId");
      return { ...fields, orgId: Number(orgId) };
    }
    case "directory": {
      if (fields.directory !== undefined) throw bad("Invalid directory");
      const directory = decode();
      if (directory !== "" && !isValidDirectory(directory)) throw bad("Invalid directory");
      return { ...fields, directory };
    }
    default:
      return fields;
  }
}

/** A team's files are private to the team: asking for a public one is a contradiction, not a default. */
export function visibilityFor(owner: Owner, asked: Visibility | undefined): Visibility {
  if (owner.kind === "user") return asked ?? "public";
  if (asked === "public") throw bad("A team's files are private to the team: share one with a link instead");
  return "private";
}

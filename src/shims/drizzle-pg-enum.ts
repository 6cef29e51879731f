// drizzle-orm's SQL builder (drizzle-orm/sql/sql.js) asks of every chunk whether it is a Postgres enum,
// and imports the check from pg-core's enum column module, which brings pg-core's column base classes
// with it (5 KiB minified). This Worker's tables are SQLite. The build (scripts/build-worker.mjs) gives
// that one importer this module: the same check, on the same global symbol, so an enum still answers true.
const isPgEnumSym = Symbol.for("drizzle:isPgEnum");

export function isPgEnum(obj: unknown): boolean {
  return !!obj && typeof obj === "function" && isPgEnumSym in obj && (obj as never)[isPgEnumSym] === true;
}

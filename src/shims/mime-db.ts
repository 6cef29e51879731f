// The Agents SDK's e-mail helpers (unused here) pull mime-db's 200 KB MIME table into the bundle
// through mimetext; the build (scripts/build-worker.mjs) aliases it to this empty table.
export default {};

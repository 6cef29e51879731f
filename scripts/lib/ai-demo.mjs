// `npm run dev` offers the offline demo model (AI_DEMO=true, docs/agents.md) when no model is configured:
// under --local Workers AI is never reachable, so only AI_BASE_URL, or AI_DEMO itself, in .dev.vars or a
// `--var` counts as a choice. `npm run dev:remote` (Workers AI) and deployments never get it from here.

/** Whether `.dev.vars` text or the `--var` arguments set `name` (to anything but empty). */
function chosen(name, devVars, args) {
  const inFile = new RegExp(`^[ \\t]*${name}[ \\t]*=[ \\t]*["']?[^\\s"'#]`, "m").test(devVars);
  return inFile || args.some((arg) => arg.startsWith(`${name}:`) && arg.length > name.length + 1);
}

/** The `--var` arguments that turn the demo on, or none when a model (or AI_DEMO) is chosen. */
export function demoModelArgs(args, devVars) {
  if (!args.includes("--local")) return [];
  if (chosen("AI_BASE_URL", devVars, args) || chosen("AI_DEMO", devVars, args)) return [];
  return ["--var", "AI_DEMO:true"];
}

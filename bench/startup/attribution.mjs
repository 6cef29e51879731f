// Where start-up time and bundle bytes go, by package: from a CPU profile of an unminified build, and
// from esbuild's metafile.

/** `node_modules/<pkg>/...` or `src/<folder>/...` as the name a table shows. */
export function packageOf(path) {
  const clean = path.replace(/^(\.\.\/)+/, "");
  if (clean.startsWith("src/")) return clean.split("/").slice(0, 2).join("/");
  return /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(clean)?.[1] ?? clean;
}

/** A source file of the service by its path (`src/todos/todo-writes.ts`), a dependency by its package. */
export function sourceModuleOf(path) {
  const clean = path.replace(/^(\.\.\/)+/, "");
  return clean.startsWith("src/") ? clean : packageOf(clean);
}

/** The source module of each line of an unminified esbuild output (esbuild writes `// <path>` before each). */
function moduleLines(code) {
  const markers = [];
  code.split("\n").forEach((line, i) => {
    // A worktree's node_modules may be a link to another checkout's: `../main/node_modules/...`.
    const marker = /^\/\/ ((?:\.\.\/)*(?:[^\s/]+\/)*?(?:node_modules|src)\/\S+)$/.exec(line);
    if (marker) markers.push([i + 1, marker[1]]);
  });
  return (line) => {
    let lo = 0;
    let hi = markers.length - 1;
    let found = "(module prelude)";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (markers[mid][0] <= line) {
        found = markers[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/**
 * Self time per package, in ms. Each sample counts for the interval up to the next one. Samples in
 * the Worker's modules (`modules`: path in the upload -> text) are placed by the lines V8 recorded
 * (positionTicks), so the function that evaluates a module's top level is split among the sources
 * bundled into it; the rest are named as V8 names them ("(garbage collector)", "(program)", a
 * runtime built-in). `keyOf` names a source path's group: its package unless told otherwise.
 */
export function selfTimeByPackage(profile, modules, keyOf = packageOf) {
  const lookups = new Map();
  const moduleAt = (url) => {
    if (!lookups.has(url)) {
      const path = [...modules.keys()].find((candidate) => url.endsWith(candidate));
      lookups.set(url, path === undefined ? undefined : moduleLines(modules.get(path)));
    }
    return lookups.get(url);
  };
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map();
  const add = (key, ms) => totals.set(key, (totals.get(key) ?? 0) + ms);
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const { callFrame, positionTicks } = nodes.get(profile.samples[i]);
    const lineOf = callFrame.url ? moduleAt(callFrame.url) : undefined;
    if (!lineOf) {
      const name = callFrame.functionName || callFrame.url;
      add(name.startsWith("(") ? name : `(${name})`, ms);
      continue;
    }
    // A module's own top level is recorded without a line: named by its module in the upload.
    if (!positionTicks?.length && callFrame.lineNumber < 0) {
      add(`(top level of a module: ${callFrame.url.split("/").slice(-2).join("/")})`, ms);
      continue;
    }
    const ticks = positionTicks?.length ? positionTicks : [{ line: callFrame.lineNumber + 1, ticks: 1 }];
    const all = ticks.reduce((sum, t) => sum + t.ticks, 0);
    for (const t of ticks) add(keyOf(lineOf(t.line)), (ms * t.ticks) / all);
  }
  return totals;
}

/** Minified bytes per package in esbuild's outputs (all of them, or those `only` names). */
export function bytesByPackage(meta, only) {
  const totals = new Map();
  for (const [output, { inputs }] of Object.entries(meta.outputs)) {
    if (only && !only.has(output)) continue;
    for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
      totals.set(packageOf(path), (totals.get(packageOf(path)) ?? 0) + bytesInOutput);
    }
  }
  return totals;
}

/** The `count` largest entries of a Map of numbers, largest first. */
export function top(totals, count) {
  return [...totals].toSorted((a, b) => b[1] - a[1]).slice(0, count);
}

// Loaded into `wrangler dev` by `npm run dev` (NODE_OPTIONS=--import): two tables of wrangler's, about
// 170 lines, become a line each, so the banner is on the first screen: the bindings (a line per var,
// rate limiter and store) and the Worker's modules (a row per chunk of the build). It rewrites the
// output stream in place, so wrangler keeps its terminal (its [b], [d], [c] and [x] keys).
// DEV_VERBOSE=1 npm run dev prints them in full.
import { stripVTControlCharacters } from "node:util";

const write = process.stdout.write.bind(process.stdout);
/** Rows of the bindings table left out so far; -1 outside it. */
let bindingRows = -1;
let modulesNext = false;

process.stdout.write = (chunk, ...rest) => {
  const text = stripVTControlCharacters(String(chunk));
  if (bindingRows < 0 && text.includes("has access to the following bindings:")) {
    bindingRows = 0;
    return true;
  }
  if (bindingRows >= 0) {
    // The table ends with a blank line; its first row is the heading.
    if (text.trim() !== "") return Boolean(++bindingRows);
    const line = `Bindings: ${bindingRows - 1}, as wrangler.jsonc declares them\n`;
    bindingRows = -1;
    return write(line, ...rest);
  }
  if (text.startsWith("Attaching additional modules:")) {
    modulesNext = true;
    return true;
  }
  if (modulesNext) {
    modulesNext = false;
    const total = /Total \((\d+) modules?\)[\s│|]*([\d.]+ KiB)/.exec(text);
    if (total) return write(`Worker: ${total[1]} modules, ${total[2]} before compression\n`, ...rest);
  }
  return write(chunk, ...rest);
};

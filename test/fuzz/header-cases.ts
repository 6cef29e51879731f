// Hostile header values up to 16 KB (docs/security.md, E5) for every operation: the headers a
// pattern or parser reads, filled with runs of the units that make backtracking patterns explode
// (whitespace, separators, digits, quotes) around the places each header's syntax expects them.
import * as fc from "fast-check";
import type { Fixture, FuzzCase, Operation } from "./openapi-cases";
import { validRequest } from "./openapi-cases";

const MAX_BYTES = 16 * 1024;
const UNITS = [
  " ",
  " \t",
  "\t",
  ",",
  ", ",
  "W/",
  '"',
  "a ",
  "0",
  "1-",
  "-",
  "=",
  ";",
  "; ",
  "+",
  ".",
  "/",
  "%2F",
];
const ENDINGS = ["", "x", "!", "-", "=", '"', ";", ","];

type Template = (pad: string, fixture: Fixture) => string;

const TEMPLATES: Record<string, Template[]> = {
  Range: [(p) => `bytes=${p}-${p}`, (p) => `bytes${p}=0-${p}`, (p) => `bytes=${p}`, (p) => p],
  "If-None-Match": [(p) => p, (p) => `W/${p}"x"`, (p) => `"a",${p}`, (p) => `*${p}`],
  "Content-Type": [
    (p) => `multipart/form-data; boundary=${p}`,
    (p) => `multipart/form-data; boundary="${p}"`,
    (p) => `multipart/form-data${p}`,
    (p) => `application/json${p}`,
    (p) => `application/${p}+json`,
  ],
  "X-Request-Id": [(p) => p, (p) => `id-${p}`],
  Origin: [(p) => `https://${p}`, (p) => `http://localhost:5173${p}`, (p) => p],
};

const AUTHORIZATION: Template[] = [
  (p) => `Bearer${p}`,
  (p) => `Bearer ${p}`,
  (p) => p,
  // The `x` keeps a trimmed or whitespace-only pad from leaving the valid token intact.
  (p, fixture) => `Bearer ${fixture.validToken}x${p}`,
  (p, fixture) => `Bearer ${p}x${fixture.validToken}`,
];

/** `template` filled with a run of one unit, up to 16 KB, and an ending that breaks the syntax. */
function hostileValue(templates: Template[], fixture: Fixture): fc.Arbitrary<string> {
  return fc
    .record({
      template: fc.constantFrom(...templates),
      unit: fc.constantFrom(...UNITS),
      bytes: fc.integer({ min: 1024, max: MAX_BYTES - 64 }),
      ending: fc.constantFrom(...ENDINGS),
    })
    .map(({ template, unit, bytes, ending }) => {
      const pad = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
      return (template(pad, fixture) + ending).slice(0, MAX_BYTES);
    });
}

function withHeader(op: Operation, fixture: Fixture, arbitrary: fc.Arbitrary<[string, string]>) {
  return arbitrary.map(([name, value]) => {
    const req = validRequest(op, fixture);
    req.headers[name] = value;
    return req;
  });
}

/** "any" for the headers that may be ignored; "reject" for a hostile token on a protected route. */
export function hostileHeaderCases(op: Operation, fixture: Fixture): FuzzCase[] {
  const templates = op.secured ? TEMPLATES : { ...TEMPLATES, Authorization: AUTHORIZATION };
  const anyHeader = fc.oneof(
    ...Object.entries(templates).map(([name, list]) =>
      hostileValue(list, fixture).map((value): [string, string] => [name, value]),
    ),
  );
  const cases: FuzzCase[] = [
    { name: "hostile headers up to 16 KB", expect: "any", arbitrary: withHeader(op, fixture, anyHeader) },
  ];
  if (op.secured) {
    cases.push({
      name: "hostile Authorization up to 16 KB",
      expect: "reject",
      arbitrary: withHeader(
        op,
        fixture,
        hostileValue(AUTHORIZATION, fixture).map((value): [string, string] => ["Authorization", value]),
      ),
    });
  }
  return cases;
}

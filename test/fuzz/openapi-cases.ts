// Fuzz cases derived from the committed OpenAPI document: one list of operations, and for each
// operation the kinds of bad input it can receive, as fast-check arbitraries of raw requests.
import * as fc from "fast-check";
import document from "../../openapi.json";
import { multipartBody } from "../helpers/multipart";
import { hostileHeaderCases } from "./header-cases";

export interface Schema {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: string[];
  maxLength?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  example?: unknown;
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  /** `POST /api/todos/{id}` */
  id: string;
  method: string;
  path: string;
  secured: boolean;
  params: Parameter[];
  body?: { kind: "json"; schema: Schema } | { kind: "multipart" };
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** `reject`: must be 4xx. `any`: 2xx is fine too, the input may in fact be valid. */
export interface FuzzCase {
  name: string;
  expect: "reject" | "any";
  arbitrary: fc.Arbitrary<FuzzRequest>;
}

/** What the cases need from the running service: ids, tokens and keys that exist. */
export interface Fixture {
  /** A valid value of a path parameter for the acting user (own id, own todo, a stored key). */
  ownParam(op: Operation, name: string): string;
  /**
   * Values the acting user may not touch: another user's id, a deleted one, one never issued; another
   * user's file key or link id. Empty where a parameter has no owner.
   */
  foreignParams(op: Operation, name: string): string[];
  token(op: Operation): string;
  /** The token of the positive pass's own user (an admin's where only an admin may act). */
  sampledToken(op: Operation): string;
  /** Authorization values that must all answer 401 (undefined: no header). */
  badAuthorizations: (string | undefined)[];
  /** A token the service issued, for byte-level tampering. */
  validToken: string;
  storedKey: string;
  /** A password-reset link's token that works once (the first valid confirm spends it). */
  resetToken: string;
  /** The acting user's password, for operations that check it again. */
  password: string;
  /** A fresh suffix for unique usernames and emails. */
  fresh(): string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const schemas = document.components.schemas as unknown as Record<string, Schema>;
const HTTP_METHODS = ["get", "post", "put", "patch", "delete"];

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return resolve(schemas[schema.$ref.split("/").at(-1)!]!);
}

/** Every operation of openapi.json, with $refs resolved. */
export function operations(): Operation[] {
  const globalSecurity = document.security.length > 0;
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, any>)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => {
        const content = op.requestBody?.content ?? {};
        const body = content["application/json"]
          ? { kind: "json" as const, schema: resolve(content["application/json"].schema) }
          : content["multipart/form-data"]
            ? { kind: "multipart" as const }
            : undefined;
        return {
          id: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          secured: op.security ? op.security.length > 0 : globalSecurity,
          params: (op.parameters ?? []) as Parameter[],
          body,
        };
      }),
  );
}

// ---------------------------------------------------------------------------------------------
// Building blocks

const ODD_IDS = [
  "abc",
  "-1",
  "0",
  "1.5",
  "1e3",
  "01",
  "+1",
  "0x10",
  " 1",
  "1,2",
  "NaN",
  "Infinity",
  "null",
  "9007199254740993",
  "9223372036854775808",
  "18446744073709551616",
  "\u0661",
  "\uff11",
  "%00",
];
const ODD_QUERY = ["abc", "-1", "0", "1.5", "1e3", "101", "9223372036854775808", "", "true", "[]", "%00"];
const printable = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);
// A dot segment would be resolved away by the URL parser, leaving a different route.
const segment = (value: string) => (/^\.{1,2}$/.test(value) ? `${value}x` : encodeURIComponent(value));

function fillPath(op: Operation, fixture: Fixture, overrides: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => overrides[name] ?? fixture.ownParam(op, name));
}

function authHeaders(op: Operation, fixture: Fixture): Record<string, string> {
  return op.secured ? { Authorization: `Bearer ${fixture.token(op)}` } : {};
}

function jsonRequest(op: Operation, fixture: Fixture, body: Json | string): FuzzRequest {
  return {
    method: op.method,
    path: fillPath(op, fixture),
    headers: { ...authHeaders(op, fixture), "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/** The request a well-behaved client sends: valid ids, token and body. */
export function validRequest(op: Operation, fixture: Fixture): FuzzRequest {
  if (op.body?.kind === "json") return jsonRequest(op, fixture, validBody(op.body.schema, fixture));
  const req: FuzzRequest = {
    method: op.method,
    path: fillPath(op, fixture),
    headers: authHeaders(op, fixture),
  };
  if (op.body?.kind !== "multipart") return req;
  const form = multipartBody([{ name: "file", filename: "f.txt", contentType: "text/plain", body: "fuzz" }]);
  return { ...req, headers: { ...req.headers, "Content-Type": form.contentType }, body: form.body };
}

/** A value of the field's own type: its example, or the simplest one. */
function validValue(name: string, schema: Schema, fixture: Fixture): Json {
  if (name === "username") return `fz_${fixture.fresh()}`;
  if (name === "email") return `fz_${fixture.fresh()}@example.test`;
  if (name === "fileKey") return fixture.storedKey;
  // A link's token: valid once. (A refresh token keeps its example, well-formed but unknown: a 401 that
  // changes nothing, where a real one, reused later, would end its session.)
  if (name === "token") return fixture.resetToken;
  if (name === "currentPassword") return fixture.password;
  if (schema.example !== undefined) return schema.example as Json;
  const type = [schema.type].flat()[0];
  if (type === "array") return [];
  if (type === "object") return validBody(schema, fixture);
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return false;
  return schema.enum?.[0] ?? "x";
}

/**
 * The required fields only (the first field when none is required, as updates need one): any
 * rejection then comes from the one thing a case changed.
 */
function validBody(schema: Schema, fixture: Fixture): { [key: string]: Json } {
  const body: { [key: string]: Json } = {};
  const names = schema.required?.length ? schema.required : Object.keys(schema.properties ?? {}).slice(0, 1);
  for (const name of names) {
    body[name] = validValue(name, resolve(schema.properties![name]!), fixture);
  }
  return body;
}

interface Field {
  path: Path;
  schema: Schema;
}

/** Top-level fields, and the fields of the first item of arrays of objects. */
function fields(schema: Schema): Field[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, raw]) => {
    const field = resolve(raw);
    const item = field.items ? resolve(field.items) : undefined;
    const nested = item?.properties
      ? Object.entries(item.properties).map(([inner, s]) => ({ path: [name, 0, inner], schema: resolve(s) }))
      : [];
    return [{ path: [name], schema: field }, ...nested];
  });
}

/** A copy of `base` with `value` at `path` (undefined removes it); missing containers are created. */
function withValue(base: Json, path: Path, value: Json | undefined, fixture: Fixture): Json {
  const root = structuredClone(base) as any;
  let node = root;
  for (const [i, key] of path.slice(0, -1).entries()) {
    if (node[key] === undefined) {
      // An attachment array gets one valid item, so only the targeted field is wrong.
      node[key] = typeof path[i + 1] === "number" ? [{ fileKey: fixture.storedKey }] : {};
    }
    node = node[key];
  }
  const last = path.at(-1)!;
  if (value === undefined) delete node[last];
  // defineProperty keeps keys such as `__proto__` as plain own properties in the JSON.
  else Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  return root;
}

const jsonOf: Record<string, fc.Arbitrary<Json>> = {
  string: fc.string({ maxLength: 20 }),
  integer: fc.integer(),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, {
    maxKeys: 3,
  }),
};

/** Values whose JSON type the schema does not allow (a fraction for `integer`, a string off the enum). */
function wrongValue(schema: Schema): fc.Arbitrary<Json> {
  const allowed = new Set([schema.type].flat());
  const options = Object.entries(jsonOf)
    .filter(([type]) => !allowed.has(type) && !(type === "integer" && allowed.has("number")))
    .map(([, arbitrary]) => arbitrary);
  if (allowed.has("integer")) options.push(fc.constantFrom(1.5, -0.25, 1e-9, 2 ** 64 + 0.5));
  if (schema.enum) {
    const values = schema.enum;
    options.push(fc.string({ maxLength: 10 }).filter((s) => !values.includes(s)));
  }
  return fc.oneof(...options);
}

// ---------------------------------------------------------------------------------------------
// Cases per operation

function jsonBodyCases(op: Operation, schema: Schema, fixture: Fixture): FuzzCase[] {
  const base = () => validBody(schema, fixture);
  const all = fields(schema);
  const cases: FuzzCase[] = [
    {
      name: "malformed JSON",
      expect: "reject",
      arbitrary: fc
        .oneof(
          fc.constantFrom("{", "[", '{"title":"x",}', "{'a':1}", '{"a":1}}', "nul", '"', "\u0000", "{\n"),
          fc.nat().map((cut) => {
            const text = JSON.stringify(base());
            return text.slice(0, cut % text.length);
          }),
          fc.string({ maxLength: 40 }).filter((s) => {
            try {
              JSON.parse(s);
              return false;
            } catch {
              return true;
            }
          }),
        )
        .map((text) => jsonRequest(op, fixture, text)),
    },
    {
      name: "JSON without a JSON Content-Type",
      expect: "reject",
      arbitrary: fc
        .constantFrom("text/plain", "application/x-www-form-urlencoded", "application/jsonx", "")
        .map((type) => {
          const req = jsonRequest(op, fixture, base());
          if (type) req.headers["Content-Type"] = type;
          else delete req.headers["Content-Type"];
          return req;
        }),
    },
    {
      name: "a field of the wrong type",
      expect: "reject",
      arbitrary: fc
        .constantFrom(...all)
        .chain((field) => wrongValue(field.schema).map((value) => ({ field, value })))
        .map(({ field, value }) => jsonRequest(op, fixture, withValue(base(), field.path, value, fixture))),
    },
    {
      name: "an unknown field",
      expect: "reject",
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.constantFrom("__proto__", "constructor", "userId", "id", "role", "isAdmin", "createdAt"),
            fc.string({ minLength: 1, maxLength: 12 }),
          ),
          fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>,
          fc.boolean(),
        )
        .filter(([key, , nested]) =>
          nested && schema.properties?.attachments ? key !== "fileKey" : !(key in (schema.properties ?? {})),
        )
        .map(([key, value, nested]) => {
          const path = nested && schema.properties?.attachments ? ["attachments", 0, key] : [key];
          return jsonRequest(op, fixture, withValue(base(), path, value, fixture));
        }),
    },
  ];

  const required = all.filter((f) => {
    const [top, , inner] = f.path;
    return f.path.length === 1 ? schema.required?.includes(String(top)) : inner === "fileKey";
  });
  if (required.length > 0) {
    cases.push({
      name: "a required field missing",
      expect: "reject",
      arbitrary: fc
        .constantFrom(...required)
        .map((field) => jsonRequest(op, fixture, withValue(base(), field.path, undefined, fixture))),
    });
  }

  const bounded = all.filter((f) => f.schema.maxLength !== undefined || f.schema.maxItems !== undefined);
  const overBounds = () =>
    fc.tuple(fc.constantFrom(...bounded), fc.integer({ min: 1, max: 300 })).map(([field, extra]) => {
      const value: Json =
        field.schema.maxItems !== undefined
          ? Array.from({ length: field.schema.maxItems + extra }, () => ({ fileKey: fixture.storedKey }))
          : "x".repeat(field.schema.maxLength! + extra);
      return jsonRequest(op, fixture, withValue(base(), field.path, value, fixture));
    });
  // Past the 1 MiB JSON limit: 413 before the body is parsed.
  const overLimit = fc
    .integer({ min: 1, max: 4 })
    .map((mib) =>
      jsonRequest(
        op,
        fixture,
        withValue(base(), [Object.keys(schema.properties!)[0]!], "x".repeat(mib << 20), fixture),
      ),
    );
  const ranged = all.filter((f) => f.schema.minimum !== undefined || f.schema.maximum !== undefined);
  const outOfRange = () =>
    fc.tuple(fc.constantFrom(...ranged), fc.integer({ min: 1, max: 1e6 })).map(([field, extra]) => {
      const { minimum, maximum } = field.schema;
      const value = maximum !== undefined ? maximum + extra : minimum! - extra;
      return jsonRequest(op, fixture, withValue(base(), field.path, value, fixture));
    });
  cases.push({
    name: "oversized strings, arrays and bodies, numbers out of range",
    expect: "reject",
    // A body may have no field with a length bound (a fixed-format token) or range: then only the body limit.
    arbitrary: fc.oneof(
      ...(bounded.length > 0 ? [overBounds()] : []),
      ...(ranged.length > 0 ? [outOfRange()] : []),
      overLimit,
    ),
  });
  return cases;
}

const directory = (value: string) => ({ name: "directory", body: value });

function uploadCases(op: Operation, fixture: Fixture): FuzzCase[] {
  const request = (parts: Parameters<typeof multipartBody>[0], contentType?: string): FuzzRequest => {
    const form = multipartBody(parts);
    return {
      method: op.method,
      path: op.path,
      headers: { ...authHeaders(op, fixture), "Content-Type": contentType ?? form.contentType },
      body: form.body,
    };
  };
  const file = { name: "file", filename: "f.txt", contentType: "text/plain", body: "fuzz" };
  return [
    {
      name: "malformed multipart",
      expect: "reject",
      arbitrary: fc.oneof(
        fc.uint8Array({ maxLength: 512 }).map((bytes) => ({
          ...request([file], "multipart/form-data; boundary=fuzzboundary"),
          body: bytes,
        })),
        fc.nat().map((cut) => {
          const req = request([file]);
          const body = req.body as Uint8Array;
          // Cut before the closing boundary is complete.
          return { ...req, body: body.subarray(0, cut % (body.length - 4)) };
        }),
        fc.constant(request([file], "multipart/form-data")),
      ),
    },
    {
      name: "not multipart",
      expect: "reject",
      arbitrary: fc
        .constantFrom(
          "application/json",
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/octet-stream",
        )
        .map((type) => ({
          ...request([file]),
          headers: { ...authHeaders(op, fixture), "Content-Type": type },
        })),
    },
    {
      name: "file missing or not a file",
      expect: "reject",
      arbitrary: fc.constantFrom(
        request([]),
        request([directory("docs")]),
        request([{ name: "file", body: "just text" }]),
        request([{ name: "upload", filename: "f.txt", body: "wrong field name" }]),
      ),
    },
    {
      name: "invalid directory",
      expect: "reject",
      arbitrary: fc
        .oneof(
          fc.constantFrom("..", ".", "a/../b", "/a", "a/", "a//b", "./a", "%2e%2e", "a\\b", "a b", "\u202e"),
          fc
            .tuple(
              fc.stringMatching(/^[a-z]{0,5}$/),
              fc.constantFrom("\\", "\u0000", "%", " ", "\u00e9", "\n", "?", "*", ":", '"', "<", "\u{1f600}"),
              fc.stringMatching(/^[a-z]{0,5}$/),
            )
            .map((parts) => parts.join("")),
        )
        .map((dir) => request([directory(dir), file])),
    },
    {
      name: "oversized directory and filename",
      expect: "reject",
      arbitrary: fc.oneof(
        fc.integer({ min: 257, max: 6000 }).map((n) => request([directory("d".repeat(n)), file])),
        fc.integer({ min: 1025, max: 4000 }).map((n) => request([{ ...file, filename: "n".repeat(n) }])),
      ),
    },
    {
      // Not a team id, a team the fixture's user is not in (404), or a team named after the file (400).
      name: "invalid, foreign or late orgId",
      expect: "reject",
      arbitrary: fc.oneof(
        fc
          .oneof(
            fc.constantFrom("", "0", "-1", "1.5", "01", "1e3", "x", " 1", "99999999999999999"),
            fc.integer({ min: 1_000_000, max: 2 ** 40 }).map(String),
          )
          .map((orgId) => request([{ name: "orgId", body: orgId }, file])),
        fc.constant(request([file, { name: "orgId", body: "1" }])),
      ),
    },
    {
      // Other form fields are ignored (documented), so these are valid uploads.
      name: "unknown form fields",
      expect: "any",
      arbitrary: fc
        .array(fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/), { minLength: 1, maxLength: 3 })
        .filter((names) => names.every((n) => n !== "file" && n !== "directory"))
        .map((names) => request([...names.map((name) => ({ name, body: "extra" })), file])),
    },
  ];
}

function pathParamCases(op: Operation, fixture: Fixture): FuzzCase[] {
  const ids = op.params.filter((p) => p.in === "path" && [p.schema.type].flat().includes("integer"));
  const keys = op.params.filter((p) => p.in === "path" && !ids.includes(p));
  const base = (path: string): FuzzRequest => ({ ...validRequest(op, fixture), path });
  const cases: FuzzCase[] = [];
  if (ids.length > 0) {
    cases.push({
      name: "odd ids",
      expect: "reject",
      arbitrary: fc
        .tuple(
          fc.constantFrom(...ids),
          fc.oneof(
            fc.constantFrom(...ODD_IDS).map(segment),
            fc
              .string({ maxLength: 12, unit: "grapheme" })
              .filter((s) => !/^[1-9][0-9]*$/.test(s))
              .map(segment),
          ),
        )
        .map(([param, value]) => base(fillPath(op, fixture, { [param.name]: value }))),
    });
    cases.push({
      name: "foreign ids",
      // Reading another user's public profile is allowed; changing anything of theirs is not.
      expect: op.method === "GET" ? "any" : "reject",
      arbitrary: fc.tuple(fc.constantFrom(...ids), fc.nat()).map(([param, pick]) => {
        const foreign = fixture.foreignParams(op, param.name);
        return base(fillPath(op, fixture, { [param.name]: foreign[pick % foreign.length]! }));
      }),
    });
  }
  if (keys.length > 0) {
    cases.push({
      name: "odd and unknown keys",
      expect: "reject",
      arbitrary: fc
        .tuple(
          fc.constantFrom(...keys),
          fc.oneof(
            fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" }).map(segment),
            fc.integer({ min: 1025, max: 3000 }).map((n) => "k".repeat(n)),
            fc.constantFrom("%", "%zz", "%C0%AF", "%E0%A4%A", "..%2F..%2Fetc%2Fpasswd", "%2F", "%00"),
          ),
        )
        .filter(([param, value]) => value !== fixture.ownParam(op, param.name))
        .map(([param, value]) => base(fillPath(op, fixture, { [param.name]: value }))),
    });
  }
  const owned = keys.filter((param) => op.secured && fixture.foreignParams(op, param.name).length > 0);
  if (owned.length > 0) {
    cases.push({
      name: "another user's keys",
      expect: "reject",
      arbitrary: fc.tuple(fc.constantFrom(...owned), fc.nat()).map(([param, pick]) => {
        const foreign = fixture.foreignParams(op, param.name);
        return base(fillPath(op, fixture, { [param.name]: foreign[pick % foreign.length]! }));
      }),
    });
  }
  return cases;
}

function queryCases(op: Operation, fixture: Fixture): FuzzCase[] {
  if (op.method !== "GET") return [];
  const query = op.params.filter((p) => p.in === "query");
  const request = (search: string): FuzzRequest => ({
    method: op.method,
    path: `${fillPath(op, fixture)}?${search}`,
    headers: authHeaders(op, fixture),
  });
  const cases: FuzzCase[] = [
    {
      name: "unknown query parameters",
      expect: "any",
      arbitrary: fc
        .array(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), printable), {
          minLength: 1,
          maxLength: 4,
        })
        .map((pairs) => request(new URLSearchParams(pairs).toString())),
    },
  ];
  if (query.length > 0) {
    cases.push({
      name: "odd query values",
      // `page=1e3` is page 1000 and a past-the-end page is an empty list: some of these are valid.
      expect: "any",
      arbitrary: fc
        .tuple(fc.constantFrom(...query), fc.oneof(fc.constantFrom(...ODD_QUERY), printable))
        .map(([param, value]) => request(new URLSearchParams([[param.name, value]]).toString())),
    });
  }
  return cases;
}

function headerCases(op: Operation, fixture: Fixture): FuzzCase[] {
  const headers = op.params.filter((p) => p.in === "header");
  if (headers.length === 0) return [];
  return [
    {
      name: "odd conditional and range headers",
      expect: "any",
      arbitrary: fc
        .array(
          fc.tuple(
            fc.constantFrom(...headers.map((h) => h.name)),
            fc.oneof(
              printable,
              fc.constantFrom(
                "bytes=0-0",
                "bytes=-0",
                "bytes=5-2",
                "bytes=0-1,3-4",
                "bytes=99999-",
                "*",
                'W/"x"',
              ),
            ),
          ),
          { minLength: 1, maxLength: 2 },
        )
        .map((pairs) => ({
          method: op.method,
          path: fillPath(op, fixture),
          headers: Object.fromEntries(pairs),
        })),
    },
  ];
}

function tokenCases(op: Operation, fixture: Fixture): FuzzCase[] {
  if (!op.secured) return [];
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
  const token = fixture.validToken;
  // Any byte of header or payload is signed; the last signature character may only carry padding bits.
  const tampered = fc
    .tuple(fc.nat({ max: token.length - 2 }), fc.constantFrom(...alphabet))
    .filter(([i, c]) => token[i] !== c)
    .map(([i, c]) => `Bearer ${token.slice(0, i)}${c}${token.slice(i + 1)}`);
  return [
    {
      name: "bad tokens",
      expect: "reject",
      arbitrary: fc
        .oneof(
          fc.constantFrom(...fixture.badAuthorizations),
          tampered,
          printable.map((s) => `Bearer ${s}`),
          printable,
        )
        .map((authorization) => {
          const req = validRequest(op, fixture);
          if (authorization === undefined) delete req.headers.Authorization;
          else req.headers.Authorization = authorization;
          return req;
        }),
    },
  ];
}

/** Every case for one operation. */
export function casesFor(op: Operation, fixture: Fixture): FuzzCase[] {
  return [
    ...(op.body?.kind === "json" ? jsonBodyCases(op, op.body.schema, fixture) : []),
    ...(op.body?.kind === "multipart" ? uploadCases(op, fixture) : []),
    ...pathParamCases(op, fixture),
    ...queryCases(op, fixture),
    ...headerCases(op, fixture),
    ...hostileHeaderCases(op, fixture),
    ...tokenCases(op, fixture),
  ];
}

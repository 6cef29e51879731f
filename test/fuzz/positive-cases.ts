// The fuzzer's positive pass: requests built from openapi.json alone by a JSON Schema sampler
// (json-schema-faker, seeded), each one the document allows. The server may refuse one only for a
// reason the document states: with a status the operation lists, and a 400 only with a message whose
// reason (the text before its first colon) the operation's own text names.
import { createGeneratorSync } from "json-schema-faker";
import document from "../../openapi.json";
import { multipartBody } from "../helpers/multipart";
import type { FuzzRequest, Operation } from "./openapi-cases";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: Json[];
  const?: Json;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minProperties?: number;
  maxProperties?: number;
  dependentRequired?: Record<string, string[]>;
  dependentSchemas?: Record<string, Schema>;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema: Schema;
}

const schemas = document.components.schemas as unknown as Record<string, Schema>;

/** `schema` with every $ref replaced by the component it names (the document has no recursive schema). */
export function inline(schema: Schema): Schema {
  if (schema.$ref) return inline(schemas[schema.$ref.split("/").at(-1)!]!);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties") {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, inline(v)]),
      );
    } else if (key === "items" || (key === "additionalProperties" && typeof value === "object")) {
      out[key] = inline(value as Schema);
    } else if (key === "anyOf" || key === "oneOf" || key === "allOf") {
      out[key] = (value as Schema[]).map(inline);
    } else {
      out[key] = value;
    }
  }
  return out as Schema;
}

const codePoints = (value: string) => [...value].length;

/** The formats the document uses, checked as plainly as a client library would. */
const FORMATS: Record<string, (value: string) => boolean> = {
  "date-time": (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value),
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
  email: (value) => /^[^\s@]+@[^\s@]+$/.test(value),
};
const types = (schema: Schema) => [schema.type ?? []].flat();

function typeOf(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether `value` is one the document allows (the sampler may miss a lookahead in a pattern). */
export function conforms(schema: Schema, value: Json): boolean {
  if (schema.anyOf && !schema.anyOf.some((s) => conforms(s, value))) return false;
  if (schema.oneOf && schema.oneOf.filter((s) => conforms(s, value)).length !== 1) return false;
  if (schema.allOf && !schema.allOf.every((s) => conforms(s, value))) return false;
  const allowed = types(schema);
  const actual = typeOf(value);
  if (
    allowed.length > 0 &&
    !allowed.includes(actual) &&
    !(actual === "integer" && allowed.includes("number"))
  ) {
    return false;
  }
  if (schema.enum && !schema.enum.some((option) => option === value)) return false;
  if (schema.const !== undefined && schema.const !== value) return false;
  if (typeof value === "string") {
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) return false;
    if (schema.minLength !== undefined && codePoints(value) < schema.minLength) return false;
    if (schema.maxLength !== undefined && codePoints(value) > schema.maxLength) return false;
    if (schema.format && !(FORMATS[schema.format]?.(value) ?? true)) return false;
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return false;
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    if (schema.items && !value.every((item) => conforms(schema.items!, item))) return false;
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (schema.required?.some((key) => !(key in value))) return false;
    for (const [key, needs] of Object.entries(schema.dependentRequired ?? {})) {
      if (key in value && needs.some((need) => !(need in value))) return false;
    }
    for (const [key, dependent] of Object.entries(schema.dependentSchemas ?? {})) {
      if (key in value && !conforms(dependent, value)) return false;
    }
    if (schema.minProperties !== undefined && keys.length < schema.minProperties) return false;
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) return false;
    for (const key of keys) {
      const property = schema.properties?.[key];
      if (property ? !conforms(property, value[key]!) : schema.additionalProperties === false) return false;
    }
  }
  return true;
}

export interface Sampler {
  /** A value the schema allows, or undefined when the sampler found none in a few tries. */
  sample(schema: Schema): Json | undefined;
  /** A coin toss from the same seed: whether to send an optional parameter. */
  toss(): boolean;
}

export function sampler(seed: number): Sampler {
  const generator = createGeneratorSync({ seed, optionalsProbability: 0.5, maxDefaultItems: 3 });
  let state = seed | 0;
  return {
    toss() {
      // mulberry32
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32 < 0.5;
    },
    sample(schema) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const value = generator.generate(schema as never) as Json;
        if (conforms(schema, value)) return value;
      }
      return undefined;
    },
  };
}

const VISIBLE_ASCII = /^[\x20-\x7e]*$/;

/** A parameter's value on the wire: strings as they are, anything else as JSON text. */
const wire = (value: Json) => (typeof value === "string" ? value : JSON.stringify(value));

/** The operation's OpenAPI object. */
function rawOperation(op: Operation): Record<string, any> {
  return (document.paths as Record<string, Record<string, any>>)[op.path]![op.method.toLowerCase()];
}

/** Everything the document says about the operation, its schemas inlined, as lower-case text. */
function statedText(op: Operation): string {
  const raw = rawOperation(op);
  const params = ((raw.parameters ?? []) as Parameter[]).map((p) => ({ ...p, schema: inline(p.schema) }));
  const content = Object.values((raw.requestBody?.content ?? {}) as Record<string, { schema: Schema }>);
  const bodies = content.map((media) => inline(media.schema));
  return JSON.stringify({ ...raw, parameters: params, bodies }).toLowerCase();
}

/** What one request carries: a value for each parameter it sends, and its body (a form's fields, for a form). */
interface Draft {
  params: Map<Parameter, Json>;
  body?: Json;
}

const parametersOf = (op: Operation) => (rawOperation(op).parameters ?? []) as Parameter[];

/** The schema of the body's values: the JSON body, or a form's fields but its file; none for raw bytes. */
function bodySchema(op: Operation): Schema | undefined {
  const content = (rawOperation(op).requestBody?.content ?? {}) as Record<string, { schema: Schema }>;
  if (content["application/json"]) return inline(content["application/json"].schema);
  if (!content["multipart/form-data"]) return undefined;
  const form = inline(content["multipart/form-data"].schema);
  const { file: _file, ...properties } = form.properties ?? {};
  return { ...form, properties, required: form.required?.filter((name) => name !== "file") };
}

/** A draft with every value sampled; optional parameters sent or not by a coin toss. */
function sampledDraft(op: Operation, s: Sampler): Draft | undefined {
  const params = new Map<Parameter, Json>();
  for (const param of parametersOf(op)) {
    if (!param.required && s.toss()) continue;
    const value = s.sample(inline(param.schema));
    if (value === undefined) return undefined;
    params.set(param, value);
  }
  const schema = bodySchema(op);
  if (!schema) return { params };
  const body = s.sample(schema);
  return body === undefined ? undefined : { params, body };
}

/** The edges of what a schema allows: empty and blank strings, the longest, the bounds of numbers... */
function edges(schema: Schema): Json[] {
  if (schema.enum) return [schema.enum[0]!, schema.enum.at(-1)!];
  const kinds = types(schema);
  const out: Json[] = kinds.includes("null") ? [null] : [];
  if (kinds.includes("string")) {
    out.push("", " ", " ".repeat(schema.minLength ?? 1));
    if (schema.maxLength !== undefined && schema.maxLength <= 10_000) out.push("x".repeat(schema.maxLength));
  }
  if (kinds.includes("integer") || kinds.includes("number")) {
    for (const n of [schema.minimum, schema.maximum, 0, -1]) if (n !== undefined) out.push(n);
  }
  if (kinds.includes("boolean")) out.push(true, false);
  if (kinds.includes("array")) out.push([]);
  if (kinds.includes("object")) out.push({});
  return out;
}

/**
 * Drafts that move one value of `base` to an edge the document allows (a coverage phase, as a
 * sampler alone rarely picks an empty string or a bound): each parameter, each top-level body field,
 * and the empty body.
 */
function edgeDrafts(op: Operation, base: Draft): Draft[] {
  const drafts: Draft[] = [];
  for (const param of parametersOf(op)) {
    const schema = inline(param.schema);
    for (const edge of edges(schema)) {
      if (conforms(schema, edge)) drafts.push({ ...base, params: new Map(base.params).set(param, edge) });
    }
  }
  const schema = bodySchema(op);
  const body = base.body as Record<string, Json> | undefined;
  if (!schema || body === undefined) return drafts;
  const candidates: Json[] = [{}];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    for (const edge of edges(field)) candidates.push({ ...body, [name]: edge });
  }
  for (const candidate of candidates)
    if (conforms(schema, candidate)) drafts.push({ ...base, body: candidate });
  return drafts;
}

/** The request a draft makes; `token` authenticates a secured operation (the one thing a document cannot supply). */
function toRequest(op: Operation, token: string, draft: Draft): FuzzRequest {
  const headers: Record<string, string> = op.secured ? { Authorization: `Bearer ${token}` } : {};
  let path = op.path;
  const query = new URLSearchParams();
  for (const [param, value] of draft.params) {
    if (param.in === "path") path = path.replace(`{${param.name}}`, encodeURIComponent(wire(value)));
    else if (param.in === "query") query.set(param.name, wire(value));
    else if (VISIBLE_ASCII.test(wire(value))) headers[param.name] = wire(value);
  }
  const search = query.toString();
  const req: FuzzRequest = { method: op.method, path: search ? `${path}?${search}` : path, headers };
  const content = rawOperation(op).requestBody?.content ?? {};
  if (content["application/json"]) {
    return {
      ...req,
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(draft.body),
    };
  }
  if (content["multipart/form-data"]) {
    const fields = Object.entries((draft.body ?? {}) as Record<string, Json>);
    const parts = fields.map(([name, value]) => ({ name, body: wire(value) }));
    const form = multipartBody([...parts, { name: "file", filename: "sample.txt", body: "sampled" }]);
    return { ...req, headers: { ...headers, "Content-Type": form.contentType }, body: form.body };
  }
  if (content["application/octet-stream"]) {
    return {
      ...req,
      headers: { ...headers, "Content-Type": "application/octet-stream" },
      body: new Uint8Array(16),
    };
  }
  return req;
}

/**
 * Requests the document allows for `op`: `runs` with every value sampled, then those moving one value
 * of the first to an edge (at most `maxEdges`). Undefined when the sampler found no conforming value.
 */
export function positiveRequests(
  op: Operation,
  token: string,
  s: Sampler,
  runs: number,
  maxEdges = 12,
): FuzzRequest[] | undefined {
  const drafts: Draft[] = [];
  for (let i = 0; i < runs; i++) {
    const draft = sampledDraft(op, s);
    if (!draft) return undefined;
    drafts.push(draft);
  }
  const edgesOfFirst = drafts[0] ? edgeDrafts(op, drafts[0]).slice(0, maxEdges) : [];
  return [...drafts, ...edgesOfFirst].map((draft) => toRequest(op, token, draft));
}

/**
 * Why an answer to a positive request breaks the document, or null when the document allows it. The
 * reason of a 400 is its validation issues' messages (`Invalid json: title: <message>`), or else its
 * message, each up to its first colon.
 */
export function positiveProblem(op: Operation, status: number, body: unknown): string | null {
  const raw = rawOperation(op);
  if (status >= 500) return `${status}: a server error`;
  if (!(String(status) in raw.responses)) return `${status}: a status the operation does not list`;
  if (status !== 400) return null;
  const error = (body as { error?: { message?: string; issues?: { message: string }[] } })?.error;
  const messages = error?.issues?.length
    ? error.issues.map((issue) => issue.message)
    : [error?.message ?? ""];
  const stated = statedText(op);
  const unstated = messages.filter((message) => {
    const reason = message.split(":")[0]!.trim().toLowerCase();
    return !reason || !stated.includes(reason);
  });
  return unstated.length === 0 ? null : `400 "${error?.message}": a reason the operation does not state`;
}

/**
 * Checks a value against the worker contract (contract-schema.ts): the
 * worker checks every reply from Python with it, and the unit tests check
 * samples and broken copies. Python's tests check with their own copy of
 * the same few rules (python/tests/schema_check.py).
 */
import { deref, type ContractDocument, type Json, type JsonType, type Schema } from './contract-schema.js';
import type { Operation } from './contract.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
  }
}

// Values as JSON compares them: primitives by ===, lists and objects by their text.
const same = (a: unknown, b: Json): boolean => a === b || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** What is wrong with `value` as `schema` describes it, one line per problem, each naming where (`$.result.images[0].alt`). */
export function problems(doc: ContractDocument, schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref !== undefined) return problems(doc, deref(doc, schema.$ref), value, at);
  if (schema.oneOf !== undefined) {
    const each = schema.oneOf.map((alternative) => problems(doc, alternative, value, at));
    const matching = each.filter((p) => p.length === 0).length;
    if (matching === 1) return [];
    if (matching > 1) return [`${at}: matches ${matching} alternatives, not one`];
    // The closest alternative's problems say most about what went wrong.
    return each.reduce((best, p) => (p.length < best.length ? p : best));
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((t) => hasType(value, t))) return [`${at}: ${JSON.stringify(value)?.slice(0, 80)} is not ${types.join(' or ')}`];
  if (schema.const !== undefined && !same(value, schema.const)) return [`${at}: must be ${JSON.stringify(schema.const)}`];
  if (schema.enum !== undefined && !schema.enum.some((e) => same(value, e))) {
    return [`${at}: ${JSON.stringify(value)?.slice(0, 80)} is not one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`];
  }
  const out: string[] = [];
  if (isRecord(value) && (schema.properties || schema.required)) {
    const declared = schema.properties ?? {};
    for (const name of schema.required ?? []) if (!Object.hasOwn(value, name)) out.push(`${at}.${name}: missing`);
    for (const [name, sub] of Object.entries(value)) {
      const described = declared[name];
      if (described) out.push(...problems(doc, described, sub, `${at}.${name}`));
      else if (schema.additionalProperties === false) out.push(`${at}.${name}: not in the contract`);
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => out.push(...problems(doc, schema.items!, item, `${at}[${i}]`)));
  }
  return out;
}

/** What is wrong with a reply of Python's rst2.api.handle to a job of operation `op`: its envelope, then its result. */
export function replyProblems(doc: ContractDocument, op: Operation, reply: unknown): string[] {
  const envelope = problems(doc, { $ref: '#/$defs/Reply' }, reply);
  if (envelope.length > 0 || !isRecord(reply) || reply['ok'] !== true) return envelope;
  const result = deref(doc, '#/$defs/Results').properties?.[op];
  if (!result) return [`$: no result declared for operation ${op}`];
  return problems(doc, result, reply['result'], '$.result');
}

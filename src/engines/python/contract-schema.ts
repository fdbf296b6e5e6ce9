/**
 * The worker contract's file (python/rst2/worker.schema.json) as TypeScript
 * reads it: the small part of JSON Schema it may use, refused beyond that.
 * The file sits in the Python package so that it reaches Pyodide, the
 * snapshot and the single binary with the rest of python/, unchanged.
 *
 * Only the keywords both checkers implement (this side's contract-check.ts,
 * Python's python/tests/schema_check.py) are allowed: a keyword one of them
 * ignored would be a rule that only one side keeps.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export interface Schema {
  description?: string;
  default?: Json;
  type?: JsonType | JsonType[];
  enum?: Json[];
  const?: Json;
  properties?: Record<string, Schema>;
  required?: string[];
  /** Only `false`: an object's properties are all declared. */
  additionalProperties?: false;
  items?: Schema;
  oneOf?: Schema[];
  /** `#/$defs/Name` only. */
  $ref?: string;
}

export interface ContractDocument {
  $schema: string;
  title: string;
  description: string;
  $defs: Record<string, Schema>;
}

/** Relative to the python/ folder (paths.pythonSources, or a worker's copy of it). */
export const CONTRACT_FILE = path.join('rst2', 'worker.schema.json');

const KEYWORDS = new Set(['description', 'default', 'type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'oneOf', '$ref']);
const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'null', 'object', 'array']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses the contract's text, refusing what either checker would not understand. */
export function parseContract(text: string): ContractDocument {
  const doc: unknown = JSON.parse(text);
  if (!isRecord(doc) || !isRecord(doc['$defs'])) throw new Error('the worker contract has no $defs');
  const defs = doc['$defs'];
  const visit = (schema: unknown, at: string): void => {
    if (!isRecord(schema)) throw new Error(`${at}: a schema must be an object`);
    for (const key of Object.keys(schema)) if (!KEYWORDS.has(key)) throw new Error(`${at}: keyword ${key} is not one both checkers know`);
    const { type, properties, required, additionalProperties, items, oneOf, $ref } = schema;
    for (const t of type === undefined ? [] : Array.isArray(type) ? type : [type]) {
      if (typeof t !== 'string' || !TYPES.has(t)) throw new Error(`${at}: unknown type ${String(t)}`);
    }
    if (additionalProperties !== undefined && additionalProperties !== false) throw new Error(`${at}: additionalProperties may only be false`);
    if ($ref !== undefined) {
      const name = typeof $ref === 'string' && $ref.startsWith('#/$defs/') ? $ref.slice('#/$defs/'.length) : '';
      if (!Object.hasOwn(defs, name)) throw new Error(`${at}: $ref ${String($ref)} is not one of $defs`);
    }
    if (properties !== undefined) {
      if (!isRecord(properties)) throw new Error(`${at}: properties must be an object`);
      for (const [name, sub] of Object.entries(properties)) visit(sub, `${at}.properties.${name}`);
    }
    if (required !== undefined && (!Array.isArray(required) || !required.every((r) => isRecord(properties) && Object.hasOwn(properties, String(r))))) {
      throw new Error(`${at}: required names a property that is not declared`);
    }
    if (items !== undefined) visit(items, `${at}.items`);
    if (oneOf !== undefined) {
      if (!Array.isArray(oneOf)) throw new Error(`${at}: oneOf must be a list`);
      oneOf.forEach((sub, i) => visit(sub, `${at}.oneOf[${i}]`));
    }
  };
  for (const [name, schema] of Object.entries(defs)) visit(schema, `$defs.${name}`);
  return doc as unknown as ContractDocument;
}

export function readContract(pythonSources: string): ContractDocument {
  return parseContract(fs.readFileSync(path.join(pythonSources, CONTRACT_FILE), 'utf8'));
}

/** The definition a `$ref` names. */
export function deref(doc: ContractDocument, ref: string): Schema {
  const schema = doc.$defs[ref.slice('#/$defs/'.length)];
  if (!schema) throw new Error(`no definition ${ref}`);
  return schema;
}

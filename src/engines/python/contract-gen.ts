/**
 * Writes TypeScript's side of the worker contract, src/engines/python/contract.ts,
 * from python/rst2/worker.schema.json: a type for each definition, and the
 * enums and fixed paths as constants, so that the compiler holds the pool
 * and the service to what Python was promised. `npm run contract` runs it;
 * test/unit/contract.test.ts fails when the file is not what it would write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { paths, projectRoot } from '../../paths.js';
import { CONTRACT_FILE, readContract, type ContractDocument, type Json, type JsonType, type Schema } from './contract-schema.js';

export const GENERATED_FILE = path.join('src', 'engines', 'python', 'contract.ts');

const literal = (value: Json): string => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value));
const key = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));
/** PyodidePaths -> PYODIDE_PATHS */
const constName = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

function doc(text: string | undefined, indent: string): string {
  if (!text) return '';
  if (text.includes('*/')) throw new Error(`a description cannot hold */: ${text}`);
  return `${indent}/** ${text} */\n`;
}

const PRIMITIVE: Record<JsonType, string> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  null: 'null',
  object: 'Record<string, unknown>',
  array: 'unknown[]',
};

function typeOf(schema: Schema, indent: string): string {
  if (schema.$ref !== undefined) return schema.$ref.slice('#/$defs/'.length);
  if (schema.oneOf !== undefined) return schema.oneOf.map((s) => typeOf(s, indent)).join(' | ');
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum !== undefined) return schema.enum.map(literal).join(' | ');
  if (schema.properties !== undefined) return `{ ${members(schema, '').join('; ')} }`;
  if (schema.type === 'array') {
    const item = schema.items ? typeOf(schema.items, indent) : 'unknown';
    return /[ |]/.test(item) ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type !== undefined) return (Array.isArray(schema.type) ? schema.type : [schema.type]).map((t) => PRIMITIVE[t]).join(' | ');
  return 'unknown';
}

function propertyDoc(schema: Schema): string | undefined {
  const parts = [schema.description, schema.default === undefined ? undefined : `Default: ${literal(schema.default)}.`];
  return parts.filter((p) => p !== undefined).join(' ') || undefined;
}

/** `name: Type` (`name?` where not required), one per property; with `indent`, a line each with its comment. */
function members(schema: Schema, indent: string): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, sub]) => {
    const member = `${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(sub, indent)}`;
    return indent ? `${doc(propertyDoc(sub), indent)}${indent}${member};` : member;
  });
}

function definition(name: string, schema: Schema): string {
  const head = doc(schema.description, '');
  const props = Object.entries(schema.properties ?? {});
  if (schema.enum !== undefined && schema.type === undefined) {
    const values = constName(`${name}Values`);
    return `${head}export const ${values} = [${schema.enum.map(literal).join(', ')}] as const;\nexport type ${name} = (typeof ${values})[number];\n`;
  }
  if (props.length > 0 && props.every(([, sub]) => sub.const !== undefined)) {
    const lines = props.map(([prop, sub]) => `${doc(sub.description, '  ')}  ${key(prop)}: ${literal(sub.const!)},`);
    return `${head}export const ${constName(name)} = {\n${lines.join('\n')}\n} as const;\n`;
  }
  if (schema.type === 'object' && schema.properties !== undefined) {
    return `${head}export interface ${name} {\n${members(schema, '  ').join('\n')}\n}\n`;
  }
  if (schema.oneOf !== undefined) return `${head}export type ${name} =\n${schema.oneOf.map((s) => `  | ${typeOf(s, '')}`).join('\n')};\n`;
  return `${head}export type ${name} = ${typeOf(schema, '')};\n`;
}

/** The text of contract.ts for this contract. */
export function generateContract(contract: ContractDocument): string {
  const source = CONTRACT_FILE.split(path.sep).join('/');
  const header = [
    `// Generated from python/${source} by \`npm run contract\` (src/engines/python/contract-gen.ts): do not edit.`,
    '// test/unit/contract.test.ts fails when this file is not what the schema generates.',
    '',
  ];
  return `${header.join('\n')}\n${Object.entries(contract.$defs).map(([name, schema]) => definition(name, schema)).join('\n')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = path.join(projectRoot, GENERATED_FILE);
  fs.writeFileSync(target, generateContract(readContract(paths.pythonSources)));
  process.stdout.write(`wrote ${GENERATED_FILE}\n`);
}

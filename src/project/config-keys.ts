/**
 * The keys of a project's configuration (`[tool.rst2]` of pyproject.toml,
 * or the top level of rst2.toml / .rst2.toml): a parsed TOML table checked
 * key by key into a ProjectConfig. Every mistake is `config_invalid`
 * naming the file, the key as written (`tool.rst2.overrides[2].dialect`)
 * and what was expected, because a key that is quietly ignored is a
 * setting the user believes in and does not have.
 */
import { DIALECTS, type Dialect } from '../dialects.js';
import { Code, ServiceError } from '../errors.js';
import { expandRule } from '../rules.js';

/** What a config says about the files it applies to, at its top level or in an override. */
export interface FileChoice {
  dialect?: Dialect;
  select?: string[];
  ignore?: string[];
  extendSelect?: string[];
  roles?: string[];
  directives?: string[];
  literalDirectives?: string[];
  substitutions?: string[];
  /** The longest line line-too-long lets through. */
  lineLength?: number;
}

export interface Override extends FileChoice {
  /** Globs relative to the config's folder. */
  paths: string[];
}

export interface ProjectConfig extends FileChoice {
  /** The config file, absolute. */
  file: string;
  /** Its folder: globs are relative to it. */
  root: string;
  /** Globs a walked file must match (when given). */
  include?: string[];
  exclude: string[];
  /** File name endings a folder walk picks up, with their dot. */
  extensions: string[];
  overrides: Override[];
}

export const DEFAULT_EXTENSIONS: readonly string[] = ['.rst'];

type Table = Record<string, unknown>;

/** Keys allowed both at the top level and in an override, and where each goes. */
const CHOICE_KEYS = {
  dialect: 'dialect',
  select: 'select',
  ignore: 'ignore',
  'extend-select': 'extendSelect',
  roles: 'roles',
  directives: 'directives',
  'literal-directives': 'literalDirectives',
  substitutions: 'substitutions',
  'line-length': 'lineLength',
} as const satisfies Record<string, keyof FileChoice>;

const TOP_KEYS = ['include', 'exclude', 'extensions', 'overrides'] as const;
const RULE_KEYS: ReadonlySet<string> = new Set(['select', 'ignore', 'extend-select']);

/** Where a mistake is: the file as shown to the user and the key's prefix (`tool.rst2.` in a pyproject.toml). */
export interface KeyPlace {
  shown: string;
  prefix: string;
}

function wrong(place: KeyPlace, key: string, expected: string, message: string): ServiceError {
  const fullKey = `${place.prefix}${key}`;
  return new ServiceError(Code.config_invalid, `${place.shown}: ${fullKey}: ${message}`, { details: { file: place.shown, key: fullKey, expected } });
}

function kind(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 60))}`;
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object' && value !== null) return 'a table';
  return `${typeof value === 'boolean' ? 'the boolean' : 'the number'} ${String(value)}`;
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function stringList(place: KeyPlace, key: string, value: unknown, expected: string, valid: (s: string) => boolean = () => true): string[] {
  if (!Array.isArray(value)) throw wrong(place, key, expected, `expected ${expected}, got ${kind(value)}`);
  value.forEach((item, i) => {
    if (typeof item !== 'string' || !valid(item)) throw wrong(place, key, expected, `expected ${expected}; item ${i + 1} is ${kind(item)}`);
  });
  return value as string[];
}

// Names travel newline-joined to the engine, and no role or directive name holds a space.
const NAME = /^[^\s]+$/;

function ruleNames(place: KeyPlace, key: string, value: unknown): string[] {
  const expected = 'a list of rule names (codes, prefixes ending at a hyphen, or ALL)';
  const names = stringList(place, key, value, expected);
  for (const name of names) {
    try {
      expandRule(name);
    } catch {
      throw wrong(place, key, expected, `unknown rule ${JSON.stringify(name.slice(0, 100))}: expected a rule code, a prefix of codes ending at a hyphen, or ALL (docs/rules.rst lists them)`);
    }
  }
  return names;
}

function dialect(place: KeyPlace, key: string, value: unknown): Dialect {
  const expected = `one of ${DIALECTS.join(', ')}`;
  const known: readonly unknown[] = DIALECTS;
  if (typeof value !== 'string' || !known.includes(value)) throw wrong(place, key, expected, `expected ${expected}, got ${kind(value)}`);
  return value as Dialect;
}

export const MAX_LINE_LENGTH = 1000;

/** A line length: a whole number of characters from 1 to MAX_LINE_LENGTH. */
export function isLineLength(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_LINE_LENGTH;
}

function lineLength(place: KeyPlace, key: string, value: unknown): number {
  const expected = `a whole number of characters from 1 to ${MAX_LINE_LENGTH}`;
  if (!isLineLength(value)) throw wrong(place, key, expected, `expected ${expected}, got ${kind(value)}`);
  return value;
}

/** The FileChoice keys of `table`; `allowed` are the other keys that may be there, anything else is an error. */
function choice(place: KeyPlace, at: string, table: Table, allowed: readonly string[]): FileChoice {
  const out: FileChoice = {};
  for (const [key, value] of Object.entries(table)) {
    const where = `${at}${key}`;
    if (allowed.includes(key)) continue;
    if (!Object.hasOwn(CHOICE_KEYS, key)) {
      const valid = [...Object.keys(CHOICE_KEYS), ...allowed].sort();
      throw wrong(place, where, `one of ${valid.join(', ')}`, `unknown key; expected one of ${valid.join(', ')}`);
    }
    const field = CHOICE_KEYS[key as keyof typeof CHOICE_KEYS];
    if (field === 'dialect') out.dialect = dialect(place, where, value);
    else if (field === 'lineLength') out.lineLength = lineLength(place, where, value);
    else if (RULE_KEYS.has(key)) out[field] = ruleNames(place, where, value);
    else out[field] = stringList(place, where, value, 'a list of names without spaces', (s) => NAME.test(s));
  }
  return out;
}

function globs(place: KeyPlace, key: string, value: unknown): string[] {
  return stringList(place, key, value, 'a list of globs relative to the configuration file', (s) => s.trim() !== '');
}

function extensions(place: KeyPlace, value: unknown): string[] {
  const list = stringList(place, 'extensions', value, 'a list of file name endings such as ".rst" or ".txt"', (s) => /^\.?[^\s/\\]+$/.test(s));
  return list.map((e) => (e.startsWith('.') ? e : `.${e}`));
}

function overrides(place: KeyPlace, value: unknown): Override[] {
  const expected = 'a list of tables ([[overrides]]), each with paths and any of the per-file keys';
  if (!Array.isArray(value)) throw wrong(place, 'overrides', expected, `expected ${expected}, got ${kind(value)}`);
  return value.map((item, i) => {
    const at = `overrides[${i + 1}].`;
    if (!isTable(item)) throw wrong(place, `overrides[${i + 1}]`, expected, `expected a table, got ${kind(item)}`);
    for (const key of TOP_KEYS) {
      if (key !== 'overrides' && Object.hasOwn(item, key)) {
        throw wrong(place, `${at}${key}`, 'a per-file key', `${key} applies to the whole configuration, not to an override; move it to the top level`);
      }
    }
    if (!Object.hasOwn(item, 'paths')) throw wrong(place, `${at}paths`, 'a list of globs', 'missing: an override needs paths, the globs of the files it applies to');
    return { ...choice(place, at, item, ['paths']), paths: globs(place, `${at}paths`, item.paths) };
  });
}

/** The configuration in `table`, or a `config_invalid` error naming the first mistake. */
export function readKeys(table: Table, file: string, place: KeyPlace, root: string): ProjectConfig {
  const base = choice(place, '', table, TOP_KEYS);
  const config: ProjectConfig = {
    ...base,
    file,
    root,
    exclude: table.exclude === undefined ? [] : globs(place, 'exclude', table.exclude),
    extensions: table.extensions === undefined ? [...DEFAULT_EXTENSIONS] : extensions(place, table.extensions),
    overrides: table.overrides === undefined ? [] : overrides(place, table.overrides),
  };
  if (table.include !== undefined) config.include = globs(place, 'include', table.include);
  return config;
}

export { isTable };

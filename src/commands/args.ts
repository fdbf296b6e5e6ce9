/**
 * A small argument parser for the rst2 command: `--name value`,
 * `--name=value`, short aliases (`-o value`), boolean flags, positionals;
 * `-` is a positional (standard input) and `--` ends the options.
 */

/** A mistake in how the command was called: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface ArgSpec {
  /** `value` takes an argument; `flag` does not. */
  kind: 'value' | 'flag';
  /** A one-letter alias such as `o` for `-o`. */
  short?: string;
}

export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string>;
  flags: Set<string>;
}

export function parseArgs(args: readonly string[], spec: Readonly<Record<string, ArgSpec>>): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], values: {}, flags: new Set() };
  const byShort = new Map(Object.entries(spec).flatMap(([name, s]) => (s.short ? [[s.short, name] as const] : [])));
  let onlyPositionals = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      parsed.positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
      if (!Object.hasOwn(spec, name)) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    } else {
      name = byShort.get(arg.slice(1, 2));
      if (name === undefined) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
      if (arg.length > 2) inline = arg.slice(2);
    }
    const option = spec[name]!;
    if (option.kind === 'flag') {
      if (inline !== undefined) throw new UsageError(`option --${name} takes no value`);
      parsed.flags.add(name);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      value = args[i + 1];
      if (value === undefined) throw new UsageError(`option --${name} needs a value`);
      i++;
    }
    if (Object.hasOwn(parsed.values, name)) throw new UsageError(`option --${name} given twice`);
    parsed.values[name] = value;
  }
  return parsed;
}

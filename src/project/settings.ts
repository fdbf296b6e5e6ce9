/**
 * The settings one file is checked with, from its project's configuration:
 * the config that governs it (the closest one from its folder upward, or
 * the one `--config` names, or none with `--isolated`), with the overrides
 * whose `paths` match it applied in order. The command line (and, later,
 * the language server for a workspace folder) asks here, so both read a
 * project the same way. Sphinx's conf.py is not read here: that needs the
 * engine (sphinx-conf.ts).
 */
import path from 'node:path';

import type { Dialect } from '../dialects.js';
import { ConfigFinder, readConfigFile } from './config-file.js';
import { DEFAULT_EXTENSIONS, type FileChoice, type ProjectConfig } from './config-keys.js';
import { globTest, relativeTo, type PathTest } from './globs.js';
import type { RuleLayer } from './rule-layers.js';

export interface SettingsOptions {
  /** One config for every file (`--config FILE`), instead of each file's closest. */
  configFile?: string | undefined;
  /** No config at all (`--isolated`). */
  isolated?: boolean | undefined;
}

/** The names a project defines elsewhere, never reported as unknown. */
export interface DeclaredNames {
  roles: string[];
  directives: string[];
  literalDirectives: string[];
  substitutions: string[];
}

export interface FileSettings {
  /** The config that governs the file, if any. */
  config: ProjectConfig | undefined;
  /** The dialect the config sets for the file; undefined: it sets none. */
  dialect: Dialect | undefined;
  /** The config's rule choices, top level first, then each matching override. */
  ruleLayers: RuleLayer[];
  names: DeclaredNames;
  /** The line length the config sets for the file (the last override that sets one wins). */
  lineLength?: number | undefined;
}

/** What a walk takes from a folder's config: which files it picks up. */
export interface WalkRules {
  extensions: readonly string[];
  /** Whether a path (absolute) is excluded. */
  excluded: (absolute: string, isDir: boolean) => boolean;
  /** Whether a file (absolute) is one `include` lets through. */
  included: (absolute: string) => boolean;
}

const NAME_KEYS = ['roles', 'directives', 'literalDirectives', 'substitutions'] as const;

function union(into: string[], more: readonly string[] | undefined): void {
  for (const name of more ?? []) if (!into.includes(name)) into.push(name);
}

interface Compiled {
  config: ProjectConfig;
  include: PathTest | undefined;
  exclude: PathTest;
  overrides: { test: PathTest; choice: FileChoice }[];
}

export class ProjectSettings {
  private readonly finder = new ConfigFinder();
  private readonly fixed: ProjectConfig | undefined;
  private readonly compiled = new Map<ProjectConfig, Compiled>();

  constructor(private readonly options: SettingsOptions = {}) {
    // Read at once: a --config that is wrong stops the command before any file is looked at.
    this.fixed = options.configFile === undefined || options.isolated ? undefined : readConfigFile(options.configFile, true);
  }

  /** The config governing the files of folder `dir`. */
  configFor(dir: string): ProjectConfig | undefined {
    if (this.options.isolated) return undefined;
    return this.fixed ?? this.finder.find(dir);
  }

  private compile(config: ProjectConfig): Compiled {
    let c = this.compiled.get(config);
    if (c === undefined) {
      c = {
        config,
        include: config.include === undefined ? undefined : globTest(config.include),
        exclude: globTest(config.exclude),
        overrides: config.overrides.map(({ paths, ...choice }) => ({ test: globTest(paths), choice })),
      };
      this.compiled.set(config, c);
    }
    return c;
  }

  walkRules(dir: string): WalkRules {
    const config = this.configFor(dir);
    if (config === undefined) return { extensions: DEFAULT_EXTENSIONS, excluded: () => false, included: () => true };
    const c = this.compile(config);
    return {
      extensions: config.extensions,
      excluded: (absolute) => c.exclude(relativeTo(config.root, absolute)),
      included: (absolute) => c.include === undefined || c.include(relativeTo(config.root, absolute)),
    };
  }

  /** The settings of `file` (a path; for standard input, a name in the folder it stands for). */
  settingsFor(file: string): FileSettings {
    const absolute = path.resolve(file);
    const config = this.configFor(path.dirname(absolute));
    const names: DeclaredNames = { roles: [], directives: [], literalDirectives: [], substitutions: [] };
    if (config === undefined) return { config, dialect: undefined, ruleLayers: [], names };
    const choices: FileChoice[] = [config];
    const relative = relativeTo(config.root, absolute);
    for (const o of this.compile(config).overrides) if (o.test(relative)) choices.push(o.choice);
    let dialect: Dialect | undefined;
    let lineLength: number | undefined;
    const ruleLayers: RuleLayer[] = [];
    for (const choice of choices) {
      dialect = choice.dialect ?? dialect;
      lineLength = choice.lineLength ?? lineLength;
      ruleLayers.push({ select: choice.select, ignore: choice.ignore, extendSelect: choice.extendSelect });
      for (const key of NAME_KEYS) union(names[key], choice[key]);
    }
    return { config, dialect, ruleLayers, names, lineLength };
  }
}

/** The settings of one file, for a caller with one file to ask about (the language server). */
export function settingsFor(filePath: string, options: SettingsOptions = {}): FileSettings {
  return new ProjectSettings(options).settingsFor(filePath);
}

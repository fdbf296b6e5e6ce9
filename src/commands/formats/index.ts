/** The output formats of `rst2 check --format`, by name. */
import { GITHUB } from './github.js';
import { JSON_FORMAT } from './json.js';
import { JUNIT } from './junit.js';
import { sarifFormat, type SarifTool } from './sarif.js';
import { TEXT } from './text.js';
import type { Format } from './types.js';

export const FORMAT_NAMES = ['text', 'json', 'github', 'sarif', 'junit'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export function formatNamed(name: FormatName, tool: SarifTool): Format {
  switch (name) {
    case 'text':
      return TEXT;
    case 'json':
      return JSON_FORMAT;
    case 'github':
      return GITHUB;
    case 'sarif':
      return sarifFormat(tool);
    case 'junit':
      return JUNIT;
  }
}

export type { FileReport, Format } from './types.js';

/** The XML lists of styles and classes, as the reference shows them. */
import { js2xml } from 'xml-js';

export function xmlList(container: 'styles' | 'classes', item: 'style' | 'class', names: readonly string[]): string {
  return (
    js2xml(
      {
        _declaration: { _attributes: { version: '1.0', encoding: 'UTF-8' } },
        [container]: { [item]: names.map((name) => ({ _attributes: { name } })) },
      },
      { compact: true, spaces: 2 },
    ) + '\n'
  );
}

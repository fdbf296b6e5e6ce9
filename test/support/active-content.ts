/**
 * What in an HTML page could run script, load something or navigate, as a
 * browser reads it: parse5 builds the same tree a browser does (WHATWG
 * parsing, MathML and SVG included), and every element is looked at.
 */
import { parse, type DefaultTreeAdapterTypes } from 'parse5';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

const ACTIVE_ELEMENTS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'form', 'link', 'portal', 'svg', 'template']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background', 'srcset', 'ping', 'cite']);

/** The scheme a browser sees: C0 controls and spaces around and tabs/newlines inside do not count. */
export function schemeOf(url: string): string {
  const squeezed = url.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  const match = /^([a-z][a-z0-9+.-]*):/.exec(squeezed);
  return match ? match[1]! : '';
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function problemsOf(element: Element, inHead: boolean): string[] {
  const found: string[] = [];
  const tag = element.tagName;
  if (ACTIVE_ELEMENTS.has(tag)) found.push(`<${tag}>`);
  if (tag === 'style' && !inHead) found.push('<style> outside head');
  for (const attr of element.attrs) {
    const name = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
    if (name.startsWith('on')) found.push(`${name} on <${tag}>`);
    if (name === 'http-equiv') found.push(`http-equiv on <${tag}>`);
    if (name === 'srcdoc' || name === 'is') found.push(`${name} on <${tag}>`);
    if (URL_ATTRIBUTES.has(name)) {
      const scheme = schemeOf(attr.value);
      const image = tag === 'img' && name === 'src' && /^data:image\//i.test(attr.value.trim());
      if (['javascript', 'vbscript', 'data', 'livescript'].includes(scheme) && !image) found.push(`${name}=${attr.value.slice(0, 40)} on <${tag}>`);
    }
    if (name === 'style' && /url\(|expression|javascript:|binding|behavior|@import/i.test(attr.value.replace(/\\/g, ''))) found.push(`style on <${tag}>`);
  }
  return found;
}

/** Every active thing in the page (empty when the page is inert). */
export function activeContent(html: string): string[] {
  const found: string[] = [];
  const walk = (node: Node, inHead: boolean): void => {
    let head = inHead;
    if (isElement(node)) {
      found.push(...problemsOf(node, inHead));
      head = inHead || node.tagName === 'head';
    }
    if ('childNodes' in node) for (const child of node.childNodes) walk(child, head);
    if ('content' in node) walk(node.content, head);
  };
  walk(parse(html), false);
  return found;
}

/**
 * Checks one real HTTP exchange against the OpenAPI description: the path and
 * method exist, the status is listed, the media type and required headers are
 * there, header values and bodies (JSON, text, XML) match their schemas, and
 * the request used documented parameters and body types. Schemas are
 * validated with ajv for JSON Schema 2020-12 (what OpenAPI 3.1 uses).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { xml2js, type Element } from 'xml-js';

import type { Header, JsonSchema, MediaType, Method, OpenApiDocument, Operation, Parameter, PathItem, Reference, Response } from '../../src/http/openapi-types.js';

const addFormats = addFormatsModule.default;
const DOC_ID = 'urn:rst2:openapi';

/** What a request looked like, as far as the description cares. */
export interface SentRequest {
  method: string;
  /** Path and query string. */
  target: string;
  /** Media type of the body, if any. */
  contentType?: string;
  /** Its charset parameter, if one was sent. */
  charset?: string;
  /** Names of the body's form fields (urlencoded or multipart). */
  fields?: readonly string[];
}

export interface Exchange {
  request: SentRequest;
  status: number;
  headers: Headers;
  body: Buffer;
}

/** What matched: an operation (path template + method), or one of the answers for unmatched requests. */
export type Match = { kind: 'operation'; path: string; method: Method } | { kind: 'unmatched'; response: string };

function isReference(value: object): value is Reference {
  return '$ref' in value && typeof (value as Reference).$ref === 'string';
}

function pointer(path: readonly string[]): string {
  return '#/' + path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

export class DescriptionChecker {
  private readonly ajv: Ajv2020;
  /** Header values are text: coerce them to the schema's type before validating. */
  private readonly headerAjv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDocument) {
    this.ajv = DescriptionChecker.makeAjv(false);
    this.headerAjv = DescriptionChecker.makeAjv(true);
    // The whole description is one schema resource, so `#/components/...` references resolve.
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  static makeAjv(coerceTypes: boolean): Ajv2020 {
    const ajv = new Ajv2020({ strict: true, allErrors: true, coerceTypes });
    // OpenAPI's own keywords inside schemas, and the top-level fields of the description.
    ajv.addVocabulary(['xml', 'example', 'discriminator', 'externalDocs', 'openapi', 'info', 'tags', 'paths', 'components']);
    addFormats(ajv);
    return ajv;
  }

  /** A validator for the schema at a JSON pointer into the description (compiled once). */
  validatorAt(path: readonly string[]): ValidateFunction {
    const at = pointer(path);
    let validate = this.compiled.get(at);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}${at}` });
      this.compiled.set(at, validate);
    }
    return validate;
  }

  private headerValidator(schema: JsonSchema): ValidateFunction {
    const key = `header:${JSON.stringify(schema)}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      // Wrapped in an object: coercion works on properties, not on a bare root value.
      validate = this.headerAjv.compile({ type: 'object', properties: { value: schema } });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  resolve<T extends object>(value: T | Reference): T {
    if (!isReference(value)) return value;
    const parts = value.$ref.replace(/^#\//, '').split('/');
    let node: unknown = this.doc;
    for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new Error(`unresolved reference ${value.$ref}`);
    return node as T;
  }

  /** The documented path template a request path falls under. */
  findPath(pathname: string): string | undefined {
    return Object.keys(this.doc.paths).find((template) => {
      const pattern = template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      return new RegExp(`^${pattern}/?$`).test(pathname);
    });
  }

  operations(): Array<{ path: string; method: Method; operation: Operation }> {
    const out: Array<{ path: string; method: Method; operation: Operation }> = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const method of ['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'trace'] as const) {
        const operation = item[method];
        if (operation) out.push({ path, method, operation });
      }
    }
    return out;
  }

  private parametersOf(item: PathItem, operation: Operation): Parameter[] {
    return [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => this.resolve<Parameter>(p));
  }

  /** Throws an Error naming the first way the exchange departs from the description. */
  check(ex: Exchange, options: { unknownParameterExpected?: boolean } = {}): Match {
    const url = new URL(ex.request.target, 'http://host');
    const path = this.findPath(url.pathname);
    if (path === undefined) {
      this.checkResponse(ex, this.doc.components.responses.NotFound!, ['components', 'responses', 'NotFound'], 'unknown path');
      if (ex.status !== 404) throw new Error(`${url.pathname} is not in the description, yet answered ${ex.status}`);
      return { kind: 'unmatched', response: 'NotFound' };
    }
    const item = this.doc.paths[path]!;
    const method = ex.request.method.toLowerCase() as Method;
    const operation = item[method];
    if (!operation) {
      const name = ex.status === 501 ? 'NotImplemented' : 'MethodNotAllowed';
      if (ex.status !== 405 && ex.status !== 501) throw new Error(`${ex.request.method} ${path} is not in the description, yet answered ${ex.status}`);
      this.checkResponse(ex, this.doc.components.responses[name]!, ['components', 'responses', name], `${ex.request.method} ${path}`);
      if (ex.status === 405) this.checkAllow(ex.headers.get('allow') ?? '', item, path);
      return { kind: 'unmatched', response: name };
    }
    const where = `${ex.request.method} ${path} → ${ex.status}`;
    this.checkRequest(ex.request, url, item, operation, ex.status, options.unknownParameterExpected === true, where);
    const response = operation.responses[String(ex.status)];
    if (!response) throw new Error(`${where}: status ${ex.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
    const responsePath = ['paths', path, method, 'responses', String(ex.status)];
    this.checkResponse(ex, response, isReference(response) ? response.$ref.slice(2).split('/') : responsePath, where);
    return { kind: 'operation', path, method };
  }

  /** Allow must name exactly the documented methods (and HEAD, which comes with GET). */
  private checkAllow(allow: string, item: PathItem, path: string): void {
    const documented = new Set((['get', 'post', 'put', 'delete', 'patch', 'options', 'trace'] as const).filter((m) => item[m]).map((m) => m.toUpperCase()));
    if (documented.has('GET')) documented.add('HEAD');
    const given = new Set(allow.split(',').map((m) => m.trim()).filter(Boolean));
    const same = given.size === documented.size && [...given].every((m) => documented.has(m));
    if (!same) throw new Error(`Allow on ${path} is "${allow}", the description has ${[...documented].join(', ')}`);
  }

  private checkRequest(req: SentRequest, url: URL, item: PathItem, operation: Operation, status: number, unknownExpected: boolean, where: string): void {
    const params = this.parametersOf(item, operation);
    if (!unknownExpected) {
      const query = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
      for (const name of new URLSearchParams(url.search).keys()) {
        if (!query.has(name)) throw new Error(`${where}: the request's query parameter "${name}" is not documented`);
      }
    }
    if (req.contentType === undefined) return;
    const body = operation.requestBody;
    if (!body) throw new Error(`${where}: the request has a body, the operation documents none`);
    const media = body.content[req.contentType];
    if (!media) {
      if (status === 415) return; // the service refused it, as documented
      throw new Error(`${where}: the body type ${req.contentType} is not documented (documented: ${Object.keys(body.content).join(', ')})`);
    }
    // A documented type is refused only for a charset other than UTF-8.
    if (status === 415 && !(req.charset && !/^utf-?8$/i.test(req.charset))) throw new Error(`${where}: ${req.contentType} is documented, yet refused`);
    if (req.fields && !unknownExpected) {
      const properties = media.schema?.properties ?? {};
      for (const field of req.fields) if (!(field in properties)) throw new Error(`${where}: the form field "${field}" is not documented`);
    }
  }

  private checkResponse(ex: Exchange, responseOrRef: Response | Reference, at: string[], where: string): void {
    const response = this.resolve(responseOrRef);
    for (const [name, headerOrRef] of Object.entries(response.headers ?? {})) {
      const header = this.resolve<Header>(headerOrRef);
      const value = ex.headers.get(name);
      if (value === null) {
        if (header.required) throw new Error(`${where}: the required header ${name} is missing`);
        continue;
      }
      const holder = { value };
      const validate = this.headerValidator(header.schema);
      if (!validate(holder)) throw new Error(`${where}: header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
    }

    const content = response.content;
    if (!content) {
      if (ex.body.length > 0) throw new Error(`${where}: the description has no body, the response has ${ex.body.length} bytes`);
      return;
    }
    const type = (ex.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const media: MediaType | undefined = content[type];
    if (!media) throw new Error(`${where}: Content-Type ${type || 'none'} is not documented (documented: ${Object.keys(content).join(', ')})`);
    if (!media.schema) return;
    const schemaAt = [...at, 'content', type, 'schema'];
    const text = ex.body.toString('utf8');
    let value: unknown = text;
    if (type === 'application/json') value = JSON.parse(text);
    else if (type === 'application/xml') value = xmlValue(text, this.resolve<JsonSchema>(media.schema), where);
    const validate = this.validatorAt(schemaAt);
    if (!validate(value)) throw new Error(`${where}: the body does not match its schema: ${this.ajv.errorsText(validate.errors)}; body ${text.slice(0, 300)}`);
  }
}

/**
 * Reads XML as OpenAPI's XML mapping describes it: the root element named by
 * the schema's xml.name, attributes for properties marked xml.attribute,
 * repeated child elements for arrays. Elements the schema does not describe
 * become extra properties, so `additionalProperties: false` catches them.
 */
function xmlValue(xml: string, schema: JsonSchema, where: string): unknown {
  const tree = xml2js(xml, { compact: false }) as Element;
  const roots = (tree.elements ?? []).filter((e) => e.type === 'element');
  if (roots.length !== 1) throw new Error(`${where}: the XML has ${roots.length} root elements`);
  const root = roots[0]!;
  if (schema.xml?.name !== undefined && root.name !== schema.xml.name) throw new Error(`${where}: the XML root is <${root.name}>, the description says <${schema.xml.name}>`);
  return elementValue(root, schema);
}

function elementValue(element: Element, schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const children = (element.elements ?? []).filter((e) => e.type === 'element');
  const described = new Set<string>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.xml?.attribute) {
      const value = element.attributes?.[name];
      if (value !== undefined) out[name] = String(value);
    } else if (property.type === 'array' && property.items) {
      const itemName = property.items.xml?.name ?? name;
      described.add(itemName);
      out[name] = children.filter((c) => c.name === itemName).map((c) => elementValue(c, property.items!));
    }
  }
  for (const [name, value] of Object.entries(element.attributes ?? {})) if (!(name in out)) out[`@${name}`] = value;
  for (const child of children) if (!described.has(child.name ?? '')) out[`<${child.name}>`] = true;
  return out;
}

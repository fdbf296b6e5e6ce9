/**
 * The part of OpenAPI 3.1 (and of JSON Schema 2020-12) that our description
 * uses, so the compiler checks its shape. Not a complete model of the format.
 */

export interface Reference {
  $ref: string;
}

/** A JSON Schema 2020-12 object with OpenAPI's `xml` annotation. */
export interface JsonSchema {
  $ref?: string;
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null' | ReadonlyArray<'string' | 'integer' | 'null'>;
  description?: string;
  enum?: readonly (string | number | null)[];
  const?: string | number | boolean;
  default?: string | number;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  allOf?: readonly JsonSchema[];
  anyOf?: readonly JsonSchema[];
  contentMediaType?: string;
  xml?: { name?: string; attribute?: boolean; wrapped?: boolean };
  examples?: readonly unknown[];
}

export interface Header {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaType {
  schema?: JsonSchema;
  encoding?: Record<string, { contentType?: string }>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  parameters?: Array<Parameter | Reference>;
  requestBody?: RequestBody;
  responses: Record<string, Response | Reference>;
}

export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options' | 'trace';

export type PathItem = { summary?: string; description?: string; parameters?: Array<Parameter | Reference> } & { [M in Method]?: Operation };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; summary?: string; description?: string; license?: { name: string; identifier?: string } };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    responses: Record<string, Response>;
  };
}

// Checks /octo responses against the OCTo standard's own OpenAPI document (test/octo/spec/openapi.yaml, a copy of
// ../shared/spec/octo), not against our TypeBox schemas: a reply that drifts from OCTo fails here even if it matches ours.
// OpenAPI 3.0's `nullable: true` is not JSON Schema; it becomes `anyOf: [null, the schema]` before Ajv sees it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import type { LightMyRequestResponse } from 'fastify';

const SPEC_FILE = fileURLToPath(new URL('./spec/openapi.yaml', import.meta.url));

function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key.startsWith('x-') || key === 'nullable') continue;
    out[key] = toJsonSchema(value);
  }
  return (node as { nullable?: boolean }).nullable === true ? { anyOf: [{ type: 'null' }, out] } : out;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const document = parse(readFileSync(SPEC_FILE, 'utf8')) as { components: { schemas: Record<string, unknown> } };
ajv.addSchema({ $id: 'octo', components: toJsonSchema(document.components) });

const validators = new Map<string, ValidateFunction>();
function validator(component: string, array: boolean): ValidateFunction {
  const key = `${component}${array ? '[]' : ''}`;
  let validate = validators.get(key);
  if (!validate) {
    if (!document.components.schemas[component]) throw new Error(`The OCTo document has no component ${component}`);
    const ref = { $ref: `octo#/components/schemas/${component}` };
    validate = ajv.compile(array ? { type: 'array', items: ref } : ref);
    validators.set(key, validate);
  }
  return validate;
}

/** Throws unless `body` is valid against the OCTo component (or an array of it). */
export function assertOctoSchema(body: unknown, component: string, array = false): void {
  const validate = validator(component, array);
  if (!validate(body)) {
    throw new Error(`not a valid OCTo ${component}${array ? '[]' : ''}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`);
  }
}

function assertOctoHeaders(response: LightMyRequestResponse): void {
  if (!String(response.headers['content-type']).startsWith('application/json')) {
    throw new Error(`expected application/json, got ${response.headers['content-type']}: ${response.body}`);
  }
  if (typeof response.headers['octo-capabilities'] !== 'string') throw new Error('the Octo-Capabilities header is missing');
}

/** A 200 whose body is the OCTo component (or an array of it); returns the parsed body. */
export function octoBody<T = any>(response: LightMyRequestResponse, component: string, array = false): T {
  if (response.statusCode !== 200) throw new Error(`expected 200 ${component}, got ${response.statusCode}: ${response.body}`);
  assertOctoHeaders(response);
  const body = response.json();
  assertOctoSchema(body, component, array);
  return body as T;
}

/** The component of each error code that has one of its own in the OCTo document. */
const ERROR_COMPONENTS: Record<string, string> = {
  INVALID_PRODUCT_ID: 'ErrorInvalidProductID',
  INVALID_OPTION_ID: 'ErrorInvalidOptionID',
  INVALID_UNIT_ID: 'ErrorInvalidUnitID',
  INVALID_AVAILABILITY_ID: 'ErrorInvalidAvailabilityID',
  INVALID_BOOKING_UUID: 'ErrorInvalidBookingUUID',
  BAD_REQUEST: 'ErrorBadRequest',
  UNPROCESSABLE_ENTITY: 'ErrorUnprocessableEntity',
  UNAUTHORIZED: 'ErrorUnauthorized',
  FORBIDDEN: 'ErrorForbidden',
  INTERNAL_SERVER_ERROR: 'ErrorInternalServerError',
};

/** An OCTo error with this status and code, valid against the OCTo document; returns the parsed body. */
export function octoError(response: LightMyRequestResponse, status: number, code: string) {
  const body = response.json();
  if (response.statusCode !== status || body.error !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.statusCode}: ${response.body}`);
  }
  assertOctoHeaders(response);
  assertOctoSchema(body, 'BaseError');
  assertOctoSchema(body, ERROR_COMPONENTS[code] ?? 'BaseError');
  return body as {
    error: string;
    errorMessage: string;
    productId?: string;
    optionId?: string;
    unitId?: string;
    availabilityId?: string;
    uuid?: string;
  };
}

import { Code, ServiceError } from '../errors.js';

/** The one answer to a request body over RST2_MAX_BODY_BYTES, whatever its form. */
export function bodyTooLarge(maxBytes: number): ServiceError {
  return new ServiceError(Code.body_too_large, `The request body is larger than ${maxBytes} bytes.`, { details: { maxBytes } });
}

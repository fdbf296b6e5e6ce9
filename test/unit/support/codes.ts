/** The code of the ServiceError a call throws or a promise rejects with; anything else fails the test. */
import { expect } from 'chai';

import { ServiceError, type ErrorCode } from '../../../src/errors.js';

function codeOfError(err: unknown): ErrorCode {
  expect(err, String(err)).to.be.instanceOf(ServiceError);
  return (err as ServiceError).code;
}

export function thrownCode(fn: () => unknown): ErrorCode {
  try {
    fn();
  } catch (err) {
    return codeOfError(err);
  }
  return expect.fail('expected a ServiceError');
}

export async function rejectionCode(promise: Promise<unknown>): Promise<ErrorCode> {
  try {
    await promise;
  } catch (err) {
    return codeOfError(err);
  }
  return expect.fail('expected a ServiceError');
}

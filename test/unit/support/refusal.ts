import { expect } from 'chai';

import { ImageRefused } from '../../../src/images/problems.js';

/** The reason an image check gives when it refuses, failing the test when it does not refuse. */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(ImageRefused);
    return (error as ImageRefused).reason;
  }
  return expect.fail('expected ImageRefused');
}

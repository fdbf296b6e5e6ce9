/** The shape the access log gives a path no route matched. */
import { expect } from 'chai';

import { pathShape } from '../../src/http/path-shape.js';

describe('path shape', () => {
  it('keeps the start that is one of our own paths, and hides the rest behind one *', () => {
    const token = 'ab'.repeat(16);
    const cases: Array<[string, string]> = [
      [`/1.0/rst2/token/${token}/raw`, '/1.0/rst2/token/*'],
      [`/1.0/rst2/token//${token}`, '/1.0/rst2/token/*'],
      [`/1.0/rst2/html/${token}`, '/1.0/rst2/html/*'],
      ['/1.0/rst2/token/', '/1.0/rst2/token/*'],
      ['/1.0/rst2/token', '/1.0/rst2/token'],
      ['/health', '/health'],
      ['/health/x', '/health/*'],
      [`/${token}`, '/*'],
      ['/', '/*'],
      ['', '/*'],
      [`/1.0/${token}/rst2`, '/1.0/*'],
      [`/docs/${token}.html`, '/docs/*'],
    ];
    for (const [path, shape] of cases) expect(pathShape(path), path).to.equal(shape);
  });

  it('is never longer than our longest path and a star, whatever was sent', () => {
    expect(pathShape(`/1.0/rst2/html${'/html'.repeat(5000)}`)).to.equal('/1.0/rst2/html/*');
    expect(pathShape('/health'.repeat(5000))).to.equal('/health/*');
  });
});
